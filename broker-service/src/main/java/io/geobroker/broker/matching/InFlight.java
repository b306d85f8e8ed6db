package io.geobroker.broker.matching;

import io.geobroker.broker.fill.FillPublisher;
import io.geobroker.broker.ticker.DurableOffsets;
import io.micrometer.core.instrument.Timer;

import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The durable group whose fills Kafka has not acknowledged yet, with the ticker offsets that wait on
 * them. At most one group is in flight: its acknowledgement is awaited after the next group is
 * written (the wait overlaps that group's matching and batch), and until then {@link GroupCommit}
 * keeps its symbols' {@code last_group_first_sequence} pointing at it, so a restart publishes its
 * fills again.
 */
final class InFlight {

    private record Sent(FillPublisher.Sent fills, Map<SymbolState, Long> firstSequences,
                        List<Command.TickerReceived> offsets, List<Command.Skipped> skipped) {
    }

    private final DurableOffsets offsets;
    private final Collection<SymbolState> symbols;
    private final Timer publishTimer;
    private Sent sent;

    InFlight(DurableOffsets offsets, Collection<SymbolState> symbols, Timer publishTimer) {
        this.offsets = offsets;
        this.symbols = symbols;
        this.publishTimer = publishTimer;
    }

    boolean isEmpty() {
        return sent == null;
    }

    /** The first ticker sequence the group in flight filled the symbol at, or null. */
    Long firstSequence(SymbolState s) {
        return sent != null ? sent.firstSequences().get(s) : null;
    }

    /** A group just made durable; the one before must have been awaited. */
    void hand(FillPublisher.Sent fills, Map<SymbolState, Long> firstSequences, List<Command.TickerReceived> tickers,
              List<Command.Skipped> skipped) {
        sent = new Sent(fills, firstSequences, tickers, skipped);
    }

    /** Waits until Kafka has the group's fills, then lets its ticker offsets be committed. */
    void await() {
        if (sent == null) {
            return;
        }
        long start = System.nanoTime();
        sent.fills().await();
        publishTimer.record(System.nanoTime() - start, TimeUnit.NANOSECONDS);
        Map<String, Long> held = held(symbols);
        for (Command.TickerReceived t : sent.offsets()) {
            offsets.done(t.topic(), t.partition(), committable(held, t.topic(), t.partition(), t.offset() + 1));
        }
        for (Command.Skipped t : sent.skipped()) {
            offsets.done(t.topic(), t.partition(), committable(held, t.topic(), t.partition(), t.offset() + 1));
        }
        sent = null;
    }

    /**
     * The first offset per topic partition of a ticker whose quote is not durable yet (it changed no
     * order, and its symbol has not been written since): no offset at or past it may be committed,
     * so a restart reads that ticker again.
     */
    static Map<String, Long> held(Collection<SymbolState> symbols) {
        Map<String, Long> held = new HashMap<>();
        for (SymbolState s : symbols) {
            if (s.firstHeld != null) {
                held.merge(key(s.firstHeld.topic(), s.firstHeld.partition()), s.firstHeld.offset(), Math::min);
            }
        }
        return held;
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
