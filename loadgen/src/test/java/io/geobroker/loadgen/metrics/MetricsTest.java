package io.geobroker.loadgen.metrics;

import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class MetricsTest {

    private final Metrics metrics = new Metrics();

    @Test
    void drops_samples_outside_the_measured_phase() {
        SeriesKey key = new SeriesKey(SeriesKey.Kind.TICKER_TO_FILL, "sydney", "LIMIT");
        metrics.record(key, 5_000);
        metrics.count("fills/sydney", 1);
        metrics.startMeasuring();
        metrics.record(key, 700);
        metrics.stopMeasuring();
        metrics.record(key, 9_000);
        metrics.tick(0);

        assertThat(metrics.series(key).total().getTotalCount()).isEqualTo(1);
        assertThat(metrics.counter("fills/sydney")).isZero();
    }

    @Test
    void aggregates_per_region_and_over_all_regions() {
        metrics.startMeasuring();
        for (int i = 1; i <= 100; i++) {
            metrics.record(new SeriesKey(SeriesKey.Kind.TICKER_TO_FILL, "sydney", "LIMIT"), i * 10L);
            metrics.record(new SeriesKey(SeriesKey.Kind.TICKER_TO_FILL, "sydney", "STOP"), i * 20L);
            metrics.record(new SeriesKey(SeriesKey.Kind.TICKER_TO_FILL, "nvirginia", "LIMIT"), i * 1_000L);
        }
        metrics.recordError(new SeriesKey(SeriesKey.Kind.PLACEMENT, "sydney", "MARKET"));
        metrics.tick(0);

        Histogram sydney = metrics.series(new SeriesKey(SeriesKey.Kind.TICKER_TO_FILL, "sydney", Metrics.ALL)).total();
        Histogram all = metrics.series(new SeriesKey(SeriesKey.Kind.TICKER_TO_FILL, Metrics.ALL, Metrics.ALL)).total();
        assertThat(sydney.getTotalCount()).isEqualTo(200);
        assertThat(sydney.getMaxValue()).isBetween(1_999L, 2_001L);
        assertThat(all.getTotalCount()).isEqualTo(300);
        assertThat(all.getMaxValue()).isBetween(99_950L, 100_050L);
        assertThat(all.getValueAtPercentile(50)).isBetween(1_000L, 2_001L);
        assertThat(metrics.series(new SeriesKey(SeriesKey.Kind.PLACEMENT, Metrics.ALL, Metrics.ALL)).errors()).isEqualTo(1);
    }

    @Test
    void each_tick_adds_an_interval_to_the_time_line_and_keeps_the_total() {
        SeriesKey key = new SeriesKey(SeriesKey.Kind.PLACEMENT, "sydney", "LIMIT");
        metrics.startMeasuring();
        metrics.record(key, 1_000);
        metrics.record(key, 3_000);
        metrics.count("orders.accepted/sydney", 2);
        metrics.tick(0);
        metrics.record(key, 50_000);
        metrics.count("orders.accepted/sydney", 1);
        metrics.tick(1_000);

        LatencySeries series = metrics.series(key);
        assertThat(series.timeline()).hasSize(2);
        assertThat(series.timeline().get(0).count()).isEqualTo(2);
        // the time line has 2 significant digits, the total 3
        assertThat(series.timeline().get(1).maxMicros()).isBetween(49_500L, 50_500L);
        assertThat(series.total().getTotalCount()).isEqualTo(3);
        assertThat(series.total().getMaxValue()).isBetween(49_950L, 50_050L);
        assertThat(metrics.counterTimeline().get("orders.accepted/sydney"))
                .extracting(p -> p[1]).containsExactly(2L, 1L);
    }

    @Test
    void clamps_values_beyond_an_hour_instead_of_losing_them() {
        SeriesKey key = new SeriesKey(SeriesKey.Kind.PLACEMENT, "sydney", "LIMIT");
        LatencySeries series = metrics.series(key);
        series.record(LatencySeries.MAX_MICROS * 2);
        series.drain(0);

        assertThat(series.total().getTotalCount()).isEqualTo(1);
        assertThat(series.clamped()).isEqualTo(1);
    }
}
