package io.geobroker.loadgen.driver;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * Starts asynchronous tasks with at most {@code limit} of them running at once; the rest wait in
 * arrival order and start as running ones complete. {@link #submit} never blocks, so an open-loop
 * sender keeps its schedule while a slow service makes requests queue here (the queueing time is
 * the caller's to charge, from each task's intended start).
 *
 * <p>Why: the JDK's HTTP/1.1 client opens one connection per concurrent request with no bound, so
 * thousands of requests in flight meant thousands of connections that the server's accept
 * backlog and keep-alive limit turned into stalls. A bound per server keeps a small set of
 * connections alive and reused.
 *
 * <p>Thread-safe. A task that completes synchronously (or throws) starts no recursion: one thread
 * at a time starts waiting tasks, in a loop.
 *
 * @param <T> the task type
 */
public final class ConcurrencyGate<T extends ConcurrencyGate.Task> {

    /** Something to start once a slot is free; its stage completes when the slot may be reused. */
    public interface Task {
        CompletionStage<?> start();
    }

    private final int limit;
    private final ArrayDeque<T> waiting = new ArrayDeque<>();
    private int running;
    private boolean starting;
    private boolean closed;

    public ConcurrencyGate(int limit) {
        if (limit < 1) {
            throw new IllegalArgumentException("limit must be at least 1, was " + limit);
        }
        this.limit = limit;
    }

    /** Queues {@code task} and starts it at once if a slot is free. Ignored after {@link #close()}. */
    public void submit(T task) {
        synchronized (this) {
            if (closed) {
                return;
            }
            waiting.add(task);
        }
        startWaiting();
    }

    /** Tasks running now. */
    public synchronized int running() {
        return running;
    }

    /** Tasks waiting for a slot. */
    public synchronized int waiting() {
        return waiting.size();
    }

    /** Starts nothing more; returns the tasks that never started, in arrival order. */
    public List<T> close() {
        synchronized (this) {
            closed = true;
            List<T> never = new ArrayList<>(waiting);
            waiting.clear();
            return never;
        }
    }

    private void startWaiting() {
        synchronized (this) {
            if (starting) {
                return;
            }
            starting = true;
        }
        while (true) {
            T next;
            synchronized (this) {
                if (closed || running >= limit || waiting.isEmpty()) {
                    starting = false;
                    return;
                }
                next = waiting.poll();
                running++;
            }
            CompletionStage<?> stage;
            try {
                stage = next.start();
            } catch (RuntimeException e) {
                stage = CompletableFuture.failedFuture(e);
            }
            // completes at once for a stage already done: finished() then only frees the slot, this loop goes on
            stage.whenComplete((r, e) -> finished());
        }
    }

    private void finished() {
        synchronized (this) {
            running--;
        }
        startWaiting();
    }
}
