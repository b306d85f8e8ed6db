package io.geobroker.broker.matching;

import io.geobroker.broker.fill.FillPublisher;
import io.geobroker.broker.ticker.DurableOffsets;
import io.micrometer.core.instrument.Timer;

import java.util.ArrayDeque;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Supplier;

/**
 * The durable groups whose fills and order events Kafka has not acknowledged yet, oldest first, with
 * the ticker offsets that wait on them. Each group's records are handed to the producer on a thread
 * of its own ({@code fills-sender}, in group order), since a send can wait for the producer's
 * metadata while the region's Kafka is down, and the engine goes on: it lets go of acknowledged groups
 * as it commits the next ones ({@link #release}) and waits only when {@code maxGroups} are
 * unacknowledged. A group's ticker offsets are committed only when it and every older group are
 * acknowledged. While groups are unacknowledged, {@link GroupCommit} keeps each symbol's
 * {@code last_group_first_sequence} at the oldest of them that fills the symbol, so a restart
 * publishes all of their fills again.
 */
final class InFlight implements AutoCloseable {

    /** Unacknowledged groups the engine may run ahead of Kafka before it waits. */
    static final int MAX_GROUPS = 10_000;

    private static final class Sent {
        CompletableFuture<FillPublisher.Sent> records;
        final Map<SymbolState, Long> firstSequences;
        final List<Command.TickerReceived> offsets;
        final List<Command.Skipped> skipped;
        final long handedNanos;

        Sent(CompletableFuture<FillPublisher.Sent> records, Map<SymbolState, Long> firstSequences,
             List<Command.TickerReceived> offsets, List<Command.Skipped> skipped) {
            this.records = records;
            this.firstSequences = firstSequences;
            this.offsets = offsets;
            this.skipped = skipped;
            this.handedNanos = System.nanoTime();
        }
    }

    private final DurableOffsets offsets;
    private final Collection<SymbolState> symbols;
    private final Timer publishTimer;
    private final int maxGroups;
    private final Supplier<List<Command.TickerReceived>> heldByWrites;
    private final ArrayDeque<Sent> sent = new ArrayDeque<>();
    private final ExecutorService sender = Executors.newSingleThreadExecutor(r -> {
        Thread t = new Thread(r, "fills-sender");
        t.setDaemon(true);
        return t;
    });

    /**
     * @param heldByWrites the tickers whose offsets the groups still being written hold back
     *                     ({@link Writing#held}): their symbols were released when the groups were committed
     */
    InFlight(DurableOffsets offsets, Collection<SymbolState> symbols, Timer publishTimer,
             Supplier<List<Command.TickerReceived>> heldByWrites) {
        this(offsets, symbols, publishTimer, MAX_GROUPS, heldByWrites);
    }

    InFlight(DurableOffsets offsets, Collection<SymbolState> symbols, Timer publishTimer, int maxGroups) {
        this(offsets, symbols, publishTimer, maxGroups, List::of);
    }

    private InFlight(DurableOffsets offsets, Collection<SymbolState> symbols, Timer publishTimer, int maxGroups,
                     Supplier<List<Command.TickerReceived>> heldByWrites) {
        if (maxGroups < 1) {
            throw new IllegalArgumentException("maxGroups must be at least 1, was " + maxGroups);
        }
        this.offsets = offsets;
        this.symbols = symbols;
        this.publishTimer = publishTimer;
        this.maxGroups = maxGroups;
        this.heldByWrites = heldByWrites;
    }

    boolean isEmpty() {
        return sent.isEmpty();
    }

    /** Groups whose records Kafka has not acknowledged yet. */
    int size() {
        return sent.size();
    }

    /** The first ticker sequence the oldest unacknowledged group that fills the symbol filled it at, or null. */
    Long firstSequence(SymbolState s) {
        for (Sent g : sent) {
            Long first = g.firstSequences.get(s);
            if (first != null) {
                return first;
            }
        }
        return null;
    }

    /**
     * A group just made durable: {@code send} hands its records to the producer on the sender thread.
     * Waits first only while {@code maxGroups} groups are unacknowledged.
     */
    void hand(Supplier<FillPublisher.Sent> send, Map<SymbolState, Long> firstSequences,
              List<Command.TickerReceived> tickers, List<Command.Skipped> skipped) {
        release();
        while (sent.size() >= maxGroups) {
            awaitOldest();
        }
        sent.addLast(new Sent(CompletableFuture.supplyAsync(send, sender), firstSequences, tickers, skipped));
    }

    /**
     * Lets go of the acknowledged groups at the head, oldest first, committing their ticker offsets;
     * never waits. A group Kafka refused records of has them sent again on the sender thread, and
     * stays at the head until they are acknowledged.
     */
    void release() {
        while (!sent.isEmpty()) {
            Sent head = sent.peekFirst();
            if (head.records.isCompletedExceptionally()) {
                head.records.join(); // throws what handing the records to the producer threw
            }
            FillPublisher.Sent records = head.records.getNow(null);
            if (records == null || !records.answered()) {
                return;
            }
            if (!records.allAcknowledged()) {
                head.records = CompletableFuture.supplyAsync(() -> {
                    records.resendFailed();
                    return records;
                }, sender);
                return;
            }
            done(sent.removeFirst());
        }
    }

    /**
     * Waits up to {@code maxWaitMillis} for Kafka to answer the oldest group, then lets go of every
     * acknowledged group: what the idle engine does between commands, so that a command arriving
     * while Kafka is down waits at most that long.
     */
    void awaitOldest(long maxWaitMillis) {
        Sent head = sent.peekFirst();
        if (head == null) {
            return;
        }
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(maxWaitMillis);
        try {
            FillPublisher.Sent records = head.records.get(maxWaitMillis, TimeUnit.MILLISECONDS);
            records.awaitAnswered(Math.max(0, deadline - System.nanoTime()));
        } catch (TimeoutException e) {
            return;
        } catch (ExecutionException e) {
            throw new IllegalStateException("handing fills to Kafka's producer failed", e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return;
        }
        release();
    }

    /** Waits until Kafka acknowledged the oldest group (sending again what failed), then lets go of it. */
    private void awaitOldest() {
        Sent head = sent.removeFirst();
        head.records.join().await();
        done(head);
    }

    private void done(Sent group) {
        publishTimer.record(System.nanoTime() - group.handedNanos, TimeUnit.NANOSECONDS);
        Map<String, Long> held = held(symbols, heldByWrites.get());
        for (Command.TickerReceived t : group.offsets) {
            offsets.done(t.topic(), t.partition(), committable(held, t.topic(), t.partition(), t.offset() + 1));
        }
        for (Command.Skipped t : group.skipped) {
            offsets.done(t.topic(), t.partition(), committable(held, t.topic(), t.partition(), t.offset() + 1));
        }
    }

    @Override
    public void close() {
        sender.shutdownNow();
    }

    /**
     * The first offset per topic partition of a ticker whose quote is not durable yet (it changed no
     * order, and its symbol has not been written since): no offset at or past it may be committed,
     * so a restart reads that ticker again.
     */
    static Map<String, Long> held(Collection<SymbolState> symbols) {
        return held(symbols, List.of());
    }

    /** {@link #held(Collection)} with the tickers the groups still being written hold back too. */
    static Map<String, Long> held(Collection<SymbolState> symbols, List<Command.TickerReceived> heldByWrites) {
        Map<String, Long> held = new HashMap<>();
        for (SymbolState s : symbols) {
            if (s.firstHeld != null) {
                hold(held, s.firstHeld);
            }
        }
        for (Command.TickerReceived t : heldByWrites) {
            hold(held, t);
        }
        return held;
    }

    private static void hold(Map<String, Long> held, Command.TickerReceived t) {
        held.merge(key(t.topic(), t.partition()), t.offset(), Math::min);
    }

    /** The offset to commit for a partition whose records before {@code nextOffset} are done. */
    static long committable(Map<String, Long> held, String topic, int partition, long nextOffset) {
        Long first = held.get(key(topic, partition));
        return first == null ? nextOffset : Math.min(nextOffset, first);
    }

    private static String key(String topic, int partition) {
        return topic + '\u0000' + partition;
    }
}
