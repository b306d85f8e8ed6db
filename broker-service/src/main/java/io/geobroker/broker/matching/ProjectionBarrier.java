package io.geobroker.broker.matching;

import io.geobroker.broker.config.BrokerProperties;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.stereotype.Component;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Where this region's reads of a customer's rows wait until its engine has written them to their
 * tables. A group commit makes the customers' rows durable in one slot of the engine log
 * ({@link EngineLog}); the {@link Projection} writes them to {@code customer_orders}, {@code cash},
 * {@code holdings} and the rest a round later. A read of a customer some logged group changed waits
 * until that group is projected, and asks for a round at once rather than at the interval's end, so
 * a customer reads its own writes here (an acknowledged placement, a fill, a deposit) as it did when
 * they were written before the answer. A read of a customer with nothing waiting does not wait.
 *
 * <p>Reads before the engine has started wait for it too: a start first writes what a stopped
 * broker left in the log. A wait longer than {@link #MAX_WAIT_MILLIS} fails with
 * {@link Engine.EngineBusyException} (503, Retry-After). Reads in other regions do not wait: they
 * see the rows once projected and replicated, later by up to the projection interval.
 */
@Component
public class ProjectionBarrier {

    /** The longest a read waits for its rows' projection before it is answered 503. */
    static final long MAX_WAIT_MILLIS = 10_000;
    /** What a read that need not wait gets: completed once, shared. */
    private static final CompletableFuture<Void> NOW = CompletableFuture.completedFuture(null);

    private final boolean enabled;
    private final long maxWaitMillis;
    private final Object lock = new Object();
    /** Per customer, the last logged group that changed its rows and is not projected yet. */
    private final Map<String, Long> pending = new HashMap<>();
    /** Reads waiting, by the group whose projection they wait for. */
    private final TreeMap<Long, List<CompletableFuture<Void>>> waiting = new TreeMap<>();
    /** -1 until the engine has started (the log of a stopped broker written to the tables). */
    private long projectedSeq = -1;
    private long loggedSeq;
    private volatile Runnable requestRound = () -> { };

    @Autowired
    public ProjectionBarrier(BrokerProperties properties) {
        this(properties.engine().logCustomerRows(), MAX_WAIT_MILLIS);
    }

    ProjectionBarrier(boolean enabled, long maxWaitMillis) {
        this.enabled = enabled;
        this.maxWaitMillis = maxWaitMillis;
    }

    /** Whether customers' rows go through the log (else every read goes on at once). */
    boolean enabled() {
        return enabled;
    }

    /** Completes once this region's logged changes of the customer's rows are in their tables. */
    public CompletableFuture<Void> customer(String customerId) {
        if (!enabled) {
            return NOW;
        }
        long seq;
        synchronized (lock) {
            seq = Math.max(0, pending.getOrDefault(customerId, 0L));
        }
        return until(seq);
    }

    /** Completes once every group logged so far is in its tables. */
    public CompletableFuture<Void> all() {
        if (!enabled) {
            return NOW;
        }
        long seq;
        synchronized (lock) {
            seq = loggedSeq;
        }
        return until(seq);
    }

    /** {@link #customer}, waited for. */
    public void awaitCustomer(String customerId) {
        await(customer(customerId));
    }

    /** {@link #all}, waited for. */
    public void awaitAll() {
        await(all());
    }

    private void await(CompletableFuture<Void> projected) {
        if (projected.isDone() && !projected.isCompletedExceptionally()) {
            return;
        }
        try {
            projected.get(maxWaitMillis, TimeUnit.MILLISECONDS);
        } catch (TimeoutException | ExecutionException e) {
            throw new Engine.EngineBusyException();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new Engine.EngineBusyException();
        }
    }

    private CompletableFuture<Void> until(long seq) {
        CompletableFuture<Void> projected;
        boolean started;
        synchronized (lock) {
            if (seq <= projectedSeq) {
                return NOW;
            }
            projected = new CompletableFuture<>();
            waiting.computeIfAbsent(seq, s -> new ArrayList<>()).add(projected);
            started = projectedSeq >= 0;
        }
        if (started) {
            requestRound.run();
        }
        CompletableFuture.delayedExecutor(maxWaitMillis, TimeUnit.MILLISECONDS)
                .execute(() -> projected.completeExceptionally(new Engine.EngineBusyException()));
        return projected;
    }

    // ---- from the engine and its projection

    /** The projection has started with every group up to {@code projected} in the tables; it runs rounds on request. */
    void started(long projected, Runnable requestRound) {
        this.requestRound = requestRound;
        projected(projected);
        synchronized (lock) {
            loggedSeq = Math.max(loggedSeq, projected);
        }
    }

    /** Group {@code seq}, durable in the log, changed these customers' rows (the engine thread, before it answers). */
    void logged(long seq, Collection<String> customers) {
        synchronized (lock) {
            loggedSeq = seq;
            for (String c : customers) {
                pending.put(c, seq);
            }
        }
    }

    /** Every group up to {@code seq} is in its tables. */
    void projected(long seq) {
        List<CompletableFuture<Void>> done = new ArrayList<>();
        synchronized (lock) {
            projectedSeq = Math.max(projectedSeq, seq);
            pending.values().removeIf(s -> s <= projectedSeq);
            Iterator<Map.Entry<Long, List<CompletableFuture<Void>>>> it = waiting.headMap(projectedSeq, true)
                    .entrySet().iterator();
            while (it.hasNext()) {
                done.addAll(it.next().getValue());
                it.remove();
            }
        }
        done.forEach(f -> f.complete(null));
    }

    /** Customers with changes not projected yet. */
    int pendingCustomers() {
        synchronized (lock) {
            return pending.size();
        }
    }
}
