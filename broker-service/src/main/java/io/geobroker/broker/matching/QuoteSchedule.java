package io.geobroker.broker.matching;

import java.time.Duration;
import java.util.Collection;
import java.util.concurrent.TimeUnit;

/**
 * When a symbol's latest quote is written. A ticker that changes no order writes nothing of its
 * own: its sequence and quote become durable with the symbol's next write (any fill, trigger,
 * placement, cancel or expiry writes the symbol's state, so every durable change of a book carries
 * the sequence of every ticker applied before it), or with the first check ({@link #addDue}) after
 * {@code quotePersistInterval}. A ticker replayed after a crash is then either at or below the
 * durable sequence (a replay, ignored) or meets the very book it met before, which it changed in no
 * way then either.
 *
 * <p>A due quote does not open a group of its own when its ticker comes: the checks collect every
 * symbol due by then into one group. Where symbols tick about once an interval (a tenth of the
 * default load, or a quiet market), a due quote came with nearly every ticker, and each was a group
 * commit of its own (a logged batch, its replication and its wake-ups); now they are at most one
 * group per check.
 */
final class QuoteSchedule {

    /** The longest time between two checks for due quotes. */
    static final long MAX_CHECK_NANOS = 250_000_000L;

    private final long intervalNanos;
    private final long checkNanos;
    private long nextCheckNanos;

    QuoteSchedule(Duration quotePersistInterval, long nowNanos) {
        this.intervalNanos = quotePersistInterval.toNanos();
        this.checkNanos = Math.max(Math.min(intervalNanos / 4, MAX_CHECK_NANOS), 1_000_000);
        this.nextCheckNanos = nowNanos;
    }

    /** Whether the symbol's quote is to be written by the next check. */
    boolean due(SymbolState s, long nowNanos) {
        return s.quoteSequence != s.persistedQuoteSequence && nowNanos - s.persistedAtNanos >= intervalNanos;
    }

    /** Whether a ticker's quote goes with the ticker's own group: only with an interval of 0 (every ticker). */
    boolean writtenWithItsTicker() {
        return intervalNanos == 0;
    }

    /** The time between checks: a quarter of the interval, at most {@link #MAX_CHECK_NANOS}, at least 1 ms. */
    long checkMillis() {
        return TimeUnit.NANOSECONDS.toMillis(checkNanos);
    }

    /**
     * Adds to the group the symbols whose latest quote has waited {@code quotePersistInterval} to be
     * written; looks every {@link #checkMillis()} at most. A quote is so written within the interval
     * and one check period of its symbol's last write.
     */
    void addDue(Collection<SymbolState> symbols, Group group, long nowNanos) {
        if (nowNanos - nextCheckNanos < 0) {
            return;
        }
        nextCheckNanos = nowNanos + checkNanos;
        for (SymbolState s : symbols) {
            if (due(s, nowNanos)) {
                group.symbols.add(s);
            }
        }
    }
}
