package io.geobroker.loadgen.report;

import org.junit.jupiter.api.Test;

import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class MarkdownRowTest {

    private static List<String> cells(String row) {
        assertThat(row).startsWith("| ").endsWith(" |");
        return Arrays.stream(row.substring(2, row.length() - 2).split(" \\| ")).toList();
    }

    private static RunReport.SeriesSummary series(RunReport report, String name) {
        return report.series().stream().filter(s -> s.name().equals(name)).findFirst().orElseThrow();
    }

    @Test
    void a_row_has_a_cell_for_every_column_of_the_header_with_the_reports_own_figures() {
        RunReport report = ReportWriterTest.sample();

        List<String> cells = cells(MarkdownRow.row("run-1", report));

        int columns = MarkdownRow.header().lines().findFirst().orElseThrow().split(" \\| ").length;
        assertThat(cells).hasSize(columns);
        assertThat(cells.subList(0, 5)).containsExactly("run-1", "default", "300", "297", "3");
        RunReport.SeriesSummary fill = series(report, "ticker-to-fill/ALL/ALL");
        assertThat(cells.get(5)).isEqualTo(String.format(java.util.Locale.ROOT, "%.1f / %.1f / %.1f",
                fill.p50Micros() / 1000.0, fill.p99Micros() / 1000.0, fill.maxMicros() / 1000.0));
        assertThat(cells.get(6)).isEqualTo(String.format(java.util.Locale.ROOT, "%.1f",
                series(report, "order-placement/ALL/ALL").p99Micros() / 1000.0));
        assertThat(cells.get(7)).isEqualTo(String.format(java.util.Locale.ROOT, "%.1f",
                Math.round(series(report, "cross-region-market/ALL/ALL").meanMicros()) / 1000.0));
        assertThat(cells.get(8)).as("no CPU line in the report").isEqualTo("—");
        assertThat(cells.get(9)).as("no load average either").isEqualTo("—");
    }

    @Test
    void the_cpu_line_is_shortened_and_a_label_cannot_break_the_table() {
        RunReport sample = ReportWriterTest.sample();
        Map<String, String> conditions = new HashMap<>(sample.conditions());
        conditions.put(MarkdownRow.CPU, "1.98 of 2 cores in all: Cassandra 0.79, Kafka 0.35");
        conditions.put(MarkdownRow.OFFERED, "150 new orders/s, 300 tickers/s (scale 0.5)");
        conditions.put(MarkdownRow.LOAD_AT_START, "3.8");
        RunReport report = new RunReport(sample.schema(), sample.title(), sample.scenario(), sample.startedAt(),
                conditions, sample.measuredMillis(), sample.regions(), sample.series(), sample.throughput(), sample.sweep(), null, null);

        List<String> cells = cells(MarkdownRow.row("a|b", report));

        assertThat(cells.get(0)).isEqualTo("a/b");
        assertThat(cells.get(1)).isEqualTo("default (150 new orders/s, 300 tickers/s (scale 0.5))");
        assertThat(cells.get(8)).isEqualTo("1.98: Cassandra 0.79, Kafka 0.35");
        assertThat(cells.get(9)).isEqualTo("3.8");
    }
}
