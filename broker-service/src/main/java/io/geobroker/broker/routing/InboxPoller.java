package io.geobroker.broker.routing;

import io.geobroker.broker.config.BrokerProperties;
import io.geobroker.broker.matching.Engine;
import io.geobroker.broker.matching.HealResend;
import io.geobroker.broker.order.Order;
import io.geobroker.broker.order.OrderDao;
import io.geobroker.domain.Region;
import io.geobroker.domain.Topology;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.context.SmartLifecycle;
import org.springframework.stereotype.Component;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * The home broker's discovery of orders placed in other regions. The placing broker sends each
 * order as it stored it ({@link InboxController}); a thread of its own hands it to the engine at
 * once, without reading it (unless it is stale: {@link #ANNOUNCEMENT_MAX_AGE_MILLIS}). Announcements are
 * only a shortcut: the poller also reads its own inbox partitions {@code (region, minute)} in the
 * local DC and hands each new order to the engine. No
 * read per ticker: the cost is one small range read every {@code inboxPollInterval} (the tail: rows
 * placed in the last {@code inboxTailMargin}, which covers rows replicating out of order) plus a
 * read of the not-yet-processed rows of the last {@code inboxSweepWindow} every
 * {@code inboxSweepInterval} and once at start (rows that came late: a lost announcement, a region
 * cut off and its writes delivered later as hints; orders left over from before a restart), and
 * every {@link #HEAL_SWEEP_INTERVAL_MILLIS} ms for {@link #HEAL_SWEEPS_MILLIS} ms after a cut link
 * came back ({@link HealResend}), when the placing brokers write the cut's rows again.
 *
 * <p>An inbox row may become visible before its order row (they are separate mutations across the
 * WAN); it is then simply tried again on a later read. Orders handed to the engine are remembered
 * for the sweep window so the tail does not hand them over again; the engine ignores repeats anyway
 * and marks every handled row processed in the same batch that takes the order.
 */
@Component
public class InboxPoller implements SmartLifecycle {

    private static final Logger log = LoggerFactory.getLogger(InboxPoller.class);
    /**
     * Announcements that came longer than this after their order was placed, or of an order placed
     * before this broker started, are taken only after a read of the order's row as this DC has it:
     * such a late announcement may be for an order the engine has cancelled (a cancel can overtake
     * it) and no longer remembers after a restart, and its row here then says so. A fresh one cannot
     * be: the peer gives up on it within its request timeout.
     */
    static final long ANNOUNCEMENT_MAX_AGE_MILLIS = 5_000;
    /**
     * For this long after a cut link came back the inbox is swept every {@link #HEAL_SWEEP_INTERVAL_MILLIS}:
     * the orders placed in other regions during the cut whose announcements were lost (a placing
     * broker restarted during the cut, or its queue overflowed) arrive then: their placing brokers
     * write their rows again once Cassandra carries writes to this DC again, 5-20 s after the link's
     * return at three nodes per DC.
     */
    static final long HEAL_SWEEPS_MILLIS = 60_000;
    /**
     * How often the inbox is swept while a heal's sweeps last. Such a sweep reads only the minutes
     * from the cut's kept writes on ({@link HealResend#lastCutSinceMillis}, less the resend window),
     * not the whole sweep window, and the order rows of each customer in a few reads, so it is cheap
     * enough to run every half second (every 2 s it was the last wait of a heal at three nodes per DC).
     */
    static final long HEAL_SWEEP_INTERVAL_MILLIS = 500;

    /** An announced order as the placing region stored it, with the write time of its rows, and when it came. */
    private record Announced(OrderInbox.Entry entry, Order order, long writeMicros, long receivedMillis) {
    }

    /**
     * What the poller reads and whom it hands orders to: this DC's inbox and order rows, the heals
     * {@link HealResend} sees, and the engine.
     */
    interface Sources {
        List<OrderInbox.Entry> after(String region, long minute, long afterMillis);

        List<OrderInbox.Entry> unprocessed(String region, long minute);

        CompletableFuture<Map<UUID, OrderInbox.Stored>> orders(String customerId, List<UUID> orderIds);

        void accept(OrderInbox.Entry entry, Order order, long writeMicros) throws InterruptedException;

        boolean awaitReady(Duration timeout) throws InterruptedException;

        long lastHealMillis();

        long lastCutSinceMillis();
    }

    private final Sources sources;
    /** {@link #ANNOUNCEMENT_MAX_AGE_MILLIS}, shorter in tests. */
    private final long maxAnnouncementAgeMillis;
    private final String region;
    private final BrokerProperties.CrossRegion config;
    private final boolean othersExist;
    /**
     * Inbox rows handed to the engine, by their time-based id, with their placement time (pruned after
     * the sweep window). By row, not by order: each placement of one client order id stored in another
     * region is a PENDING write of its own that the engine must write over (see InboxDecision).
     */
    private final Map<UUID, Long> handed = new ConcurrentHashMap<>();
    private final BlockingQueue<Announced> announced = new ArrayBlockingQueue<>(10_000);
    private final long startedMillis = System.currentTimeMillis();
    private volatile boolean running;
    private Thread thread;
    private Thread announcements;
    /**
     * Late announcements for their own thread, which reads their rows and hands them, all that wait at
     * once (a healed cut's come as hundreds in requests of 16), so that fresh ones never wait for those reads.
     */
    private final BlockingQueue<Announced> late = new LinkedBlockingQueue<>();
    private Thread lateAnnouncements;
    private long nextSweepMillis;
    private long nextTailMillis;
    private long healSeenMillis = -1;
    private long healSweepsUntilMillis = -1;
    private long healSweepFromMillis;
    private long nextHealSweepMillis = Long.MAX_VALUE;
    /** Replaced and read by the poller thread, counted into by the late announcements' thread too: guarded by the poller's monitor. */
    private HealSweeps healSweeps = new HealSweeps();
    /** Orders the poller's reads handed to the engine (poller thread only). */
    private long handedByReads;

    /**
     * What a heal's sweeps found, for its log line: how many orders placed before the heal they handed
     * to the engine and when (ms after the heal was seen), and how often a read found an inbox row
     * before its order row (a row is counted again at each read until its order row is there).
     */
    static final class HealSweeps {
        private int sweeps;
        private int handed;
        private int withoutOrderRow;
        private long firstHandedMillis = -1;
        private long lastHandedMillis = -1;
        private int lateAnnounced;
        private int lateFromMessage;
        private long firstAnnouncedAtMillis = -1;
        private long lastAnnouncedAtMillis = -1;

        /**
         * The sweeps of a heal just seen, with the late announcements handed since the last summary:
         * over a healed link the placing brokers' announcements may come before the heal is seen here.
         */
        HealSweeps forHeal() {
            HealSweeps next = new HealSweeps();
            next.lateAnnounced = lateAnnounced;
            next.lateFromMessage = lateFromMessage;
            next.firstAnnouncedAtMillis = firstAnnouncedAtMillis;
            next.lastAnnouncedAtMillis = lastAnnouncedAtMillis;
            return next;
        }

        void add(long sinceHealMillis, Taken taken) {
            sweeps++;
            withoutOrderRow += taken.withoutOrderRow();
            if (taken.handed() > 0) {
                handed += taken.handed();
                lastHandedMillis = sinceHealMillis;
                if (firstHandedMillis < 0) {
                    firstHandedMillis = sinceHealMillis;
                }
            }
        }

        /** Late announcements handed to the engine at {@code atMillis}, {@code fromMessage} of them with no row in this DC yet. */
        void announced(int late, int fromMessage, long atMillis) {
            lateAnnounced += late;
            lateFromMessage += fromMessage;
            if (firstAnnouncedAtMillis < 0) {
                firstAnnouncedAtMillis = atMillis;
            }
            lastAnnouncedAtMillis = atMillis;
        }

        /** The line of a heal seen at {@code healSeenMillis}. */
        String summary(long healSeenMillis) {
            return sweeps + " sweeps handed " + handed + " orders placed before it in other regions to the engine"
                    + (handed == 0 ? "" : ", " + firstHandedMillis + " to " + lastHandedMillis + " ms after the heal")
                    + " (reads that found an inbox row before its order row: " + withoutOrderRow + ")"
                    + (lateAnnounced == 0 ? "" : "; late announcements read and handed: " + lateAnnounced + ", "
                    + lateFromMessage + " of them from the message (no row here yet), "
                    + (firstAnnouncedAtMillis - healSeenMillis) + " to " + (lastAnnouncedAtMillis - healSeenMillis)
                    + " ms after the heal was seen");
        }
    }

    /**
     * What one read of the inbox gave the engine: orders placed before the last heal was seen (the
     * cut's, not the live ones a sweep takes before the tail does), and rows whose order row had not arrived.
     */
    record Taken(int handed, int withoutOrderRow) {
        Taken plus(Taken other) {
            return new Taken(handed + other.handed, withoutOrderRow + other.withoutOrderRow);
        }
    }

    @Autowired
    public InboxPoller(OrderInbox inbox, Engine engine, HealResend healResend, Region region, Topology topology,
                       BrokerProperties properties) {
        this(new Sources() {
            @Override
            public List<OrderInbox.Entry> after(String home, long minute, long afterMillis) {
                return inbox.after(home, minute, afterMillis);
            }

            @Override
            public List<OrderInbox.Entry> unprocessed(String home, long minute) {
                return inbox.unprocessed(home, minute);
            }

            @Override
            public CompletableFuture<Map<UUID, OrderInbox.Stored>> orders(String customerId, List<UUID> orderIds) {
                return inbox.ordersAsync(customerId, orderIds);
            }

            @Override
            public void accept(OrderInbox.Entry entry, Order order, long writeMicros) throws InterruptedException {
                engine.accept(entry, order, writeMicros);
            }

            @Override
            public boolean awaitReady(Duration timeout) throws InterruptedException {
                return engine.awaitReady(timeout);
            }

            @Override
            public long lastHealMillis() {
                return healResend.lastHealMillis();
            }

            @Override
            public long lastCutSinceMillis() {
                return healResend.lastCutSinceMillis();
            }
        }, region.name(), properties.crossRegion(), topology.regions().size() > 1);
    }

    InboxPoller(Sources sources, String region, BrokerProperties.CrossRegion config, boolean othersExist) {
        this(sources, region, config, othersExist, ANNOUNCEMENT_MAX_AGE_MILLIS);
    }

    InboxPoller(Sources sources, String region, BrokerProperties.CrossRegion config, boolean othersExist,
                long maxAnnouncementAgeMillis) {
        this.maxAnnouncementAgeMillis = maxAnnouncementAgeMillis;
        this.sources = sources;
        this.region = region;
        this.config = config;
        this.othersExist = othersExist;
    }

    @Override
    public void start() {
        running = true;
        if (!othersExist) {
            return;
        }
        thread = new Thread(this::run, "inbox-poller");
        thread.setDaemon(true);
        thread.start();
        lateAnnouncements = new Thread(this::takeLateAnnouncements, "inbox-late-announcements");
        lateAnnouncements.setDaemon(true);
        lateAnnouncements.start();
        announcements = new Thread(this::takeAnnouncements, "inbox-announcements");
        announcements.setDaemon(true);
        announcements.start();
    }

    private void run() {
        try {
            while (running && !sources.awaitReady(Duration.ofSeconds(1))) {
                // the engine rebuilds its state first: orders are taken into a complete book
            }
            while (running) {
                long now = System.currentTimeMillis();
                try {
                    long healed = sources.lastHealMillis();
                    if (healed > healSeenMillis) {
                        healSeenMillis = healed;
                        healSweepsUntilMillis = healed + HEAL_SWEEPS_MILLIS;
                        healSweepFromMillis = healSweepFrom(sources.lastCutSinceMillis(), healed,
                                config.resendWindow().toMillis() + config.inboxTailMargin().toMillis());
                        nextHealSweepMillis = now;
                        synchronized (this) {
                            healSweeps = healSweeps.forHeal();
                        }
                    }
                    if (now >= nextSweepMillis) {
                        sweep(now);
                        nextSweepMillis = now + config.inboxSweepInterval().toMillis();
                    }
                    if (now >= nextHealSweepMillis) {
                        Taken taken = take(now, Math.max(healSweepFromMillis, now - config.inboxSweepWindow().toMillis()));
                        nextHealSweepMillis = nextHealSweep(now, healSweepsUntilMillis);
                        synchronized (this) {
                            healSweeps.add(now - healSeenMillis, taken);
                            if (nextHealSweepMillis == Long.MAX_VALUE) {
                                log.info("inbox after the heal: {}", healSweeps.summary(healSeenMillis));
                                healSweeps = new HealSweeps();
                            }
                        }
                    }
                    if (now >= nextTailMillis) {
                        tail(now);
                        nextTailMillis = now + config.inboxPollInterval().toMillis();
                    }
                    long wait = Math.min(nextTailMillis, Math.min(nextSweepMillis, nextHealSweepMillis))
                            - System.currentTimeMillis();
                    if (wait > 0) {
                        Thread.sleep(wait);
                    }
                } catch (RuntimeException e) {
                    log.warn("reading the order inbox failed ({}); trying again", e.toString());
                    Thread.sleep(500);
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * The announcements' own thread: an announced order is handed to the engine as it comes, not
     * behind the poller's reads nor the late announcements' reads (on a thread of their own). Those
     * take seconds when the DC is busiest, just after a cut link came back (up to 12 s in a 60 s
     * cut's runs at three nodes per DC); the orders placed elsewhere then, announced at once, waited
     * for them, and by then counted as late, were read once more.
     */
    private void takeAnnouncements() {
        try {
            while (running && !sources.awaitReady(Duration.ofSeconds(1))) {
                // as the poller: orders are taken into a complete book
            }
            while (running) {
                Announced first = announced.poll(1, TimeUnit.SECONDS);
                if (first == null) {
                    continue;
                }
                try {
                    handAnnounced(first);
                } catch (RuntimeException e) {
                    log.warn("handing announced orders to the engine failed ({}); the inbox reads find them", e.toString());
                    Thread.sleep(500);
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * Queues an announced order (PENDING, as the placing region stored it at {@code writeMicros}) for
     * the announcements' thread; a full queue drops it (the tail or the sweep finds the order anyway).
     */
    public void announced(OrderInbox.Entry entry, Order order, long writeMicros) {
        if (!announced.offer(new Announced(entry, order, writeMicros, System.currentTimeMillis()))) {
            log.debug("announcement queue full: order {} is left to the inbox poll", entry.orderId());
        }
    }

    /** Hands {@code first} and the announcements waiting behind it to the engine. */
    private void handAnnounced(Announced first) throws InterruptedException {
        List<Announced> batch = new ArrayList<>();
        batch.add(first);
        announced.drainTo(batch);
        for (Announced a : batch) {
            if (handed.containsKey(a.entry().placedAt())) {
                continue;
            }
            // fresh as it came: the time it then waited here (behind a late batch's read) changes
            // nothing the engine may have forgotten, since no restart can come in between
            if (fresh(a.entry().placedAtMillis(), a.receivedMillis(), startedMillis, maxAnnouncementAgeMillis)) {
                hand(a.entry(), a.order(), a.writeMicros());
            } else {
                late.add(a);
            }
        }
    }

    /** The late announcements' thread: every one waiting, read and handed together. */
    private void takeLateAnnouncements() {
        try {
            while (running) {
                Announced first = late.poll(1, TimeUnit.SECONDS);
                if (first == null) {
                    continue;
                }
                List<Announced> batch = new ArrayList<>();
                batch.add(first);
                late.drainTo(batch);
                try {
                    handLate(batch);
                } catch (RuntimeException e) {
                    log.warn("handing late announcements to the engine failed ({}); the inbox reads find them",
                            e.toString());
                    Thread.sleep(500);
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * Whether an announcement of an order placed at {@code placedMillis} that came at
     * {@code receivedMillis} is taken from the message alone.
     */
    static boolean fresh(long placedMillis, long receivedMillis, long startedMillis, long maxAgeMillis) {
        return placedMillis >= startedMillis && receivedMillis - placedMillis <= maxAgeMillis;
    }

    /**
     * Late announcements (a WAN cut's, announced again once the link is back; or from before this
     * broker started): each order's row is read as this DC has it, the customer's rows a few at a
     * time. A row here is what the engine is handed, as the inbox reads would hand it (a cancel the
     * home decided is in it); with no row here yet the home has decided nothing about the order, and
     * the announced PENDING row is handed, so the order need not wait for Cassandra to carry its
     * rows across the healed link.
     */
    private void handLate(List<Announced> waiting) throws InterruptedException {
        if (waiting.isEmpty()) {
            return;
        }
        Map<String, LinkedHashSet<UUID>> idsByCustomer = new LinkedHashMap<>();
        for (Announced a : waiting) {
            idsByCustomer.computeIfAbsent(a.order().customerId(), c -> new LinkedHashSet<>()).add(a.order().orderId());
        }
        long readFrom = System.currentTimeMillis();
        Map<String, CompletableFuture<Map<UUID, OrderInbox.Stored>>> reads = rowsHere(idsByCustomer);
        int handedLate = 0;
        int fromMessage = 0;
        for (Announced a : waiting) {
            OrderInbox.Stored here = OrderDao.joined(reads.get(a.order().customerId())).get(a.order().orderId());
            if (a == waiting.get(0) && log.isDebugEnabled()) {
                log.debug("{} late announcement(s) of {} customer(s), the first received {} ms ago: its read took {} ms",
                        waiting.size(), idsByCustomer.size(), readFrom - a.receivedMillis(),
                        System.currentTimeMillis() - readFrom);
            }
            if (here != null) {
                handedLate += hand(a.entry(), here.order(), here.statusWriteMicros()) ? 1 : 0;
            } else if (hand(a.entry(), a.order(), a.writeMicros())) {
                handedLate++;
                fromMessage++;
            }
        }
        if (handedLate > 0) {
            synchronized (this) {
                healSweeps.announced(handedLate, fromMessage, System.currentTimeMillis());
            }
        }
    }

    /** When the heal sweep after one at {@code now} is due: soon while a heal's sweeps last, else never. */
    static long nextHealSweep(long now, long healSweepsUntilMillis) {
        return now + HEAL_SWEEP_INTERVAL_MILLIS < healSweepsUntilMillis ? now + HEAL_SWEEP_INTERVAL_MILLIS : Long.MAX_VALUE;
    }

    /**
     * Where a heal's sweeps start: {@code marginMillis} before the cut was noticed (the placing brokers
     * write again what they wrote from their resend window before it), or at the heal less the
     * margin when the cut's start is not known.
     */
    static long healSweepFrom(long cutSinceMillis, long healedMillis, long marginMillis) {
        return (cutSinceMillis >= 0 && cutSinceMillis <= healedMillis ? cutSinceMillis : healedMillis) - marginMillis;
    }

    /** Rows placed since {@code now - tailMargin}, in the one or two minute partitions that covers. */
    private void tail(long now) throws InterruptedException {
        long from = now - config.inboxTailMargin().toMillis();
        for (long minute = OrderInbox.minuteOf(from); minute <= OrderInbox.minuteOf(now); minute++) {
            take(sources.after(region, minute, from));
        }
    }

    /** Every row of the sweep window the engine has not processed, and forgets what is older. */
    private void sweep(long now) throws InterruptedException {
        long from = now - config.inboxSweepWindow().toMillis();
        long before = handedByReads;
        take(now, from);
        handed.values().removeIf(placedAt -> placedAt < from);
        if (handedByReads > before) {
            log.debug("inbox sweep found {} order(s) neither the tail nor an announcement had", handedByReads - before);
        }
    }

    /** The rows of the inbox's minute partitions from {@code fromMillis}'s to {@code now}'s the engine has not processed. */
    private Taken take(long now, long fromMillis) throws InterruptedException {
        Taken taken = new Taken(0, 0);
        for (long minute = OrderInbox.minuteOf(fromMillis); minute <= OrderInbox.minuteOf(now); minute++) {
            taken = taken.plus(take(sources.unprocessed(region, minute)));
        }
        return taken;
    }

    /**
     * Hands each row's order to the engine once, in the rows' order; the order rows are read all at
     * once, a few reads of each customer's partition (one read per order, a busy home region fell
     * tens of seconds behind the orders placed for it). A row whose order row has not arrived yet is
     * left for a later read.
     */
    private Taken take(List<OrderInbox.Entry> entries) throws InterruptedException {
        int handedNow = 0;
        int all = 0;
        int missing = 0;
        List<OrderInbox.Entry> unseen = new ArrayList<>();
        Map<String, LinkedHashSet<UUID>> idsByCustomer = new LinkedHashMap<>();
        for (OrderInbox.Entry e : entries) {
            if (!e.processed() && !handed.containsKey(e.placedAt()) && e.customerId() != null) {
                unseen.add(e);
                idsByCustomer.computeIfAbsent(e.customerId(), c -> new LinkedHashSet<>()).add(e.orderId());
            }
        }
        Map<String, CompletableFuture<Map<UUID, OrderInbox.Stored>>> reads = rowsHere(idsByCustomer);
        for (OrderInbox.Entry e : unseen) {
            OrderInbox.Stored stored = OrderDao.joined(reads.get(e.customerId())).get(e.orderId());
            if (stored != null) {
                if (hand(e, stored.order(), stored.statusWriteMicros())) {
                    all++;
                    if (e.placedAtMillis() < healSeenMillis) {
                        handedNow++;
                    }
                }
            } else {
                missing++;
            }
        }
        handedByReads += all;
        return new Taken(handedNow, missing);
    }

    /** This DC's rows of each customer's orders, read at once. */
    private Map<String, CompletableFuture<Map<UUID, OrderInbox.Stored>>> rowsHere(Map<String, LinkedHashSet<UUID>> idsByCustomer) {
        Map<String, CompletableFuture<Map<UUID, OrderInbox.Stored>>> reads = new HashMap<>();
        idsByCustomer.forEach((customer, ids) -> reads.put(customer, sources.orders(customer, List.copyOf(ids))));
        return reads;
    }

    /**
     * Gives the engine an order of its inbox unless the row was handed already, and remembers the
     * row, so neither thread hands it over again: false if it was handed before.
     */
    private boolean hand(OrderInbox.Entry entry, Order order, long writeMicros) throws InterruptedException {
        if (handed.putIfAbsent(entry.placedAt(), entry.placedAtMillis()) != null) {
            return false;
        }
        try {
            sources.accept(entry, order, writeMicros);
        } catch (InterruptedException | RuntimeException e) {
            handed.remove(entry.placedAt());
            throw e;
        }
        return true;
    }

    @Override
    public void stop() {
        running = false;
        for (Thread t : new Thread[] {thread, announcements, lateAnnouncements}) {
            if (t != null) {
                t.interrupt();
                try {
                    t.join(5_000);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
        }
        if (nextHealSweepMillis != Long.MAX_VALUE) {
            synchronized (this) {
                log.info("inbox after the heal, until the stop: {}", healSweeps.summary(healSeenMillis));
            }
        }
    }

    @Override
    public boolean isRunning() {
        return running;
    }

    /** After the engine (phase 0): stops first, starts once the engine is there. */
    @Override
    public int getPhase() {
        return 10;
    }
}
