package io.geobroker.matching;

import io.geobroker.domain.OrderType;
import io.geobroker.domain.Side;

import java.util.Arrays;
import java.util.Objects;

/**
 * The waiting orders of one symbol and the rules that fill them against its tickers (SPEC §2).
 *
 * <p>Against a ticker (price {@code p}, volume {@code v}):
 * <ol>
 *   <li>Stops trigger: a BUY STOP/STOP_LIMIT when {@code p >= stop}, a SELL one when
 *       {@code p <= stop}. A triggered STOP becomes a market order, a triggered STOP_LIMIT a limit
 *       order at its limit (which may fill on this very ticker).</li>
 *   <li>Orders fill at {@code p}: market orders (triggered stops) first, then BUY LIMITs with
 *       {@code p <= limit} and SELL LIMITs with {@code p >= limit}, best limit first (highest buy,
 *       lowest sell; across the two sides, the larger improvement on {@code p} first), then by
 *       {@link RestingOrder#sequence() sequence}.</li>
 *   <li>{@code v} caps the total filled, both sides together. An order that needs more than what
 *       is left fills partly and keeps resting, unless it is all-or-none: then it is skipped and the
 *       volume goes on to the orders after it.</li>
 * </ol>
 *
 * <p><b>Cost.</b> A ticker that crosses nothing costs O(1): four peeks at the best level of each
 * trigger and limit ladder plus one at the market queue. A crossing ticker costs O(1) per filled or
 * skipped all-or-none order and per crossed level, and O(log levels) per triggered order (it joins
 * its new queue); it never depends on how many orders rest away from the ticker price. {@link #add}
 * and {@link #cancel} cost a hash lookup and an O(log levels) search, plus an array shift when they
 * create or empty a level (short for levels near the best, where most orders arrive) and a walk
 * back through the level when an order arrives out of sequence order.
 *
 * <p><b>Memory.</b> Orders live in a struct-of-arrays pool addressed by an {@code int} slot (six
 * {@code long}s, four {@code int} links, one flag byte: 65 bytes) plus a 4-byte-per-bucket id index,
 * so no object is kept per order and the hot path reads contiguous primitive arrays. Each price
 * level is an intrusive FIFO threaded through the pool; levels sit in sorted primitive arrays
 * ({@link PriceLadder}). DAY orders are also threaded into an expiry ladder keyed by expiry time,
 * so {@link #expireUpTo} touches only the orders that expire.
 *
 * <p><b>Threading.</b> Not thread-safe: confine a book to one thread (or guard it with one lock).
 * Sinks are called synchronously and must not call back into the book. Every event is applied to
 * the book before it is reported, so a sink that throws leaves the book consistent with exactly the
 * events it was told about.
 */
public final class OrderBook {

    private static final int NONE = -1;

    private static final int SELL = 1;
    private static final int ALL_OR_NONE = 1 << 1;
    private static final int TYPE_SHIFT = 2;
    private static final int TYPE_MASK = 3 << TYPE_SHIFT;
    private static final int TYPE_MARKET = 0;
    private static final int TYPE_LIMIT = 1;
    private static final int TYPE_STOP = 2;
    private static final int TYPE_STOP_LIMIT = 3;
    private static final int QUEUE_SHIFT = 4;
    private static final int QUEUE_MASK = 3 << QUEUE_SHIFT;
    private static final int IN_MARKET = 0;
    private static final int IN_LIMITS = 1;
    private static final int IN_STOPS = 2;

    private static final long MARKET_KEY = 0;

    private final String symbol;

    private long[] ids;
    private long[] limitPrices;
    private long[] stopPrices;
    private long[] remaining;
    private long[] sequences;
    private long[] expiries;
    private int[] next;
    private int[] prev;
    private int[] expiryNext;
    private int[] expiryPrev;
    private byte[] flags;
    private int used;
    private int freeHead = NONE;

    private final SlotIndex index;
    private final PriceLadder buyLimits = new PriceLadder();
    private final PriceLadder sellLimits = new PriceLadder();
    private final PriceLadder buyStops = new PriceLadder();
    private final PriceLadder sellStops = new PriceLadder();
    private final PriceLadder market = new PriceLadder();
    private final PriceLadder expiry = new PriceLadder();

    private long lastPrice;
    private long lastVolumeLeft;
    private int fills;
    private boolean busy;

    /** An empty book sized for a few thousand orders; it grows as needed. */
    public OrderBook(String symbol) {
        this(symbol, 1024);
    }

    /**
     * An empty book with room for {@code expectedOrders} before its arrays grow (growing copies
     * them, so size it when the order count is known, e.g. when rebuilding after a restart).
     */
    public OrderBook(String symbol, int expectedOrders) {
        this.symbol = Objects.requireNonNull(symbol, "symbol");
        if (expectedOrders < 0) {
            throw new IllegalArgumentException("expectedOrders must be >= 0, was " + expectedOrders);
        }
        int capacity = Math.max(16, expectedOrders);
        ids = new long[capacity];
        limitPrices = new long[capacity];
        stopPrices = new long[capacity];
        remaining = new long[capacity];
        sequences = new long[capacity];
        expiries = new long[capacity];
        next = new int[capacity];
        prev = new int[capacity];
        expiryNext = new int[capacity];
        expiryPrev = new int[capacity];
        flags = new byte[capacity];
        index = new SlotIndex(capacity);
    }

    public String symbol() {
        return symbol;
    }

    /** Number of resting orders. */
    public int size() {
        return index.size();
    }

    /** Shares still to fill of order {@code id}, or -1 if it is not in the book. */
    public long remaining(long id) {
        int slot = index.get(id, ids);
        return slot == NONE ? -1 : remaining[slot];
    }

    /**
     * Puts an order in the book; it fills on later tickers only (a limit order that the last ticker
     * would already have crossed waits for the next one).
     */
    public AddResult add(RestingOrder order) {
        checkIdle();
        if (index.get(order.id(), ids) != NONE) {
            return AddResult.DUPLICATE_ID;
        }
        int slot = allocateSlot();
        ids[slot] = order.id();
        limitPrices[slot] = order.limitPrice();
        stopPrices[slot] = order.stopPrice();
        remaining[slot] = order.quantity();
        sequences[slot] = order.sequence();
        expiries[slot] = order.expiresAtMicros();
        int type = typeCode(order.type());
        int queue = type == TYPE_MARKET ? IN_MARKET : type == TYPE_LIMIT ? IN_LIMITS : IN_STOPS;
        flags[slot] = (byte) ((order.side() == Side.SELL ? SELL : 0)
                | (order.allOrNone() ? ALL_OR_NONE : 0)
                | type << TYPE_SHIFT
                | queue << QUEUE_SHIFT);
        enqueue(ladderOf(slot), keyOf(slot), slot);
        if (order.expiresAtMicros() != RestingOrder.GOOD_TILL_CANCELLED) {
            linkExpiry(slot);
        }
        index.put(slot, ids);
        return AddResult.ACCEPTED;
    }

    /** Removes order {@code id}; returns its unfilled shares, or -1 if it is not in the book. */
    public long cancel(long id) {
        checkIdle();
        int slot = index.get(id, ids);
        if (slot == NONE) {
            return -1;
        }
        long unfilled = remaining[slot];
        dequeue(slot);
        release(slot);
        return unfilled;
    }

    /**
     * Applies one ticker: triggers stops, then fills what the ticker crosses (see the class
     * comment), reporting every trigger and fill to {@code sink} as it happens.
     *
     * @param price  the ticker price, &gt; 0
     * @param volume shares available at that price, &gt;= 0
     * @return the number of fills
     */
    public int onTicker(long price, long volume, FillSink sink) {
        if (price <= 0 || volume < 0) {
            throw new IllegalArgumentException("bad ticker: price " + price + ", volume " + volume);
        }
        checkIdle();
        busy = true;
        try {
            lastPrice = price;
            fills = 0;
            triggerBuyStops(price, sink);
            triggerSellStops(price, sink);
            long left = volume;
            if (left > 0 && market.size() > 0) {
                left = fill(market, 0, null, NONE, price, left, sink);
            }
            int buy = buyLimits.size() - 1;
            int sell = sellLimits.size() - 1;
            while (left > 0) {
                // Levels are visited best first; removing an emptied level never moves worse ones.
                long buyGain = buy >= 0 ? buyLimits.key(buy) - price : -1;
                long sellGain = sell >= 0 ? price + sellLimits.key(sell) : -1;
                if (buyGain < 0 && sellGain < 0) {
                    break;
                }
                if (buyGain > sellGain) {
                    left = fill(buyLimits, buy--, null, NONE, price, left, sink);
                } else if (sellGain > buyGain) {
                    left = fill(sellLimits, sell--, null, NONE, price, left, sink);
                } else {
                    left = fill(buyLimits, buy--, sellLimits, sell--, price, left, sink);
                }
            }
            lastVolumeLeft = left;
            return fills;
        } finally {
            busy = false;
        }
    }

    /**
     * Removes every order whose expiry is at or before {@code epochMicros}, reporting each to
     * {@code sink}. Costs O(1) per expired order; GTC orders are never looked at.
     *
     * @return the number of expired orders
     */
    public int expireUpTo(long epochMicros, ExpirySink sink) {
        checkIdle();
        busy = true;
        try {
            int expired = 0;
            while (expiry.size() > 0 && -expiry.key(expiry.best()) <= epochMicros) {
                int slot = expiry.head(expiry.best());
                long id = ids[slot];
                long unfilled = remaining[slot];
                dequeue(slot);
                release(slot);
                expired++;
                sink.onExpired(id, unfilled);
            }
            return expired;
        } finally {
            busy = false;
        }
    }

    /** Price of the last ticker, or 0 before the first one. */
    public long lastPrice() {
        return lastPrice;
    }

    /** Volume of the last ticker that its fills (and {@link #takeFromLastTicker}) left unused. */
    public long lastVolumeLeft() {
        return lastVolumeLeft;
    }

    /**
     * Executes a customer's market order against what is left of the last ticker: fills
     * {@code min(quantity, lastVolumeLeft())} at {@link #lastPrice()} (0 for an all-or-none order
     * that does not fit, or before any ticker) and takes that volume away, so that two market orders
     * never share the same shares. The order itself never rests in the book.
     *
     * @return the shares filled at {@link #lastPrice()}
     */
    public long takeFromLastTicker(long quantity, boolean allOrNone) {
        checkIdle();
        if (quantity <= 0) {
            throw new IllegalArgumentException("quantity must be positive, was " + quantity);
        }
        if (lastPrice == 0) {
            return 0;
        }
        long filled = Math.min(quantity, lastVolumeLeft);
        if (allOrNone && filled < quantity) {
            return 0;
        }
        lastVolumeLeft -= filled;
        return filled;
    }

    /**
     * Approximate heap held by this book's arrays, in bytes (allocated capacity, not only the
     * slots in use): for a resting-orders memory gauge.
     */
    public long footprintBytes() {
        long capacity = ids.length;
        long pool = capacity * (6L * Long.BYTES + 4L * Integer.BYTES + 1) + 11L * 16;
        return pool + index.allocatedBytes() + buyLimits.allocatedBytes() + sellLimits.allocatedBytes()
                + buyStops.allocatedBytes() + sellStops.allocatedBytes() + market.allocatedBytes()
                + expiry.allocatedBytes();
    }

    /**
     * Checks every structural invariant (sorted non-empty levels, consistent links, sequence order
     * within a level, every order in exactly the level its side, type and prices name, index and
     * expiry ladder in step with the levels) in O(orders); throws {@link IllegalStateException} on
     * the first violation. For tests and for a sanity check after rebuilding a book.
     */
    void validateInternalState() {
        int dayOrders = 0;
        int queued = 0;
        PriceLadder[] ladders = {market, buyLimits, sellLimits, buyStops, sellStops};
        for (PriceLadder ladder : ladders) {
            for (int level = 0; level < ladder.size(); level++) {
                if (level > 0 && ladder.key(level - 1) >= ladder.key(level)) {
                    fail("levels out of order");
                }
                if (ladder.head(level) == NONE || prev[ladder.head(level)] != NONE) {
                    fail("bad head of level " + ladder.key(level));
                }
                int last = NONE;
                for (int slot = ladder.head(level); slot != NONE; slot = next[slot]) {
                    if (prev[slot] != last) {
                        fail("broken links at order " + ids[slot]);
                    }
                    if (last != NONE && sequences[last] > sequences[slot]) {
                        fail("time priority broken at order " + ids[slot]);
                    }
                    if (ladderOf(slot) != ladder || keyOf(slot) != ladder.key(level)) {
                        fail("order " + ids[slot] + " in the wrong level");
                    }
                    int type = (flags[slot] & TYPE_MASK) >>> TYPE_SHIFT;
                    if (ladder == buyStops || ladder == sellStops) {
                        if (type != TYPE_STOP && type != TYPE_STOP_LIMIT) {
                            fail("order " + ids[slot] + " of type " + type + " among stops");
                        }
                    } else if (ladder == market ? type == TYPE_LIMIT || type == TYPE_STOP_LIMIT
                            : type == TYPE_MARKET || type == TYPE_STOP) {
                        fail("order " + ids[slot] + " of type " + type + " in the wrong queue");
                    }
                    if (remaining[slot] <= 0) {
                        fail("order " + ids[slot] + " rests with nothing to fill");
                    }
                    if (index.get(ids[slot], ids) != slot) {
                        fail("order " + ids[slot] + " missing from the index");
                    }
                    if (expiries[slot] != RestingOrder.GOOD_TILL_CANCELLED) {
                        dayOrders++;
                    }
                    queued++;
                    last = slot;
                }
                if (ladder.tail(level) != last) {
                    fail("bad tail of level " + ladder.key(level));
                }
            }
        }
        if (queued != index.size()) {
            fail(queued + " orders in levels but " + index.size() + " in the index");
        }
        int expiring = 0;
        for (int level = 0; level < expiry.size(); level++) {
            if (level > 0 && expiry.key(level - 1) >= expiry.key(level)) {
                fail("expiry levels out of order");
            }
            int last = NONE;
            for (int slot = expiry.head(level); slot != NONE; slot = expiryNext[slot]) {
                if (expiryPrev[slot] != last || expiries[slot] != -expiry.key(level)
                        || index.get(ids[slot], ids) != slot) {
                    fail("bad expiry entry for order " + ids[slot]);
                }
                expiring++;
                last = slot;
            }
            if (last == NONE || expiry.tail(level) != last) {
                fail("bad expiry level " + -expiry.key(level));
            }
        }
        if (expiring != dayOrders) {
            fail(dayOrders + " expiring orders but " + expiring + " in the expiry index");
        }
    }

    private void fail(String message) {
        throw new IllegalStateException("order book of " + symbol + ": " + message);
    }

    private void triggerBuyStops(long price, FillSink sink) {
        while (buyStops.size() > 0) {
            int level = buyStops.best();
            if (-buyStops.key(level) > price) {
                return;
            }
            triggerLevel(buyStops, level, sink);
        }
    }

    private void triggerSellStops(long price, FillSink sink) {
        while (sellStops.size() > 0) {
            int level = sellStops.best();
            if (sellStops.key(level) < price) {
                return;
            }
            triggerLevel(sellStops, level, sink);
        }
    }

    /** Triggers a whole level, moving one order at a time so that a throwing sink loses nothing. */
    private void triggerLevel(PriceLadder stops, int level, FillSink sink) {
        boolean more = true;
        while (more) {
            int slot = stops.head(level);
            more = next[slot] != NONE;
            unlink(stops, level, slot);
            boolean stopLimit = (flags[slot] & TYPE_MASK) >>> TYPE_SHIFT == TYPE_STOP_LIMIT;
            setQueue(slot, stopLimit ? IN_LIMITS : IN_MARKET);
            enqueue(ladderOf(slot), keyOf(slot), slot);
            sink.onTriggered(ids[slot]);
        }
    }

    /**
     * Fills the orders of one level, or of two levels of equal priority merged by sequence, until
     * {@code left} runs out; returns the volume left.
     */
    private long fill(PriceLadder ladderA, int levelA, PriceLadder ladderB, int levelB, long price, long left,
                      FillSink sink) {
        int a = ladderA.head(levelA);
        int b = ladderB == null ? NONE : ladderB.head(levelB);
        while (left > 0 && (a != NONE || b != NONE)) {
            int slot;
            PriceLadder ladder;
            int level;
            if (b == NONE || (a != NONE && sequences[a] <= sequences[b])) {
                slot = a;
                a = next[a];
                ladder = ladderA;
                level = levelA;
            } else {
                slot = b;
                b = next[b];
                ladder = ladderB;
                level = levelB;
            }
            long wanted = remaining[slot];
            if (wanted <= left) {
                left -= wanted;
                long id = ids[slot];
                unlink(ladder, level, slot);
                release(slot);
                fills++;
                sink.onFill(id, wanted, price, 0);
            } else if ((flags[slot] & ALL_OR_NONE) == 0) {
                remaining[slot] = wanted - left;
                fills++;
                sink.onFill(ids[slot], left, price, wanted - left);
                left = 0;
            }
        }
        return left;
    }

    private void checkIdle() {
        if (busy) {
            throw new IllegalStateException("a sink called back into the book of " + symbol);
        }
    }

    private static int typeCode(OrderType type) {
        return switch (type) {
            case MARKET -> TYPE_MARKET;
            case LIMIT -> TYPE_LIMIT;
            case STOP -> TYPE_STOP;
            case STOP_LIMIT -> TYPE_STOP_LIMIT;
        };
    }

    private void setQueue(int slot, int queue) {
        flags[slot] = (byte) ((flags[slot] & ~QUEUE_MASK) | queue << QUEUE_SHIFT);
    }

    private PriceLadder ladderOf(int slot) {
        boolean sell = (flags[slot] & SELL) != 0;
        return switch ((flags[slot] & QUEUE_MASK) >>> QUEUE_SHIFT) {
            case IN_MARKET -> market;
            case IN_LIMITS -> sell ? sellLimits : buyLimits;
            default -> sell ? sellStops : buyStops;
        };
    }

    /** Ladder key of a slot's level: grows towards the level that fills or triggers first. */
    private long keyOf(int slot) {
        boolean sell = (flags[slot] & SELL) != 0;
        return switch ((flags[slot] & QUEUE_MASK) >>> QUEUE_SHIFT) {
            case IN_MARKET -> MARKET_KEY;
            case IN_LIMITS -> sell ? -limitPrices[slot] : limitPrices[slot];
            default -> sell ? stopPrices[slot] : -stopPrices[slot];
        };
    }

    /** Inserts a slot into its level in sequence order (usually at the tail). */
    private void enqueue(PriceLadder ladder, long key, int slot) {
        int level = ladder.findOrInsert(key);
        long sequence = sequences[slot];
        int after = ladder.tail(level);
        while (after != NONE && sequences[after] > sequence) {
            after = prev[after];
        }
        int before = after == NONE ? ladder.head(level) : next[after];
        prev[slot] = after;
        next[slot] = before;
        if (after == NONE) {
            ladder.setHead(level, slot);
        } else {
            next[after] = slot;
        }
        if (before == NONE) {
            ladder.setTail(level, slot);
        } else {
            prev[before] = slot;
        }
    }

    private void dequeue(int slot) {
        PriceLadder ladder = ladderOf(slot);
        unlink(ladder, ladder.find(keyOf(slot)), slot);
    }

    /** Unlinks a slot from its level, dropping the level when it empties. */
    private void unlink(PriceLadder ladder, int level, int slot) {
        int before = prev[slot];
        int after = next[slot];
        if (before == NONE) {
            ladder.setHead(level, after);
        } else {
            next[before] = after;
        }
        if (after == NONE) {
            ladder.setTail(level, before);
        } else {
            prev[after] = before;
        }
        if (ladder.head(level) == NONE) {
            ladder.remove(level);
        }
    }

    private void linkExpiry(int slot) {
        int level = expiry.findOrInsert(-expiries[slot]);
        int tail = expiry.tail(level);
        expiryPrev[slot] = tail;
        expiryNext[slot] = NONE;
        if (tail == NONE) {
            expiry.setHead(level, slot);
        } else {
            expiryNext[tail] = slot;
        }
        expiry.setTail(level, slot);
    }

    private void unlinkExpiry(int slot) {
        int level = expiry.find(-expiries[slot]);
        int before = expiryPrev[slot];
        int after = expiryNext[slot];
        if (before == NONE) {
            expiry.setHead(level, after);
        } else {
            expiryNext[before] = after;
        }
        if (after == NONE) {
            expiry.setTail(level, before);
        } else {
            expiryPrev[after] = before;
        }
        if (expiry.head(level) == NONE) {
            expiry.remove(level);
        }
    }

    /** Forgets a slot that is no longer in any level. */
    private void release(int slot) {
        if (expiries[slot] != RestingOrder.GOOD_TILL_CANCELLED) {
            unlinkExpiry(slot);
        }
        index.remove(ids[slot], ids);
        next[slot] = freeHead;
        freeHead = slot;
    }

    private int allocateSlot() {
        if (freeHead != NONE) {
            int slot = freeHead;
            freeHead = next[slot];
            return slot;
        }
        if (used == ids.length) {
            grow();
        }
        return used++;
    }

    private void grow() {
        int capacity = (int) Math.min(Integer.MAX_VALUE - 8, ids.length + (long) (ids.length >> 1) + 16);
        if (capacity <= ids.length) {
            throw new IllegalStateException("order book of " + symbol + " is full");
        }
        ids = Arrays.copyOf(ids, capacity);
        limitPrices = Arrays.copyOf(limitPrices, capacity);
        stopPrices = Arrays.copyOf(stopPrices, capacity);
        remaining = Arrays.copyOf(remaining, capacity);
        sequences = Arrays.copyOf(sequences, capacity);
        expiries = Arrays.copyOf(expiries, capacity);
        next = Arrays.copyOf(next, capacity);
        prev = Arrays.copyOf(prev, capacity);
        expiryNext = Arrays.copyOf(expiryNext, capacity);
        expiryPrev = Arrays.copyOf(expiryPrev, capacity);
        flags = Arrays.copyOf(flags, capacity);
    }
}
