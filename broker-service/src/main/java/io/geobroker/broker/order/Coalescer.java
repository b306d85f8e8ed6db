package io.geobroker.broker.order;

import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.MeterRegistry;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * Requests to Cassandra sent one at a time per lane, each carrying every item that came while the
 * one before it was under way. An item that finds its lane idle is sent at once, alone, so an idle
 * broker waits for nothing but its own request; under load a busy lane's requests carry several
 * items each, and what Cassandra pays per request (the request itself, its parsing and execution,
 * a partition's lookup, a batch log) is paid once for them: the batching follows the load, as the
 * engine's group commit does. Every item is sent after it came, so a read sees every write
 * acknowledged before it was asked for, as a request of its own would.
 *
 * <p>Used for the placement's idempotency read (a lane per customer: {@code customer_orders} of
 * several order ids in one read) and for orders placed here for another region's symbols (one lane:
 * several orders' rows in one logged batch). The sender's thread is the driver's: it must not block.
 *
 * @param <L> what a lane is (a customer, or one lane for all)
 * @param <T> an item
 * @param <R> an item's result
 */
public final class Coalescer<L, T, R> {

    /** Sends one request for {@code items} of {@code lane}; the results in the order of the items. */
    public interface Sender<L, T, R> {
        CompletionStage<List<R>> send(L lane, List<T> items);
    }

    private record Waiter<T, R>(T item, CompletableFuture<R> result) {
    }

    /** A lane's items not yet sent, and whether a request of it is under way. */
    private static final class Lane<T, R> {
        final List<Waiter<T, R>> waiting = new ArrayList<>();
        boolean sending;
    }

    private final Sender<L, T, R> sender;
    private final int maxItems;
    private final Map<L, Lane<T, R>> lanes = new HashMap<>();

    /**
     * @param maxItems at most this many items in one request; a lane with more waiting sends
     *                 another request for the rest as soon as the one under way is answered
     */
    public Coalescer(Sender<L, T, R> sender, int maxItems) {
        if (maxItems < 1) {
            throw new IllegalArgumentException("maxItems must be at least 1, was " + maxItems);
        }
        this.sender = sender;
        this.maxItems = maxItems;
    }

    /**
     * The meter of the items per request of one use, {@code geobroker_coalesced_items{requests=...}}:
     * its mean above 1 is what the coalescing saves.
     */
    public static DistributionSummary itemsPerRequest(MeterRegistry meters, String requests) {
        return DistributionSummary.builder("geobroker.coalesced.items")
                .description("Items carried by one coalesced Cassandra request (a read of several orders, a batch of several pending orders)")
                .tag("requests", requests)
                .register(meters);
    }

    /** The item's result; fails as its request fails. */
    public CompletableFuture<R> submit(L lane, T item) {
        Waiter<T, R> waiter = new Waiter<>(item, new CompletableFuture<>());
        List<Waiter<T, R>> batch = null;
        synchronized (lanes) {
            Lane<T, R> l = lanes.computeIfAbsent(lane, k -> new Lane<>());
            l.waiting.add(waiter);
            if (!l.sending) {
                l.sending = true;
                batch = take(l);
            }
        }
        if (batch != null) {
            send(lane, batch);
        }
        return waiter.result();
    }

    /** Lanes with a request under way (0 when idle). */
    public int busyLanes() {
        synchronized (lanes) {
            return lanes.size();
        }
    }

    private void send(L lane, List<Waiter<T, R>> batch) {
        CompletionStage<List<R>> sent;
        try {
            sent = sender.send(lane, batch.stream().map(Waiter::item).toList());
        } catch (RuntimeException e) {
            sent = CompletableFuture.failedFuture(e);
        }
        sent.whenComplete((results, failure) -> {
            for (int i = 0; i < batch.size(); i++) {
                CompletableFuture<R> result = batch.get(i).result();
                if (failure != null) {
                    result.completeExceptionally(failure);
                } else if (results.size() != batch.size()) {
                    result.completeExceptionally(new IllegalStateException(
                            results.size() + " results for " + batch.size() + " items"));
                } else {
                    result.complete(results.get(i));
                }
            }
            next(lane);
        });
    }

    /** After a lane's request: the items that came meanwhile are sent now, or the lane ends. */
    private void next(L lane) {
        List<Waiter<T, R>> batch;
        synchronized (lanes) {
            Lane<T, R> l = lanes.get(lane);
            if (l.waiting.isEmpty()) {
                lanes.remove(lane);
                return;
            }
            batch = take(l);
        }
        send(lane, batch);
    }

    /** Up to {@link #maxItems} of the lane's waiting items, oldest first. */
    private List<Waiter<T, R>> take(Lane<T, R> lane) {
        int n = Math.min(maxItems, lane.waiting.size());
        List<Waiter<T, R>> batch = new ArrayList<>(lane.waiting.subList(0, n));
        lane.waiting.subList(0, n).clear();
        return batch;
    }
}
