package io.geobroker.broker.matching;

import io.micrometer.core.instrument.Timer;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * The groups whose writes are under way, oldest first, at most {@code maxGroups}: the engine goes
 * on applying commands and writing the next groups while Cassandra answers, so the commits a second
 * do not depend on how long one write takes (a remote DC, a busy node). A group is made visible
 * (answered, its fills and order events handed to Kafka, its ticker offsets on their way to being
 * committed) only once its own write and the writes of every group before it are durable, in the
 * order the groups were built; a group whose write failed or timed out is written again first.
 *
 * <p>Memory runs ahead of Cassandra by the groups under way, and nothing of them is seen before
 * they are durable. A crash may leave a later group's slot in the engine log without an earlier
 * one's: a start replays the log only up to its first missing slot and clears what lies beyond it
 * ({@link EngineLog#clearBeyond}), so a group no one was answered for never reappears.
 */
final class Writing {

    /** A group whose write is under way: what makes it visible once the write has been answered ({@link #add}). */
    private record Pending(CompletableFuture<Void> write, Runnable durable, Map<SymbolState, Long> firstSequences,
                           List<Command.TickerReceived> held) {
    }

    /** How a group written the older way is written, on the engine thread. */
    interface Write {
        void run() throws InterruptedException;
    }

    private final ArrayDeque<Pending> pending = new ArrayDeque<>();
    /**
     * The tickers the group about to be written holds back while it waits for room or for the groups
     * before it ({@link #add}, {@link #writeNow}).
     */
    private List<Command.TickerReceived> heldByNext = List.of();
    private final int maxGroups;
    private final Runnable wake;
    private final Timer waitTimer;

    /**
     * @param maxGroups groups that may be under way at once; one more is built meanwhile
     * @param wake      called (on a driver thread) when a write is answered: wakes the engine
     * @param waitTimer the time the engine spends waiting for writes
     */
    Writing(int maxGroups, Runnable wake, Timer waitTimer) {
        if (maxGroups < 1 || maxGroups > EngineLog.MAX_GROUPS_IN_FLIGHT) {
            throw new IllegalArgumentException("groups in flight must be from 1 to " + EngineLog.MAX_GROUPS_IN_FLIGHT
                    + ", was " + maxGroups);
        }
        this.maxGroups = maxGroups;
        this.wake = wake;
        this.waitTimer = waitTimer;
    }

    boolean isEmpty() {
        return pending.isEmpty();
    }

    int size() {
        return pending.size();
    }

    /**
     * A group to write: waits (making the oldest visible) while {@code maxGroups} are under way, then
     * starts its write. What the group holds back stays held while the groups before it become visible.
     *
     * @param start          starts the write; its future completes (normally or not) once Cassandra has answered
     * @param durable        given that future, run on the engine thread once it has, in group order:
     *                       makes sure the group is durable (writing it again if the write failed),
     *                       then makes it visible
     * @param firstSequences the symbols the group fills, each with the first ticker sequence it fills at
     * @param held           the first ticker each symbol the group writes held back from its offset
     *                       commit: no offset at or past it may be committed until the group is durable
     */
    void add(Supplier<CompletableFuture<Void>> start, Consumer<CompletableFuture<Void>> durable,
             Map<SymbolState, Long> firstSequences, List<Command.TickerReceived> held) throws InterruptedException {
        holding(held, () -> {
            answerWritten();
            while (pending.size() >= maxGroups) {
                answerOldest();
            }
        });
        CompletableFuture<Void> write = start.get();
        pending.addLast(new Pending(write, () -> durable.accept(write), firstSequences, held));
        write.whenComplete((result, failure) -> wake.run());
    }

    /**
     * A group written the older way: every group under way is made visible first (its write must
     * not overtake theirs, nor a later group's write overtake its own), then {@code write} runs on
     * this thread. Its {@code held} tickers stay held meanwhile, as a group under way's do.
     */
    void writeNow(List<Command.TickerReceived> held, Write write) throws InterruptedException {
        holding(held, () -> {
            drain();
            long start = System.nanoTime();
            write.run();
            waitTimer.record(System.nanoTime() - start, TimeUnit.NANOSECONDS);
        });
    }

    /** Runs {@code step} with {@code held} reported as held back by the group about to be written. */
    private void holding(List<Command.TickerReceived> held, Write step) throws InterruptedException {
        heldByNext = held;
        try {
            step.run();
        } finally {
            heldByNext = List.of();
        }
    }

    /** Makes visible the groups at the head whose writes have been answered; never waits for one. */
    void answerWritten() {
        while (!pending.isEmpty() && pending.peekFirst().write().isDone()) {
            pending.removeFirst().durable().run();
        }
    }

    /** Waits for every group under way and makes them visible. */
    private void drain() throws InterruptedException {
        while (!pending.isEmpty()) {
            answerOldest();
        }
    }

    private void answerOldest() throws InterruptedException {
        Pending head = pending.peekFirst();
        if (!head.write().isDone()) {
            long start = System.nanoTime();
            try {
                head.write().get();
            } catch (ExecutionException e) {
                // its durable step writes it again
            } finally {
                waitTimer.record(System.nanoTime() - start, TimeUnit.NANOSECONDS);
            }
        }
        pending.removeFirst().durable().run();
    }

    /** The first ticker sequence the oldest group under way that fills the symbol fills it at, or null. */
    Long firstSequence(SymbolState s) {
        for (Pending g : pending) {
            Long first = g.firstSequences().get(s);
            if (first != null) {
                return first;
            }
        }
        return null;
    }

    /** The tickers whose offsets the groups under way hold back (see {@link InFlight#held}). */
    List<Command.TickerReceived> held() {
        if (pending.isEmpty()) {
            return heldByNext;
        }
        List<Command.TickerReceived> held = new ArrayList<>(heldByNext);
        for (Pending g : pending) {
            held.addAll(g.held());
        }
        return held;
    }
}
