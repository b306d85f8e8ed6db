package io.geobroker.loadgen.metrics;

import org.HdrHistogram.ConcurrentHistogram;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.Recorder;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.LongAdder;

/**
 * One latency series, written by any thread without locks: every value goes into the run's total
 * (microseconds, 1 µs to 1 hour at 3 significant digits) and into an interval {@link Recorder}
 * that is drained once per interval into a time line of per-interval figures (2 significant
 * digits: 1 % is enough for a chart, and a pass over the smaller histogram costs a seventh).
 * Values above an hour are clamped to it (and counted) rather than lost.
 */
public final class LatencySeries {

    /** Highest trackable latency: one hour in microseconds. */
    public static final long MAX_MICROS = 3_600_000_000L;

    /** Figures of one interval of the time line. */
    public record Interval(long startMillis, long count, long p50Micros, long p99Micros, long maxMicros) {
    }

    private final SeriesKey key;
    private final Recorder recorder = new Recorder(MAX_MICROS, 2);
    private final ConcurrentHistogram total = new ConcurrentHistogram(MAX_MICROS, 3);
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
        total.recordValue(value);
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

    /** Adds what was recorded since the last call to the time line (one thread only). */
    public synchronized Interval drain(long intervalStartMillis) {
        spare = recorder.getIntervalHistogram(spare);
        Interval interval = new Interval(intervalStartMillis, spare.getTotalCount(),
                spare.getTotalCount() == 0 ? 0 : spare.getValueAtPercentile(50),
                spare.getTotalCount() == 0 ? 0 : spare.getValueAtPercentile(99),
                spare.getTotalCount() == 0 ? 0 : spare.getMaxValue());
        timeline.add(interval);
        return interval;
    }

    /** A copy of everything recorded so far. */
    public Histogram total() {
        return total.copy();
    }

    public synchronized List<Interval> timeline() {
        return List.copyOf(timeline);
    }
}
