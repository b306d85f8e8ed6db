package io.geobroker.broker.matching;

import java.time.Duration;
import java.util.Collection;

/**
 * When a symbol's latest quote is written. A ticker that changes no order writes nothing of its
 * own: its sequence and quote become durable with the symbol's next write (any fill, trigger,
 * placement, cancel or expiry writes the symbol's state, so every durable change of a book carries
 * the sequence of every ticker applied before it), or after {@code quotePersistInterval} at the
 * latest. A ticker replayed after a crash is then either at or below the durable sequence (a
 * replay, ignored) or meets the very book it met before, which it changed in no way then either.
 */
final class QuoteSchedule {

    private final long intervalNanos;
    private long nextCheckNanos;

    QuoteSchedule(Duration quotePersistInterval, long nowNanos) {
        this.intervalNanos = quotePersistInterval.toNanos();
        this.nextCheckNanos = nowNanos;
    }

    /** Whether the symbol's quote should be written with the group being built. */
    boolean due(SymbolState s, long nowNanos) {
        return s.quoteSequence != s.persistedQuoteSequence && nowNanos - s.persistedAtNanos >= intervalNanos;
    }

    /**
     * Adds to the group the symbols whose latest quote has waited {@code quotePersistInterval} to be
     * written; looks at most every quarter of the interval (and every millisecond).
     */
    void addDue(Collection<SymbolState> symbols, Group group, long nowNanos) {
        if (nowNanos - nextCheckNanos < 0) {
            return;
        }
        nextCheckNanos = nowNanos + Math.max(intervalNanos / 4, 1_000_000);
        for (SymbolState s : symbols) {
            if (due(s, nowNanos)) {
                group.symbols.add(s);
            }
        }
    }
}
