package io.geobroker.loadgen.ackbench;

import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

class AckBenchReportTest {

    static AckBenchReport sample() {
        Histogram h = LatencySummary.histogram();
        for (long v = 1_000; v <= 20_000; v += 10) {
            h.recordValue(v);
        }
        RoundResult five = new RoundResult(5, 1_000, 4_990, 4, 6, Map.of("rejected: no cash", 4L, "error: timeout", 6L),
                0, 1_250_000_000L, LatencySummary.of(h), "1.90 of 2 cores in all: brokers 0.80, Cassandra 1.10");
        RoundResult seven = new RoundResult(7, 1_000, 7_000, 0, 0, Map.of(), -1, 2_000_000_000L, LatencySummary.of(h), "");
        return new AckBenchReport("2026-11-25T23:00:00Z", "fix", "nvirginia", 1_000, Map.of("machine", "2 cores"),
                List.of(five, seven));
    }

    @Test
    void percentiles_come_from_the_histogram() {
        Histogram h = LatencySummary.histogram();
        for (long v = 1; v <= 100_000; v++) {
            h.recordValue(v);
        }
        LatencySummary s = LatencySummary.of(h);
        assertThat(s.count()).isEqualTo(100_000);
        assertThat((double) s.p50()).isCloseTo(50_000, within(50.0));
        assertThat((double) s.p90()).isCloseTo(90_000, within(90.0));
        assertThat((double) s.p99()).isCloseTo(99_000, within(99.0));
        assertThat((double) s.p999()).isCloseTo(99_900, within(100.0));
        assertThat((double) s.max()).isCloseTo(100_000, within(100.0));
        assertThat(LatencySummary.of(LatencySummary.histogram())).isEqualTo(LatencySummary.EMPTY);
    }

    @Test
    void the_table_has_a_row_per_round_with_the_reference_where_there_is_one() {
        AckBenchReport report = sample();
        String console = report.console();
        RoundResult five = report.rounds().get(0);
        String fiveRow = console.lines().filter(l -> l.trim().startsWith("5 ")).findFirst().orElseThrow();
        assertThat(fiveRow).contains(String.format(Locale.ROOT, "%,.0f", five.ordersPerSecond()))
                .contains(AckBenchReport.millis(five.latency().p50()))
                .contains(AckBenchReport.millis(five.latency().p99()))
                .contains(AckBenchReport.seconds(five.wallNanos()));
        AckBenchReport.Reference ref = AckBenchReport.reference(5).orElseThrow();
        assertThat(fiveRow).contains(String.format(Locale.ROOT, "%,.0f/s", ref.ordersPerSecond()));
        String sevenRow = console.lines().filter(l -> l.trim().startsWith("7 ")).findFirst().orElseThrow();
        assertThat(sevenRow).contains("n.a.").endsWith("-");
        assertThat(console).contains("CPU, 5 clients: " + five.cpu()).doesNotContain("CPU, 7 clients")
                .contains("Rejects and errors, 5 clients: 6 error: timeout, 4 rejected: no cash");
        assertThat(report.markdown().lines().filter(l -> l.startsWith("| ")).count()).as("header and two rounds").isEqualTo(3);
    }

    @Test
    void the_mock_exchanges_figures_are_those_of_the_issue() {
        assertThat(AckBenchReport.MOCK_EXCHANGE).extracting(AckBenchReport.Reference::clients).containsExactly(5, 25, 250);
        for (AckBenchReport.Reference r : AckBenchReport.MOCK_EXCHANGE) {
            assertThat(r.ordersPerSecond()).as("issue 28: about 49-55 k orders/s").isBetween(49_000.0, 55_000.0);
        }
    }

    @Test
    void json_round_trips_and_is_written_beside_markdown(@TempDir Path dir) throws Exception {
        AckBenchReport report = sample();
        assertThat(AckBenchReport.fromJson(report.json())).isEqualTo(report);
        AckBenchReport.Written files = report.write(dir);
        assertThat(files.json().getFileName().toString()).isEqualTo("ack-bench-fix.json");
        assertThat(AckBenchReport.fromJson(Files.readString(files.json()))).isEqualTo(report);
        assertThat(Files.readString(files.markdown())).contains("| 5 |");
    }
}
