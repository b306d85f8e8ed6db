package io.geobroker.loadgen.metrics;

/**
 * An open-loop schedule whose rate climbs linearly from {@code fromFraction × rate} to
 * {@code rate} over the first {@code rampNanos}, then stays at {@code rate} (a {@link Schedule})
 * until the end. Operation {@code i} is <em>intended</em> at the time the ramp's cumulative
 * count reaches {@code i}, whatever happened to earlier operations, so latency measured from the
 * intended time keeps its no-coordinated-omission meaning during the ramp too.
 *
 * <p>Why: at the start every JVM of a local deployment compiles its hot code at once; on a small
 * machine the full rate from the first second builds a backlog that the measured phase then
 * inherits. A ramp lets the compilers finish while the load is still light.
 *
 * <p>Thread-safe (immutable).
 */
public record RampedSchedule(long startNanos, double ratePerSecond, long rampNanos, double fromFraction,
                             long rampOperations, Schedule steady) {

    /**
     * A schedule of {@code totalNanos} whose first {@code rampNanos} ramp from {@code fromFraction}
     * of the rate to the full rate. {@code rampNanos} 0 is a plain constant-rate schedule.
     */
    public static RampedSchedule of(long startNanos, double ratePerSecond, long rampNanos, double fromFraction,
                                    long totalNanos) {
        if (!(ratePerSecond > 0)) {
            throw new IllegalArgumentException("rate must be positive, was " + ratePerSecond);
        }
        if (rampNanos < 0 || rampNanos > totalNanos) {
            throw new IllegalArgumentException("the ramp must lie within the schedule");
        }
        if (!(fromFraction > 0) || fromFraction > 1) {
            throw new IllegalArgumentException("the ramp starts at a fraction in (0, 1], was " + fromFraction);
        }
        long rampOperations = (long) Math.floor(ratePerSecond * (rampNanos / 1e9) * (1 + fromFraction) / 2);
        Schedule steady = Schedule.of(startNanos + rampNanos, ratePerSecond, totalNanos - rampNanos);
        return new RampedSchedule(startNanos, ratePerSecond, rampNanos, fromFraction, rampOperations, steady);
    }

    /** Operations in the whole schedule. */
    public long operations() {
        return rampOperations + steady.operations();
    }

    /**
     * When operation {@code i} (0-based) should start: during the ramp, the {@code t} at which
     * {@code r0·t + (r − r0)·t² / (2·W)} reaches {@code i}; afterwards the steady schedule's time.
     */
    public long intendedNanos(long i) {
        if (i >= rampOperations) {
            return steady.intendedNanos(i - rampOperations);
        }
        double w = rampNanos / 1e9;
        double b = fromFraction * ratePerSecond;
        double a = (ratePerSecond - b) / (2 * w);
        // the root of a·t² + b·t − i = 0 written without dividing by a (which is 0 for a flat ramp)
        double seconds = 2 * i / (b + Math.sqrt(b * b + 4 * a * i));
        return startNanos + Math.min(rampNanos, Math.round(seconds * 1e9));
    }

    /**
     * The intended rate per second at {@code nanos}: {@code fromFraction × rate} climbing linearly
     * to {@code rate} over the ramp, {@code rate} after it (and before the start, the ramp's first rate).
     * For a publisher that is told a rate instead of being handed each operation's time.
     */
    public double rateAt(long nanos) {
        if (rampNanos == 0 || nanos >= startNanos + rampNanos) {
            return ratePerSecond;
        }
        double progress = Math.max(0, nanos - startNanos) / (double) rampNanos;
        return ratePerSecond * (fromFraction + (1 - fromFraction) * progress);
    }

    public long endNanos() {
        return steady.endNanos();
    }
}
