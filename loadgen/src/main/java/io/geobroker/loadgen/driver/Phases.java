package io.geobroker.loadgen.driver;

import java.time.Duration;

/**
 * The time line of one run on both clocks: orders and tickers are scheduled on the monotonic clock
 * ({@link System#nanoTime()}), while tickers and fills carry wall-clock microseconds. The warm-up
 * runs from the start to the measured phase; what comes after the measured phase is the drain.
 */
record Phases(long startNanos, long wallMicrosAtStart, long measureStartNanos, long measureEndNanos,
              long measureStartWallMicros, long measureEndWallMicros) {

    /** A run starts this long after it is planned, once its threads are up. */
    private static final long LEAD_NANOS = 200_000_000L;

    /** The phases of a workload that starts 200 ms from now. */
    static Phases startingSoon(Workload w) {
        long startNanos = System.nanoTime() + LEAD_NANOS;
        long wallMicrosAtStart = System.currentTimeMillis() * 1_000 + LEAD_NANOS / 1_000;
        return of(startNanos, wallMicrosAtStart, w.warmup(), w.duration());
    }

    static Phases of(long startNanos, long wallMicrosAtStart, Duration warmup, Duration duration) {
        long warmupNanos = warmup.toNanos();
        long measureStartNanos = startNanos + warmupNanos;
        long measureEndNanos = measureStartNanos + duration.toNanos();
        long measureStartWallMicros = wallMicrosAtStart + warmupNanos / 1_000;
        long measureEndWallMicros = measureStartWallMicros + duration.toNanos() / 1_000;
        return new Phases(startNanos, wallMicrosAtStart, measureStartNanos, measureEndNanos,
                measureStartWallMicros, measureEndWallMicros);
    }

    /** Whether an order or ticker intended for this monotonic time belongs to the measured phase. */
    boolean measured(long intendedNanos) {
        return intendedNanos >= measureStartNanos && intendedNanos < measureEndNanos;
    }

    /** Whether a ticker stamped at this wall-clock time belongs to the measured phase. */
    boolean measuredTicker(long tickerExchangeMicros) {
        return measuredTicker(tickerExchangeMicros, measureStartWallMicros, measureEndWallMicros);
    }

    /** Whether a fill counts: its ticker was stamped in the measured phase (not the warm-up, not the drain). */
    static boolean measuredTicker(long tickerExchangeMicros, long measureStartWallMicros, long measureEndWallMicros) {
        return tickerExchangeMicros >= measureStartWallMicros && tickerExchangeMicros < measureEndWallMicros;
    }
}
