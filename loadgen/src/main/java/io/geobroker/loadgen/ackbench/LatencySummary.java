package io.geobroker.loadgen.ackbench;

import org.HdrHistogram.Histogram;

/** Percentiles of a round's ack latencies, in microseconds. */
public record LatencySummary(long count, long p50, long p90, long p99, long p999, long max, double mean) {

    public static final LatencySummary EMPTY = new LatencySummary(0, 0, 0, 0, 0, 0, 0);

    /** A histogram for ack latencies in microseconds: 1 µs to 1 h at 3 significant digits. */
    public static Histogram histogram() {
        return new Histogram(1, 3_600_000_000L, 3);
    }

    public static LatencySummary of(Histogram h) {
        if (h.getTotalCount() == 0) {
            return EMPTY;
        }
        return new LatencySummary(h.getTotalCount(), h.getValueAtPercentile(50), h.getValueAtPercentile(90),
                h.getValueAtPercentile(99), h.getValueAtPercentile(99.9), h.getMaxValue(), h.getMean());
    }
}
