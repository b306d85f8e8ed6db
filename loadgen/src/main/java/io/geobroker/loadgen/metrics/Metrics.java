package io.geobroker.loadgen.metrics;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.atomic.LongAdder;

/**
 * All series and counters of one run. Writers record from any thread; one sampler thread calls
 * {@link #tick} once per interval. Recording is switched on only for the measured phase (after
 * the warm-up), so warm-up samples never reach the report.
 */
public final class Metrics {

    private final Map<SeriesKey, LatencySeries> series = new ConcurrentSkipListMap<>();
    private final Map<String, LongAdder> counters = new ConcurrentHashMap<>();
    private final Map<String, List<long[]>> counterTimeline = new ConcurrentSkipListMap<>();
    private final Map<String, Long> lastCounterValue = new ConcurrentHashMap<>();
    private volatile boolean measuring;

    public LatencySeries series(SeriesKey key) {
        return series.computeIfAbsent(key, LatencySeries::new);
    }

    public void startMeasuring() {
        measuring = true;
    }

    public void stopMeasuring() {
        measuring = false;
    }

    public boolean measuring() {
        return measuring;
    }

    /** The region and order type that stand for "every region" / "every order type". */
    public static final String ALL = "ALL";

    /**
     * Records a latency if the run is in its measured phase, into the series itself and into its
     * aggregates: the same kind and region over all order types, and over all regions.
     */
    public void record(SeriesKey key, long micros) {
        if (measuring) {
            recordMeasured(key, micros);
        }
    }

    public void recordError(SeriesKey key) {
        if (measuring) {
            recordMeasuredError(key);
        }
    }

    /**
     * Records a latency whatever the switch says, for an event the caller has placed in the measured
     * phase by its intended time (an order): the switch is flipped by another thread a moment after
     * the phase begins, and the phase's first orders are sent and may be answered within that moment.
     */
    public void recordMeasured(SeriesKey key, long micros) {
        for (SeriesKey k : withAggregates(key)) {
            series(k).record(micros);
        }
    }

    /** Records an error whatever the switch says; see {@link #recordMeasured}. */
    public void recordMeasuredError(SeriesKey key) {
        for (SeriesKey k : withAggregates(key)) {
            series(k).recordError();
        }
    }

    static List<SeriesKey> withAggregates(SeriesKey key) {
        List<SeriesKey> keys = new ArrayList<>(3);
        keys.add(key);
        if (!key.orderType().equals(ALL)) {
            keys.add(new SeriesKey(key.kind(), key.region(), ALL));
        }
        if (!key.region().equals(ALL)) {
            keys.add(new SeriesKey(key.kind(), ALL, ALL));
        }
        return keys;
    }

    /** Adds to a named counter (e.g. {@code fills/sydney}) if the run is in its measured phase. */
    public void count(String counter, long delta) {
        if (measuring) {
            countMeasured(counter, delta);
        }
    }

    /** Adds to a named counter whatever the switch says; see {@link #recordMeasured}. */
    public void countMeasured(String counter, long delta) {
        counters.computeIfAbsent(counter, c -> new LongAdder()).add(delta);
    }

    public long counter(String counter) {
        LongAdder adder = counters.get(counter);
        return adder == null ? 0 : adder.sum();
    }

    public Map<String, Long> counters() {
        Map<String, Long> copy = new java.util.TreeMap<>();
        counters.forEach((k, v) -> copy.put(k, v.sum()));
        return copy;
    }

    /** Drains every series into its time line and records each counter's increase (sampler thread only). */
    public synchronized void tick(long intervalStartMillis) {
        for (LatencySeries s : series.values()) {
            s.drain(intervalStartMillis);
        }
        counters.forEach((name, adder) -> {
            long now = adder.sum();
            long before = lastCounterValue.getOrDefault(name, 0L);
            lastCounterValue.put(name, now);
            counterTimeline.computeIfAbsent(name, n -> new ArrayList<>()).add(new long[] {intervalStartMillis, now - before});
        });
    }

    public List<LatencySeries> allSeries() {
        return List.copyOf(series.values());
    }

    /** Per-interval increases of each counter: {@code [intervalStartMillis, delta]}. */
    public synchronized Map<String, List<long[]>> counterTimeline() {
        Map<String, List<long[]>> copy = new java.util.TreeMap<>();
        counterTimeline.forEach((k, v) -> copy.put(k, List.copyOf(v)));
        return copy;
    }
}
