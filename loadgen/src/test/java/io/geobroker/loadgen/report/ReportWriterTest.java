package io.geobroker.loadgen.report;

import io.geobroker.loadgen.metrics.Metrics;
import io.geobroker.loadgen.metrics.SeriesKey;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

public class ReportWriterTest {

    public static RunReport sample() {
        Metrics metrics = new Metrics();
        metrics.startMeasuring();
        for (int second = 0; second < 3; second++) {
            for (int i = 1; i <= 50; i++) {
                metrics.record(new SeriesKey(SeriesKey.Kind.TICKER_TO_FILL, "sydney", "LIMIT"), 500L + i * 10);
                metrics.record(new SeriesKey(SeriesKey.Kind.TICKER_TO_FILL, "nvirginia", "STOP"), 800L + i * 20);
                metrics.record(new SeriesKey(SeriesKey.Kind.PLACEMENT, "sydney", "LIMIT"), 2_000L + i);
                metrics.record(new SeriesKey(SeriesKey.Kind.CROSS_REGION_MARKET, "sydney", "MARKET"), 240_000L + i);
                metrics.record(new SeriesKey(SeriesKey.Kind.MARKET_QUOTE_AGE, "nvirginia", "MARKET"), 150_000L + i);
            }
            metrics.count(RunReport.FILLS + "/sydney", 50);
            metrics.count(RunReport.FILLS + "/nvirginia", 50);
            metrics.count(RunReport.ORDERS_SENT + "/sydney", 100);
            metrics.count(RunReport.ORDERS_ACCEPTED + "/sydney", 99);
            metrics.count(RunReport.ORDERS_ERRORS + "/sydney", 1);
            metrics.recordError(new SeriesKey(SeriesKey.Kind.PLACEMENT, "sydney", "LIMIT"));
            metrics.tick(second * 1000L);
        }
        return RunReport.from(metrics, "geobroker load report", "default", "2026-11-22T14:00:00Z",
                Map.of("machine", "2 cores"), 3_000,
                List.of(new RunReport.SweepStep(300, 600, 200, 100, 900, 4_000, 9_000, 0),
                        new RunReport.SweepStep(600, 1200, 400, 100, 1_200, 8_000, 20_000, 0)));
    }

    @Test
    void summarises_counts_percentiles_and_throughput() {
        RunReport report = sample();

        RunReport.SeriesSummary all = report.series().stream()
                .filter(s -> s.name().equals("ticker-to-fill/ALL/ALL")).findFirst().orElseThrow();
        assertThat(all.count()).isEqualTo(300);
        assertThat(all.throughputPerSecond()).isEqualTo(100.0);
        assertThat(all.p50Micros()).isLessThanOrEqualTo(all.p90Micros());
        assertThat(all.p99Micros()).isLessThanOrEqualTo(all.maxMicros());
        assertThat(all.maxMicros()).isBetween(1_799L, 1_801L);
        assertThat(all.timeline()).hasSize(3);
        assertThat(all.distribution()).isNotEmpty();
        assertThat(report.regions()).extracting(RunReport.RegionSummary::region).containsExactly("nvirginia", "sydney");
        assertThat(report.regions().get(1).errors()).isEqualTo(3);
    }

    @Test
    void console_summary_lists_every_series_with_its_percentiles_and_errors() {
        String console = ReportWriter.console(sample());

        assertThat(console).contains("p50", "p90", "p99", "p99.9", "max", "avg", "errors", "per s")
                .contains("ticker-to-fill/ALL/ALL", "order-placement/sydney/LIMIT", "cross-region-market/sydney/MARKET")
                .contains("sweep:");
        assertThat(console.indexOf("ticker-to-fill/ALL")).isLessThan(console.indexOf("order-placement/ALL"));
        // market orders' quote age is reported, after the latencies and apart from ticker-to-fill
        assertThat(console.indexOf("cross-region-market/ALL")).isLessThan(console.indexOf("market-fill-quote-age/ALL/ALL"));
    }

    @Test
    void console_summary_totals_the_rejections_by_reason_and_region() {
        Metrics metrics = new Metrics();
        metrics.countMeasured(RunReport.ORDER_REJECT_REASON + "insufficient USD/sydney", 2);
        metrics.tick(0);
        metrics.countMeasured(RunReport.ORDER_REJECT_REASON + "insufficient USD/sydney", 3);
        metrics.countMeasured(RunReport.ORDER_REJECT_REASON + "http-422 Price off tick/nvirginia", 1);
        metrics.tick(1_000);
        RunReport report = RunReport.from(metrics, "t", "default", "2026-11-27T09:00:00Z", Map.of(), 2_000, List.of());

        assertThat(ReportWriter.console(report))
                .contains("orders rejected by reason and region: {http-422 Price off tick/nvirginia=1, insufficient USD/sydney=5}");
        assertThat(ReportWriter.console(sample())).doesNotContain("orders rejected by reason");
    }

    @Test
    void html_is_self_contained_with_the_three_kinds_of_chart() {
        String html = ReportWriter.html(sample());

        assertThat(html).startsWith("<!DOCTYPE html>").doesNotContain("<script").doesNotContain("src=")
                .doesNotContain("href=").doesNotContain("@import");
        assertThat(html).contains("latency over time", "percentile distribution", "Throughput over time",
                "Sweep: latency against offered load", "Cross-region market orders");
        assertThat(html.split("<svg", -1).length - 1).isEqualTo(8);
        assertThat(html).contains("data-series='sydney p99'", "data-series='sydney LIMIT'", "data-series='fills/sydney per s'");
        assertThat(html).contains("<td class='l'>ticker-to-fill/ALL/ALL</td><td>300</td>");
    }

    @Test
    void json_round_trips_and_csv_has_one_row_per_series(@TempDir Path dir) throws Exception {
        RunReport report = sample();
        ReportWriter.Written files = ReportWriter.writeAll(report, dir);

        RunReport back = ReportWriter.readJson(files.json());
        assertThat(back.series()).hasSameSizeAs(report.series());
        assertThat(back.regions()).isEqualTo(report.regions());
        assertThat(back.sweep()).isEqualTo(report.sweep());
        assertThat(Files.readAllLines(files.csv())).hasSize(1 + report.series().size())
                .first().asString().startsWith("series,kind,region,order_type,count,errors,per_second,p50_us");
        assertThat(Files.readString(files.timelineCsv())).contains("ticker-to-fill/ALL/ALL,2000,100,");
        assertThat(Files.readString(files.html())).contains("<svg");
    }

    @Test
    void a_chaos_run_shows_its_faults_and_invariants_everywhere_and_round_trips(@TempDir Path dir) throws Exception {
        ChaosReport chaos = new ChaosReport(List.of(new ChaosReport.Fault("broker", "sydney", "SIGKILL broker sydney",
                1_000, 1_100, 13_400, "ready")), List.of(new ChaosReport.Invariant("books balanced", true, "cash", "0 off"),
                new ChaosReport.Invariant("no fill missing", false, "fills", "1 short")), -1, 60_000, List.of("the WAN was off"));
        RunReport report = sample().withChaos(chaos);

        assertThat(ReportWriter.console(report)).contains("| broker | sydney | SIGKILL broker sydney | 1.0 | 1.1 | 13.4 | 12.3 s |")
                .contains("| books balanced | yes | 0 off | cash |").contains("| no fill missing | **NO** | 1 short | fills |")
                .contains("Note: the WAN was off").contains("FAILED");
        assertThat(ReportWriter.html(report)).contains("<h2>Invariants</h2>").contains("<b>NO</b>");
        ReportWriter.Written files = ReportWriter.writeAll(report, dir);
        assertThat(ReportWriter.readJson(files.json()).chaos()).isEqualTo(chaos);
        assertThat(dir.resolve("chaos.md")).content().contains("| books balanced | yes |");
        assertThat(ReportWriter.json(sample())).doesNotContain("chaos");
        assertThat(chaos.passed()).isFalse();
    }

    @Test
    void rejects_a_file_that_is_not_a_report(@TempDir Path dir) throws Exception {
        Path other = dir.resolve("x.json");
        Files.writeString(other, "{\"schema\":\"something-else\"}");
        assertThatThrownBy(() -> ReportWriter.readJson(other)).hasMessageContaining("not a loadgen report");
        assertThatThrownBy(() -> ReportWriter.readJson(dir.resolve("missing.json"))).hasMessageContaining("cannot read");
    }

    @Test
    void the_throughput_line_covers_the_seconds_of_the_phase_and_not_the_drain_after_it() {
        // 100 accepted in each of three seconds, then 1,690 answered or counted in the 13 s drain
        List<long[]> accepted = List.of(new long[] {0, 100}, new long[] {1_000, 100}, new long[] {2_000, 100},
                new long[] {3_000, 1_690});

        Svg.Series line = ReportWriter.perSecond("orders.accepted/sydney per s", accepted, 3_000);

        assertThat(line.xs()).containsExactly(0.0, 1.0, 2.0);
        assertThat(line.ys()).containsExactly(100.0, 100.0, 100.0);
    }

    @Test
    void a_last_second_cut_short_by_the_end_of_the_phase_is_rated_over_what_it_lasted() {
        Svg.Series line = ReportWriter.perSecond("fills/sydney per s", List.of(new long[] {0, 100}, new long[] {1_000, 25}), 1_500);

        assertThat(line.ys()).containsExactly(100.0, 50.0);
    }

    @Test
    void a_time_chart_spans_the_whole_phase_though_its_last_point_is_the_start_of_the_last_second() {
        double[] seconds = IntStream.range(0, 60).asDoubleStream().toArray();
        double[] rates = IntStream.range(0, 60).mapToDouble(i -> 1_000).toArray();

        String chart = Svg.timeChart("Throughput over time", "per second", List.of(new Svg.Series("fills", seconds, rates)), 60);

        assertThat(chart).contains(">0</text>", ">12</text>", ">36</text>", ">60</text>")
                .doesNotContain(">47</text>", ">59</text>");
    }

    @Test
    void percentile_axis_labels_read_as_percentiles() {
        assertThat(ReportWriter.percentileLabel(10)).isEqualTo("90%");
        assertThat(ReportWriter.percentileLabel(1000)).isEqualTo("99.9%");
    }
}
