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

/**
 * Sends home regions the orders stored PENDING for them here ({@code POST /internal/v1/inbox/batch}),
 * at most {@code peerAnnouncementsInFlight} requests per region at a time: an order goes at once
 * while a request is free, and the orders placed while none is go together in the next one. At the
 * default load (~100 cross-region orders a second, a 230 ms round trip) that is a few requests a
 * second for both brokers to handle instead of one per order. Announcements are hints (the home's
 * inbox reads find every order anyway), so a region that is cut off costs only memory: beyond
 * {@link #MAX_QUEUED} waiting orders per region the oldest are dropped.
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

    /** Sends one request; its future completes when the request has ended, whatever the answer. */
    interface Sender {
        CompletableFuture<Void> send(String region, String path, Object body);
    }

    private final Sender sender;
    private final int maxInFlight;
    private final Map<String, Pending> regions = new HashMap<>();

    /** One region's waiting announcements and its requests under way. */
    private static final class Pending {
        final ArrayDeque<Forwarded.InboxRow> queue = new ArrayDeque<>();
        int inFlight;
        long dropped;
    }

    @Autowired
    public Announcer(PeerClient peers, BrokerProperties properties) {
        this(peers::tell, properties.crossRegion().peerAnnouncementsInFlight());
    }

    Announcer(Sender sender, int maxInFlight) {
        this.sender = sender;
        this.maxInFlight = Math.max(1, maxInFlight);
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
        if (p.queue.isEmpty() || p.inFlight >= maxInFlight) {
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
        sender.send(region, PATH, batch).whenComplete((done, e) -> {
            List<Forwarded.InboxRow> next;
            synchronized (this) {
                Pending p = regions.get(region);
                p.inFlight--;
                next = take(p);
            }
            send(region, next);
        });
    }
}
