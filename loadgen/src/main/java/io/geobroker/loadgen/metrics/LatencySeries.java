package io.geobroker.loadgen.metrics;

import org.HdrHistogram.Histogram;
import org.HdrHistogram.Recorder;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.LongAdder;

/**
 * One latency series: a lock-free HdrHistogram {@link Recorder} written by any thread, drained
 * once per interval into the run's total histogram and a time line of per-interval figures.
 * Values are microseconds, 1 µs to 1 hour at 3 significant digits; larger values are clamped to
 * the maximum (and counted) rather than lost.
 */
public final class LatencySeries {

    /** Highest trackable latency: one hour in microseconds. */
    public static final long MAX_MICROS = 3_600_000_000L;

    /** Figures of one interval of the time line. */
    public record Interval(long startMillis, long count, long p50Micros, long p99Micros, long maxMicros) {
    }

    private final SeriesKey key;
    private final Recorder recorder = new Recorder(MAX_MICROS, 3);
    private final Histogram total = new Histogram(MAX_MICROS, 3);
    private final List<Interval> timeline = new ArrayList<>();
    private final LongAdder errors = new LongAdder();
    private final LongAdder clamped = new LongAdder();
    private Histogram spare;

    public LatencySeries(SeriesKey key) {
        this.key = key;
    }

    public SeriesKey key() {
        return key;
    }

    public void record(long micros) {
        long value = Math.max(1, micros);
        if (value > MAX_MICROS) {
            clamped.increment();
            value = MAX_MICROS;
        }
        recorder.recordValue(value);
    }

    public void recordError() {
        errors.increment();
    }

    public long errors() {
        return errors.sum();
    }

    public long clamped() {
        return clamped.sum();
    }

    /** Moves what was recorded since the last call into the total and the time line (one thread only). */
    public synchronized Interval drain(long intervalStartMillis) {
        spare = recorder.getIntervalHistogram(spare);
        total.add(spare);
        Interval interval = new Interval(intervalStartMillis, spare.getTotalCount(),
                spare.getTotalCount() == 0 ? 0 : spare.getValueAtPercentile(50),
                spare.getTotalCount() == 0 ? 0 : spare.getValueAtPercentile(99),
                spare.getTotalCount() == 0 ? 0 : spare.getMaxValue());
        timeline.add(interval);
        return interval;
    }

    /** A copy of the total as of the last {@link #drain}. */
    public synchronized Histogram total() {
        return total.copy();
    }

    public synchronized List<Interval> timeline() {
        return List.copyOf(timeline);
    }
}
