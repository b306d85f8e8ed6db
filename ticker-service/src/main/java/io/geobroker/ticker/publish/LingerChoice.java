package io.geobroker.ticker.publish;

import java.util.concurrent.TimeUnit;

/**
 * Whether a region's tickers should wait in a lingering producer or go at once, from the rate
 * they come at: measured over windows of at least {@link #WINDOW_NANOS}, lingering from
 * {@code fromPerSecond} and sent at once again below {@link #HYSTERESIS} of it, so a rate near the
 * threshold does not flip the choice window by window. After a pause the first ticker's window is
 * the whole pause, so a ticker after a quiet spell goes at once.
 *
 * <p>Pure logic on a caller-supplied clock (nanoseconds); not thread-safe.
 */
final class LingerChoice {

    static final long WINDOW_NANOS = TimeUnit.MILLISECONDS.toNanos(250);
    static final double HYSTERESIS = 0.8;

    private final double fromPerSecond;
    private long windowStart;
    private int inWindow;
    private boolean linger;

    /** {@code fromPerSecond} 0 lingers always. */
    LingerChoice(double fromPerSecond, long now) {
        if (fromPerSecond < 0) {
            throw new IllegalArgumentException("fromPerSecond must not be negative, was " + fromPerSecond);
        }
        this.fromPerSecond = fromPerSecond;
        this.windowStart = now;
        this.linger = fromPerSecond == 0;
    }

    /** Counts a ticker sent at {@code now}; returns whether it should linger. */
    boolean onSend(long now) {
        long elapsed = now - windowStart;
        if (elapsed >= WINDOW_NANOS) {
            double rate = inWindow * 1e9 / elapsed;
            linger = rate >= (linger ? fromPerSecond * HYSTERESIS : fromPerSecond);
            windowStart = now;
            inWindow = 0;
        }
        inWindow++;
        return linger;
    }
}
