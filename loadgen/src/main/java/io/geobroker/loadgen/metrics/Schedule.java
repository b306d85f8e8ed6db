package io.geobroker.loadgen.metrics;

import java.math.BigInteger;

/**
 * A constant-rate, open-loop schedule: operation {@code i} is <em>intended</em> to start at
 * {@code start + i / rate}, whatever happened to earlier operations. Latency is measured from the
 * intended time, so a stalled system is charged for the whole time the schedule was held up, not
 * just for the requests that were in flight (no coordinated omission). Pure arithmetic on a
 * {@link System#nanoTime()} origin; thread-safe (immutable).
 */
public record Schedule(long startNanos, long ratePerSecondMilli, long operations) {

    private static final BigInteger NANOS_SECOND_MILLI = BigInteger.valueOf(1_000_000_000_000L);

    public Schedule {
        if (ratePerSecondMilli <= 0) {
            throw new IllegalArgumentException("rate must be positive");
        }
        if (operations < 0) {
            throw new IllegalArgumentException("operations must not be negative");
        }
    }

    /** A schedule of {@code ratePerSecond} operations a second (to 1/1000) for {@code durationNanos}. */
    public static Schedule of(long startNanos, double ratePerSecond, long durationNanos) {
        long milli = Math.round(ratePerSecond * 1000);
        if (milli <= 0) {
            throw new IllegalArgumentException("rate must be positive, was " + ratePerSecond);
        }
        BigInteger ops = BigInteger.valueOf(durationNanos).multiply(BigInteger.valueOf(milli)).divide(NANOS_SECOND_MILLI);
        return new Schedule(startNanos, milli, ops.longValueExact());
    }

    /** When operation {@code i} (0-based) should start. */
    public long intendedNanos(long i) {
        return startNanos + BigInteger.valueOf(i).multiply(NANOS_SECOND_MILLI)
                .divide(BigInteger.valueOf(ratePerSecondMilli)).longValueExact();
    }

    /** How many operations are due by {@code nowNanos} (their intended time is at or before it). */
    public long dueBy(long nowNanos) {
        if (nowNanos < startNanos) {
            return 0;
        }
        long due = BigInteger.valueOf(nowNanos - startNanos).multiply(BigInteger.valueOf(ratePerSecondMilli))
                .divide(NANOS_SECOND_MILLI).longValueExact() + 1;
        return Math.min(due, operations);
    }

    public long endNanos() {
        return intendedNanos(operations);
    }
}
