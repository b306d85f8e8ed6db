package io.geobroker.loadgen.report;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalDouble;

import static org.assertj.core.api.Assertions.assertThat;

public class ResourcesTest {

    private static final long MB = 1024 * 1024;

    /** A sample every 10 s of a 30-minute phase: {@code first} MB rising by {@code perMinute} MB a minute. */
    static List<long[]> rising(long firstMb, long perMinuteMb) {
        List<long[]> points = new ArrayList<>();
        for (long t = 0; t <= 1_800_000; t += 10_000) {
            points.add(new long[] {t, (firstMb + perMinuteMb * t / 60_000) * MB});
        }
        return points;
    }

    static Resources soak() {
        return new Resources(10_000, List.of(
                new Resources.Series("rss-bytes", "broker sydney", rising(600, 4)),
                new Resources.Series("heap-after-gc-bytes", "broker sydney", rising(50, 0)),
                new Resources.Series("consumer-lag-records", "broker sydney",
                        List.of(new long[] {0, 3}, new long[] {10_000, 5}, new long[] {1_790_000, 40}, new long[] {1_800_000, 44})),
                new Resources.Series("pending-compactions", "SydneyDC 127.30.1.1", List.of(new long[] {0, 0}))));
    }

    @Test
    void compares_the_medians_of_the_first_and_the_last_five_minutes_of_a_long_phase() {
        List<Resources.Change> changes = soak().changes(1_800_000);

        Resources.Change rss = changes.get(0);
        assertThat(rss.windowMillis()).isEqualTo(300_000);
        // samples at 0..290 s: the median is at 145 s, 600 + 4 x 145/60 MB, whole MB each
        assertThat(rss.first().getAsDouble() / MB).isBetween(609.0, 610.0);
        assertThat(rss.last().getAsDouble() / MB).isBetween(709.0, 710.0);
        assertThat(changes.get(1).first()).isEqualTo(changes.get(1).last());
        assertThat(changes.get(2).first()).hasValue(4.0);
        assertThat(changes.get(2).last()).hasValue(42.0);
        // one sample at the start only: nothing to compare it with at the end
        assertThat(changes.get(3).last()).isEmpty();
    }

    @Test
    void a_phase_shorter_than_ten_minutes_compares_its_halves() {
        Resources r = new Resources(10_000, List.of(new Resources.Series("consumer-lag-records", "broker nvirginia",
                List.of(new long[] {0, 1}, new long[] {10_000, 3}, new long[] {20_000, 5}, new long[] {30_000, 100},
                        new long[] {40_000, 200}, new long[] {50_000, 300}, new long[] {60_000, 400}))));

        Resources.Change lag = r.changes(60_000).get(0);

        assertThat(lag.windowMillis()).isEqualTo(30_000);
        assertThat(lag.first()).hasValue(3.0);
        // the last half starts at 30 s: 100, 200, 300, 400
        assertThat(lag.last()).hasValue(250.0);
    }

    @Test
    void the_median_of_an_even_count_is_the_mean_of_the_middle_two() {
        assertThat(Resources.median(List.of(new long[] {0, 7}, new long[] {1, 1}, new long[] {2, 3}, new long[] {3, 100}), 0, 4))
                .hasValue(5.0);
        assertThat(Resources.median(List.of(new long[] {5, 7}), 0, 5)).isEqualTo(OptionalDouble.empty());
    }

    @Test
    void the_summary_gives_a_line_per_quantity_in_its_unit() {
        List<String> lines = soak().summary(1_800_000);

        assertThat(lines).hasSize(4);
        assertThat(lines.get(0)).startsWith("Resident memory (VmRSS) per process (MB), median of the first → last 5 min: ")
                .contains("broker sydney 610 → 710");
        assertThat(lines.get(1)).contains("broker sydney 50 → 50");
        assertThat(lines.get(2)).contains("broker sydney 4 → 42");
        assertThat(lines.get(3)).contains("SydneyDC 127.30.1.1 0 → —");
    }

    @Test
    void a_failed_sample_breaks_the_line_instead_of_bridging_it() {
        Resources r = new Resources(10_000, List.of(new Resources.Series("rss-bytes", "kafka-sydney",
                List.of(new long[] {0, 100 * MB}, new long[] {10_000, 110 * MB}, new long[] {40_000, 120 * MB},
                        new long[] {50_500, 130 * MB}))));

        List<io.geobroker.loadgen.report.Svg.Series> lines = r.lines(Resources.Quantity.RSS);

        assertThat(lines).hasSize(1);
        assertThat(lines.get(0).name()).isEqualTo("kafka-sydney");
        assertThat(lines.get(0).xs()).containsExactly(0.0, 10.0, 25.0, 40.0, 50.5);
        assertThat(lines.get(0).ys()).containsExactly(100.0, 110.0, Double.NaN, 120.0, 130.0);
        assertThat(r.lines(Resources.Quantity.PENDING_HINTS)).isEmpty();
    }

    @Test
    void the_live_heap_read_at_the_phases_edges_is_one_line_from_start_to_end() {
        Resources r = new Resources(10_000, List.of(new Resources.Series("live-heap-bytes", "broker sydney",
                List.of(new long[] {0, 60 * MB}, new long[] {1_800_000, 90 * MB}))));

        List<io.geobroker.loadgen.report.Svg.Series> lines = r.lines(Resources.Quantity.LIVE_HEAP);

        assertThat(lines.get(0).xs()).containsExactly(0.0, 1800.0);
        assertThat(lines.get(0).ys()).containsExactly(60.0, 90.0);
        assertThat(r.changes(1_800_000).get(0).first()).hasValue(60.0 * MB);
        assertThat(r.changes(1_800_000).get(0).last()).hasValue(90.0 * MB);
    }

    @Test
    void a_nan_point_splits_a_chart_line_into_two_polylines_of_one_series() {
        String chart = Svg.timeChart("t", "MB", List.of(new Svg.Series("kafka-sydney", new double[] {0, 10, 25, 40},
                new double[] {100, 110, Double.NaN, 120})), 40);

        assertThat(chart.split("data-series='kafka-sydney'", -1).length - 1).isEqualTo(2);
        assertThat(chart).doesNotContain("NaN");
    }

    @Test
    void the_report_carries_them_in_json_console_and_html(@TempDir Path dir) throws Exception {
        RunReport report = ReportWriterTest.sample().withResources(soak());

        ReportWriter.Written files = ReportWriter.writeAll(report, dir);

        Resources back = ReportWriter.readJson(files.json()).resources();
        assertThat(back.intervalMillis()).isEqualTo(10_000);
        assertThat(back.series()).extracting(Resources.Series::quantity, Resources.Series::source)
                .containsExactlyElementsOf(soak().series().stream()
                        .map(s -> org.assertj.core.groups.Tuple.tuple(s.quantity(), s.source())).toList());
        assertThat(back.series().get(2).points()).containsExactly(new long[] {0, 3}, new long[] {10_000, 5},
                new long[] {1_790_000, 40}, new long[] {1_800_000, 44});
        assertThat(ReportWriter.console(report)).contains("resources: Consumer lag per broker");
        String html = Files.readString(files.html());
        assertThat(html).contains("<h2>Resources over the measured phase (sampled every 10 s)</h2>",
                "Heap used after the last GC per JVM", "<td class='l'>SydneyDC 127.30.1.1</td>");
        // one chart per quantity sampled, next to the sample report's eight
        assertThat(html.split("<svg", -1).length - 1).isEqualTo(8 + 4);
    }

    @Test
    void a_report_without_them_has_no_key_and_reads_back_without_them(@TempDir Path dir) throws Exception {
        RunReport report = ReportWriterTest.sample();

        assertThat(ReportWriter.json(report)).doesNotContain("resources");
        assertThat(ReportWriter.html(report)).doesNotContain("Resources over");
        assertThat(ReportWriter.readJson(ReportWriter.writeAll(report, dir).json()).resources()).isNull();
    }
}
