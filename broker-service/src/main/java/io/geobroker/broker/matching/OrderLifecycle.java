package io.geobroker.broker.matching;

import io.geobroker.broker.order.NewOrder;
import io.geobroker.broker.order.Order;
import io.geobroker.broker.order.OrderIds;
import io.geobroker.domain.Exchange;
import io.geobroker.domain.Fill;
import io.geobroker.domain.OrderStatus;
import io.geobroker.domain.OrderType;
import io.geobroker.domain.Side;
import io.geobroker.domain.SymbolDirectory;
import io.geobroker.domain.SymbolInfo;
import io.geobroker.domain.Ticker;
import io.geobroker.domain.TimeInForce;

import java.time.Clock;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZonedDateTime;
import java.time.temporal.ChronoUnit;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

/**
 * What each command does to orders and accounts, in memory, on the engine thread: an order is
 * opened (reserving what it needs), rests in its symbol's book, fills (settling cash and shares),
 * is cancelled or expires (giving its reservation back), or is rejected; cash and shares move in and
 * out. Every change is recorded in the group being built, and every answer waits in it until the
 * group is durable.
 */
final class OrderLifecycle {

    private static final int RECENT_ORDERS = 100_000;

    private final Map<String, SymbolState> symbols;
    private final Accounts accounts;
    private final Group group;
    private final EngineStore store;
    private final EngineMetrics metrics;
    private final QuoteSchedule quotes;
    private final Clock clock;
    private final SymbolDirectory directory;
    private final String region;
    private final int stopProtectionBps;

    private final Map<UUID, OrderState> live = new HashMap<>();
    private final Map<UUID, OrderState> recent = new LinkedHashMap<>(1024, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<UUID, OrderState> eldest) {
            return size() > RECENT_ORDERS;
        }
    };
    private volatile int resting;
    /**
     * Told of every fill of a day-trading automatic buy's or sell's order (its client order id starts
     * with {@link #TRIGGER_PREFIX}), and of such an order cancelled by its customer's own request.
     */
    private TriggerOrders triggerOrders = new TriggerOrders() {
    };

    /** Client order ids of the limit orders that execute day-trading automatic buys and sells start with this. */
    static final String TRIGGER_PREFIX = "dt-t-";

    interface TriggerOrders {
        default void onFill(OrderState order, long quantity, long price) {
        }

        /** The order was cancelled through the REST API, FIX or the web page, not by a day-trading command. */
        default void onCancelled(OrderState order) {
        }
    }

    OrderLifecycle(Map<String, SymbolState> symbols, Accounts accounts, Group group, EngineStore store,
                   EngineMetrics metrics, QuoteSchedule quotes, Clock clock, SymbolDirectory directory, String region,
                   int stopProtectionBps) {
        this.symbols = symbols;
        this.accounts = accounts;
        this.group = group;
        this.store = store;
        this.metrics = metrics;
        this.quotes = quotes;
        this.clock = clock;
        this.directory = directory;
        this.region = region;
        this.stopProtectionBps = stopProtectionBps;
    }

    void onTriggerOrders(TriggerOrders listener) {
        this.triggerOrders = listener;
    }

    /** Orders resting in the books (read by the metrics thread). */
    int resting() {
        return resting;
    }

    /** An open order read back at start: in its book again, as it was. */
    void restored(SymbolState s, OrderState state) {
        s.book.add(state);
        live.put(state.id, state);
        resting = live.size();
    }

    void onTicker(Command.TickerReceived received) {
        metrics.consumeTimer.record(System.nanoTime() - received.receivedNanos(), TimeUnit.NANOSECONDS);
        Ticker t = received.ticker();
        SymbolState s = symbols.get(t.symbol());
        if (s == null) {
            group.offsets.add(received);
            return;
        }
        if (t.sequence() <= s.lastTickerSequence) {
            metrics.replays.increment();
            group.offsets.add(received);
            return;
        }
        s.hold(received);
        s.quotePrice = t.price();
        s.quoteVolume = t.volume();
        s.quoteSequence = t.sequence();
        s.quoteExchangeTimeMicros = t.exchangeTimeMicros();
        s.quoteUpdatedAt = now();
        s.lastTickerSequence = t.sequence();
        if (quotes.writtenWithItsTicker()) {
            group.symbols.add(s);
        }
        s.book.onTicker(t.price(), t.volume(), new SymbolBook.Sink() {
            @Override
            public void onTrigger(OrderState order) {
                order.updatedAt = now();
                group.orders.put(order.id, order);
                group.symbols.add(s);
            }

            @Override
            public void onFill(OrderState order, long quantity, long price) {
                fill(s, order, quantity, price, t.sequence(), t.exchangeTimeMicros());
            }
        });
        s.quoteVolumeLeft = s.book.lastVolumeLeft();
    }

    void onPlace(Command.Place command) {
        NewOrder n = command.order();
        if (command.deadlineEpochMillis() > 0 && System.currentTimeMillis() > command.deadlineEpochMillis()) {
            command.result().completeExceptionally(new Engine.DeadlinePassedException());
            return;
        }
        OrderState known = known(n.orderId());
        if (known != null) {
            Order existing = known.snapshot();
            Outcomes.PlaceResult result = !existing.sameRequestAs(n) ? Outcomes.PlaceResult.CONFLICT
                    : existing.status() == OrderStatus.REJECTED ? Outcomes.PlaceResult.REJECTED
                    : Outcomes.PlaceResult.REPEATED;
            group.answer(() -> command.result().complete(new Outcomes.Placement(result, existing, List.of())));
            return;
        }
        SymbolState s = symbols.get(n.symbol().symbol());
        if (s == null) {
            command.result().completeExceptionally(new IllegalArgumentException("symbol not owned by this region"));
            return;
        }
        OrderState o = open(s, n, now());
        int fillsBefore = group.fills.size();
        if (n.type() == OrderType.MARKET) {
            long volumeLeft = s.quoteVolumeLeft;
            if (s.quoteSequence < 0) {
                reject(o, Outcomes.NO_QUOTE, "no quote for " + s.symbol() + " yet: a market order needs a latest price");
            } else if (volumeLeft < n.quantity()) {
                reject(o, Outcomes.INSUFFICIENT_VOLUME, "the latest quote has " + volumeLeft
                        + " shares left at " + s.quotePrice + ", fewer than the " + n.quantity() + " ordered");
            } else if (reserve(o)) {
                s.quoteVolumeLeft -= n.quantity();
                fill(s, o, n.quantity(), s.quotePrice, s.quoteSequence, s.quoteExchangeTimeMicros);
            }
        } else {
            rest(s, o);
        }
        metrics.placed(n.type().name(), n.side().name());
        List<EngineStore.FillRow> fills = List.copyOf(group.fills.subList(fillsBefore, group.fills.size()));
        group.completions.add(() -> {
            Order snapshot = o.snapshot();
            return durableMicros -> {
                List<Fill> published = fills.stream()
                        .map(f -> EngineStore.toFill(f, o.exchange, region, durableMicros)).toList();
                command.result().complete(new Outcomes.Placement(snapshot.status() == OrderStatus.REJECTED
                        ? Outcomes.PlaceResult.REJECTED : Outcomes.PlaceResult.CREATED, snapshot, published));
            };
        });
    }

    /** A new order of an owned symbol, OPEN and in this group, placed at {@code placedAt}. */
    private OrderState open(SymbolState s, NewOrder n, Instant placedAt) {
        long bookLimit = switch (n.type()) {
            case LIMIT, STOP_LIMIT -> n.limitPrice();
            case STOP -> n.side() == Side.BUY ? protectionPrice(n.stopPrice(), s.info.tickSize(), stopProtectionBps) : 0;
            case MARKET -> n.side() == Side.BUY ? s.quotePrice : 0;
        };
        Instant expiresAt = n.timeInForce() == TimeInForce.DAY && n.type() != OrderType.MARKET
                ? closeAfter(s.info, placedAt, directory) : null;
        OrderState o = new OrderState(n.orderId(), n.customerId(), n.clientOrderId(), s.symbol(), s.info.exchange(),
                s.currency, n.side(), n.type(), n.timeInForce(), n.allOrNone(), n.quantity(), n.limitPrice(),
                n.stopPrice(), bookLimit, expiresAt, placedAt, n.homeRegion(), n.placedRegion(), s.nextOrderSequence++);
        o.status = OrderStatus.OPEN;
        o.updatedAt = now();
        group.symbols.add(s);
        group.orders.put(o.id, o);
        remember(o);
        return o;
    }

    /** Reserves what a limit or stop order needs and puts it in the book, or rejects it. */
    private void rest(SymbolState s, OrderState o) {
        if (reserve(o)) {
            s.book.add(o);
            live.put(o.id, o);
            resting = live.size();
        }
    }

    /**
     * An order placed in another region for one of this region's symbols, as its inbox row and
     * stored PENDING row show it. Taken once: a row that is no longer PENDING (taken before a
     * restart) only gets its inbox row marked; an order the engine already knows (accepted before,
     * placed here too, or cancelled while pending) has its whole row written again as it stands, over
     * a PENDING row another region may have written after it ({@link InboxDecision}). Everything
     * written about the order from here on must win over the placing region's PENDING row, whatever
     * the two clocks say.
     */
    void onAccept(Command.Accept a) {
        group.inbox.add(a.entry());
        Order p = a.pending();
        OrderState k = known(p.orderId());
        InboxDecision decision = InboxDecision.of(k != null, p.status());
        if (decision == InboxDecision.MARK) {
            return;
        }
        group.writeAfter(InboxDecision.writeAbove(a.pendingWriteMicros(), a.entry().placedAtMillis()));
        if (decision == InboxDecision.REWRITE) {
            // the list entry stays whose it was: an order placed here writes its own (again, the same
            // row) even when the inbox row arrives before its first write
            k.rowWritten = false;
            group.orders.put(k.id, k);
            return;
        }
        SymbolState s = symbols.get(p.symbol());
        if (s == null || p.type() == OrderType.MARKET) {
            OrderState o = neverOpened(p, OrderStatus.OPEN);
            reject(o, Outcomes.NOT_ROUTABLE, s == null ? p.symbol() + " is not matched in region " + region
                    : "market orders are executed by the home region when they are placed, never from the inbox");
            return;
        }
        NewOrder n = new NewOrder(p.orderId(), p.customerId(), p.clientOrderId(), s.info, p.currency(), p.side(),
                p.type(), p.timeInForce(), p.allOrNone(), p.quantity(), p.limitPrice(), p.stopPrice(), region,
                p.placedRegion());
        OrderState o = open(s, n, p.placedAt());
        o.listedWherePlaced = true;
        rest(s, o);
        metrics.inboxLag.record(Math.max(0, System.currentTimeMillis() - a.entry().placedAtMillis()), TimeUnit.MILLISECONDS);
        metrics.placed(n.type().name(), n.side().name());
    }

    void onCancel(Command.Cancel c) {
        OrderState o = live.get(c.orderId());
        if (o == null && recent.get(c.orderId()) == null && c.pending() != null) {
            cancelPending(c);
            return;
        }
        if (o == null || !o.customerId.equals(c.customerId())) {
            OrderState r = recent.get(c.orderId());
            Outcomes.Cancellation outcome = r != null && r.customerId.equals(c.customerId()) && !r.isLive()
                    ? new Outcomes.Cancellation(Outcomes.CancelResult.ALREADY_TERMINAL, r.snapshot())
                    : new Outcomes.Cancellation(Outcomes.CancelResult.NOT_FOUND, null);
            group.answer(() -> c.result().complete(outcome));
            return;
        }
        symbols.get(o.symbol).book.remove(o);
        finish(o, OrderStatus.CANCELLED);
        if (isTriggerOrder(o)) {
            triggerOrders.onCancelled(o);
        }
        answerCancelled(c, o);
    }

    /** Answers a cancel with the order as its group leaves it. */
    private void answerCancelled(Command.Cancel c, OrderState o) {
        group.completions.add(() -> {
            Order snapshot = o.snapshot();
            return durableMicros -> c.result().complete(new Outcomes.Cancellation(Outcomes.CancelResult.CANCELLED, snapshot));
        });
    }

    /**
     * Cancels an order that was placed in another region and is not in the engine yet: it is
     * written CANCELLED here (over the PENDING row), so when its inbox row arrives the order is
     * known and never opened. It never reserved anything, so nothing is released.
     */
    private void cancelPending(Command.Cancel c) {
        Order p = c.pending();
        if (!p.customerId().equals(c.customerId()) || p.status() != OrderStatus.PENDING || !symbols.containsKey(p.symbol())) {
            group.answer(() -> c.result().complete(new Outcomes.Cancellation(Outcomes.CancelResult.NOT_FOUND, null)));
            return;
        }
        group.writeAfter(c.pendingWriteMicros());
        OrderState o = neverOpened(p, OrderStatus.CANCELLED);
        group.ended.add(o);
        answerCancelled(c, o);
    }

    /**
     * A PENDING order from another region that ends here without ever resting (cancelled first, or
     * rejected): written in this group with its full row, and remembered so its inbox row is ignored.
     */
    private OrderState neverOpened(Order p, OrderStatus status) {
        OrderState o = new OrderState(p.orderId(), p.customerId(), p.clientOrderId(), p.symbol(), p.exchange(),
                p.currency(), p.side(), p.type(), p.timeInForce(), p.allOrNone(), p.quantity(), p.limitPrice(),
                p.stopPrice(), 0, null, p.placedAt(), region, p.placedRegion(), -1);
        o.listedWherePlaced = true;
        o.status = status;
        o.updatedAt = now();
        group.orders.put(o.id, o);
        remember(o);
        return o;
    }

    void onMoveCash(Command.MoveCash m) {
        CashAccount account = accounts.cash(m.customerId(), m.currency());
        if (m.amount() < 0 && account.available < -m.amount()) {
            Outcomes.Movement refused = new Outcomes.Movement(false, "insufficient cash: " + account.available + " "
                    + m.currency() + " minor units available, " + -m.amount() + " requested",
                    account.available, account.reserved);
            group.answer(() -> m.result().complete(refused));
            return;
        }
        account.available = Math.addExact(account.available, m.amount());
        group.cash.add(account);
        Instant now = now();
        group.transactions.add(store.transaction(m.customerId(), now, UUID.randomUUID(),
                m.amount() >= 0 ? "DEPOSIT" : "WITHDRAWAL", m.currency(), m.amount(), null, null, null, null, region));
        Outcomes.Movement done = new Outcomes.Movement(true, null, account.available, account.reserved);
        group.answer(() -> m.result().complete(done));
    }

    void onTransferShares(Command.TransferShares t) {
        SymbolState s = symbols.get(t.symbol());
        Holding h = accounts.holding(t.customerId(), t.symbol());
        h.available = Math.addExact(h.available, t.quantity());
        group.holdings.add(h);
        group.transactions.add(store.transaction(t.customerId(), now(), UUID.randomUUID(), "TRANSFER_IN", s.currency,
                0, t.symbol(), t.quantity(), null, null, region));
        Outcomes.Movement done = new Outcomes.Movement(true, null, h.available, h.reserved);
        group.answer(() -> t.result().complete(done));
    }

    /**
     * A new order executed at once, whole, at {@code price} (a day-trading COMMIT at its quote's
     * price): what it needs was reserved before ({@code reserved}: cash for a buy, shares for a
     * sell), and the fill takes it. The fill is the symbol's like any other: same ledger, same
     * fills topic, at the symbol's latest ticker sequence.
     */
    OrderState executeAt(SymbolState s, NewOrder n, long price, long reserved) {
        OrderState o = open(s, n, now());
        o.reserved = reserved;
        metrics.placed(n.type().name(), n.side().name());
        fill(s, o, n.quantity(), price, s.quoteSequence, s.quoteExchangeTimeMicros);
        return o;
    }

    /** A new limit or stop order opened and resting (reserving what it needs), or REJECTED when it cannot be reserved for. */
    OrderState openResting(SymbolState s, NewOrder n) {
        OrderState o = open(s, n, now());
        rest(s, o);
        metrics.placed(n.type().name(), n.side().name());
        return o;
    }

    /** Cancels a live order, giving back what it reserves; null when it is not live. */
    OrderState cancelLive(UUID orderId) {
        OrderState o = live.get(orderId);
        if (o == null) {
            return null;
        }
        symbols.get(o.symbol).book.remove(o);
        finish(o, OrderStatus.CANCELLED);
        return o;
    }

    /** An order this engine holds or recently ended, or null. */
    OrderState find(UUID orderId) {
        return known(orderId);
    }

    /** Expires the DAY orders of every book whose expiry is at or before {@code now}. */
    void expireUpTo(Instant now) {
        for (SymbolState s : symbols.values()) {
            s.book.expireUpTo(now, o -> finish(o, OrderStatus.EXPIRED));
        }
    }

    private boolean reserve(OrderState o) {
        Accounts.Shortfall shortfall = accounts.reserve(o, group);
        if (shortfall != null) {
            reject(o, shortfall.reason(), shortfall.text());
            return false;
        }
        return true;
    }

    private void reject(OrderState o, String reason, String text) {
        o.status = OrderStatus.REJECTED;
        o.rejectReason = text;
        metrics.rejected(reason);
    }

    private void fill(SymbolState s, OrderState o, long quantity, long price, long tickerSequence, long exchangeMicros) {
        long notional = Math.multiplyExact(quantity, price);
        long release = Math.multiplyExact(quantity, o.reservationPerShare());
        CashAccount account = accounts.cash(o.customerId, o.currency);
        Holding h = accounts.holding(o.customerId, o.symbol);
        if (o.side == Side.BUY) {
            account.reserved -= release;
            account.available += release - notional;
            h.available += quantity;
        } else {
            h.reserved -= quantity;
            account.available += notional;
        }
        o.reserved -= release;
        o.filledQuantity += quantity;
        o.filledNotional += notional;
        o.updatedAt = now();
        if (o.filledQuantity == o.quantity) {
            o.status = OrderStatus.FILLED;
            accounts.release(o, group);
            live.remove(o.id);
            resting = live.size();
        } else {
            o.status = OrderStatus.PARTIALLY_FILLED;
        }
        UUID fillId = OrderIds.fillId(o.id, tickerSequence);
        group.orders.put(o.id, o);
        group.cash.add(account);
        group.holdings.add(h);
        group.transactions.add(store.transaction(o.customerId, o.updatedAt, fillId, o.side.name(), o.currency,
                o.side == Side.BUY ? -notional : notional, o.symbol, o.side == Side.BUY ? quantity : -quantity, price,
                o.id, region));
        group.fills.add(new EngineStore.FillRow(o.symbol, tickerSequence, fillId, o.id, o.customerId, o.side, o.type,
                price, quantity, o.currency, exchangeMicros, group.timestampMicros(), o.clientOrderId, o.quantity,
                o.filledQuantity, o.filledNotional));
        group.fillSymbols.merge(s, tickerSequence, Math::min);
        group.symbols.add(s);
        if (isTriggerOrder(o)) {
            triggerOrders.onFill(o, quantity, price);
        }
    }

    private static boolean isTriggerOrder(OrderState o) {
        return o.clientOrderId != null && o.clientOrderId.startsWith(TRIGGER_PREFIX);
    }

    /** Ends a live order (cancel or expiry) and gives back what it still reserves. */
    private void finish(OrderState o, OrderStatus status) {
        accounts.release(o, group);
        o.status = status;
        o.updatedAt = now();
        live.remove(o.id);
        resting = live.size();
        group.orders.put(o.id, o);
        group.ended.add(o);
    }

    /**
     * An order this engine placed or holds. The REST layer has already looked in Cassandra; this
     * catches two identical requests racing past that check.
     */
    private OrderState known(UUID orderId) {
        OrderState o = live.get(orderId);
        if (o == null) {
            o = recent.get(orderId);
        }
        return o;
    }

    private void remember(OrderState o) {
        recent.put(o.id, o);
    }

    /** Business time at Cassandra's timestamp precision, so answers match what is read back later. */
    private Instant now() {
        return clock.instant().truncatedTo(ChronoUnit.MILLIS);
    }

    /** The close of the symbol's exchange at or after {@code now} (DAY orders expire then). */
    static Instant closeAfter(SymbolInfo info, Instant now, SymbolDirectory directory) {
        Exchange exchange = directory.exchange(info.exchange()).orElseThrow();
        ZonedDateTime local = now.atZone(exchange.timeZone());
        LocalDate day = local.toLocalDate();
        ZonedDateTime close = day.atTime(exchange.close()).atZone(exchange.timeZone());
        if (!close.toInstant().isAfter(now)) {
            close = day.plusDays(1).atTime(exchange.close()).atZone(exchange.timeZone());
        }
        return close.toInstant();
    }

    /** Stop price plus a margin in basis points, rounded up to the tick (a BUY STOP's price cap). */
    static long protectionPrice(long stopPrice, long tick, int bps) {
        long margin = (Math.multiplyExact(stopPrice, (long) bps) + 9_999) / 10_000;
        long raw = Math.addExact(stopPrice, margin);
        return (raw + tick - 1) / tick * tick;
    }
}
