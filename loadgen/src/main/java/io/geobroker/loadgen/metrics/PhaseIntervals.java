package io.geobroker.loadgen.metrics;

/**
 * The intervals of a measured phase that {@link Metrics#tick} closes, each named by its start in
 * milliseconds into the phase: {@code [0, 1 s)}, {@code [1 s, 2 s)}, ... and a last one ending with
 * the phase, shorter when the phase is not a whole number of intervals. An interval is closed once
 * its end has passed; a caller that falls behind (a busy machine) closes the intervals it owes in
 * order, none twice and none skipped. What comes after the phase (the drain) is the caller's own
 * last tick, named by the phase's length.
 */
public final class PhaseIntervals {

    private final long startNanos;
    private final long endNanos;
    private final long lengthNanos;
    private long nextStartNanos;

    public PhaseIntervals(long startNanos, long endNanos, long lengthNanos) {
        if (lengthNanos <= 0 || endNanos < startNanos) {
            throw new IllegalArgumentException("intervals need a positive length and a phase that does not end before it starts");
        }
        this.startNanos = startNanos;
        this.endNanos = endNanos;
        this.lengthNanos = lengthNanos;
        this.nextStartNanos = startNanos;
    }

    /** When the next interval ends (the phase's end for the last one). */
    public long nextEndNanos() {
        return Math.min(nextStartNanos + lengthNanos, endNanos);
    }

    /** Whether every interval of the phase is closed. */
    public boolean done() {
        return nextStartNanos >= endNanos;
    }

    /**
     * Closes the next interval if it has ended by {@code nowNanos}.
     *
     * @return its start in milliseconds into the phase, or -1 if it has not ended (or none is left)
     */
    public long closeNext(long nowNanos) {
        if (done() || nowNanos < nextEndNanos()) {
            return -1;
        }
        long start = nextStartNanos;
        nextStartNanos = nextEndNanos();
        return (start - startNanos) / 1_000_000;
    }
}
