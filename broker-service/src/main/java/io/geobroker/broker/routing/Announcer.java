package io.geobroker.broker.routing;

import io.geobroker.broker.config.BrokerProperties;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.stereotype.Component;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * Sends home regions the orders stored PENDING for them here ({@code POST /internal/v1/inbox/batch}),
 * at most {@code peerAnnouncementsInFlight} requests per region at a time: an order goes at once
 * while a request is free, and the orders placed while none is go together in the next one. At the
 * default load (~100 cross-region orders a second, a 230 ms round trip) that is a few requests a
 * second for both brokers to handle instead of one per order.
 *
 * <p>A request that fails (the region cut off, its broker down or answering 5xx) puts its orders back at
 * the head of the queue, and the region gets one request every {@link #RETRY_DELAY_MILLIS} until one
 * goes through; then the backlog drains at up to {@link #DRAIN_IN_FLIGHT} requests at a time. So the
 * orders placed during a cut reach their home as soon as the link is back, without waiting for
 * Cassandra to replicate their inbox rows (the announcement carries the order). Announcements are
 * still hints (the home's inbox reads find every order anyway), so a long cut costs only memory:
 * beyond {@link #MAX_QUEUED} waiting orders per region the oldest are dropped.
 */
@Component
public class Announcer {

    private static final Logger log = LoggerFactory.getLogger(Announcer.class);
    static final String PATH = "/internal/v1/inbox/batch";
    /** Waiting announcements per region beyond which the oldest are dropped. */
    static final int MAX_QUEUED = 10_000;
    /**
     * Most orders in one request: an announced order is ~0.7 KB of JSON, so a request stays below
     * the receiving broker's default body limit (16 KiB).
     */
    static final int MAX_BATCH = 16;
    /** Time between two attempts to reach a region whose last request failed. */
    static final long RETRY_DELAY_MILLIS = 1_000;
    /** Requests under way to one region while more than that many full requests wait (a backlog). */
    static final int DRAIN_IN_FLIGHT = 16;

    /** Sends one request; its future completes when it has ended: false if sending it again may help. */
    interface Sender {
        CompletableFuture<Boolean> send(String region, String path, Object body);
    }

    /** Runs a task once, after a delay. */
    interface Scheduler {
        void schedule(Runnable task, long delayMillis);
    }

    private final Sender sender;
    private final Scheduler scheduler;
    private final int maxInFlight;
    private final Map<String, Pending> regions = new HashMap<>();

    /** One region's waiting announcements and its requests under way. */
    private static final class Pending {
        final ArrayDeque<Forwarded.InboxRow> queue = new ArrayDeque<>();
        int inFlight;
        long dropped;
        /** The last request failed: send nothing until a retry is due, then one request. */
        boolean failing;
        boolean retryScheduled;
        boolean retryDue;
    }

    @Autowired
    public Announcer(PeerClient peers, BrokerProperties properties) {
        this(peers::tell, retryThread(), properties.crossRegion().peerAnnouncementsInFlight());
    }

    Announcer(Sender sender, Scheduler scheduler, int maxInFlight) {
        this.sender = sender;
        this.scheduler = scheduler;
        this.maxInFlight = Math.max(1, maxInFlight);
    }

    private static Scheduler retryThread() {
        ScheduledExecutorService executor = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "announcer-retry");
            t.setDaemon(true);
            return t;
        });
        return (task, delayMillis) -> executor.schedule(task, delayMillis, TimeUnit.MILLISECONDS);
    }

    /** Queues the row for its home region and sends it now if a request is free. */
    public void announce(Forwarded.InboxRow row) {
        List<Forwarded.InboxRow> batch;
        synchronized (this) {
            Pending p = regions.computeIfAbsent(row.homeRegion(), r -> new Pending());
            if (p.queue.size() >= MAX_QUEUED) {
                p.queue.poll();
                if (p.dropped++ % 1_000 == 0) {
                    log.warn("announcements to region {} pile up ({} waiting): dropping the oldest; its inbox reads "
                            + "find them", row.homeRegion(), MAX_QUEUED);
                }
            }
            p.queue.add(row);
            batch = take(p);
        }
        send(row.homeRegion(), batch);
    }

    /** The next request's rows if a request is free (counted as under way), else null. */
    private List<Forwarded.InboxRow> take(Pending p) {
        if (p.queue.isEmpty()) {
            return null;
        }
        if (p.failing) {
            if (!p.retryDue || p.inFlight > 0) {
                return null;
            }
            p.retryDue = false;
        } else if (p.inFlight >= (p.queue.size() > maxInFlight * MAX_BATCH ? Math.max(maxInFlight, DRAIN_IN_FLIGHT)
                : maxInFlight)) {
            return null;
        }
        List<Forwarded.InboxRow> batch = new ArrayList<>(Math.min(p.queue.size(), MAX_BATCH));
        while (!p.queue.isEmpty() && batch.size() < MAX_BATCH) {
            batch.add(p.queue.poll());
        }
        p.inFlight++;
        return batch;
    }

    private void send(String region, List<Forwarded.InboxRow> batch) {
        if (batch == null) {
            return;
        }
        long sentNanos = System.nanoTime();
        sender.send(region, PATH, batch).whenComplete((accepted, e) -> {
            List<List<Forwarded.InboxRow>> next = new ArrayList<>();
            boolean retry = false;
            synchronized (this) {
                Pending p = regions.get(region);
                p.inFlight--;
                if (log.isDebugEnabled()) {
                    log.debug("{} announcement(s) to {} {} after {} ms; {} waiting, {} under way", batch.size(), region,
                            Boolean.TRUE.equals(accepted) ? "taken" : "not taken",
                            (System.nanoTime() - sentNanos) / 1_000_000, p.queue.size(), p.inFlight);
                }
                if (Boolean.TRUE.equals(accepted)) {
                    p.failing = false;
                } else {
                    for (int i = batch.size() - 1; i >= 0; i--) {
                        p.queue.addFirst(batch.get(i));
                    }
                    while (p.queue.size() > MAX_QUEUED) {
                        p.queue.pollFirst();
                        p.dropped++;
                    }
                    p.failing = true;
                    retry = !p.retryScheduled;
                    p.retryScheduled = true;
                }
                for (List<Forwarded.InboxRow> b; (b = take(p)) != null; ) {
                    next.add(b);
                }
            }
            if (retry) {
                scheduler.schedule(() -> retry(region), RETRY_DELAY_MILLIS);
            }
            next.forEach(b -> send(region, b));
        });
    }

    /** A failing region's retry is due: one request, whose outcome decides what follows. */
    private void retry(String region) {
        List<Forwarded.InboxRow> batch;
        synchronized (this) {
            Pending p = regions.get(region);
            p.retryScheduled = false;
            p.retryDue = true;
            batch = take(p);
            if (batch == null && p.failing && p.inFlight == 0 && p.queue.isEmpty()) {
                p.retryDue = false;
                p.failing = false;
            }
        }
        send(region, batch);
    }
}
