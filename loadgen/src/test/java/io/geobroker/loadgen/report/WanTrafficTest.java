package io.geobroker.loadgen.report;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class WanTrafficTest {

    @Test
    void the_traffic_of_a_phase_is_the_second_reading_less_the_first() {
        Map<String, Long> carried = WanTraffic.between(Map.of("a->b", 1_000L, "b->a", 500L),
                Map.of("a->b", 4_000L, "b->a", 2_500L, "a->c", 70L));

        assertThat(carried).containsExactlyInAnyOrderEntriesOf(Map.of("a->b", 3_000L, "b->a", 2_000L, "a->c", 70L));
    }

    @Test
    void bytes_per_fill_count_both_directions_and_sit_beside_the_calculators_assumption() {
        Map<String, String> conditions = WanTraffic.conditions(Map.of("sydney->nvirginia", 3_000_000L,
                "nvirginia->sydney", 1_000_000L), 3_000, 814);

        assertThat(conditions.get(WanTraffic.PER_FILL)).isEqualTo("1333");
        assertThat(conditions.get(WanTraffic.TRAFFIC)).isEqualTo("nvirginia->sydney 1.0 MB, sydney->nvirginia 3.0 MB; "
                + "1,333 bytes per fill both ways together (3,000 fills; the cost calculator assumes 814 bytes "
                + "replicated per trade)");
    }

    @Test
    void without_fills_there_is_no_figure_per_fill() {
        Map<String, String> conditions = WanTraffic.conditions(Map.of("a->b", 10L), 0, 814);

        assertThat(conditions).containsOnlyKeys(WanTraffic.TRAFFIC, WanTraffic.TOTAL);
        assertThat(conditions.get(WanTraffic.TOTAL)).isEqualTo("10");
        RunReport report = new RunReport(RunReport.SCHEMA, "t", "default", "2026-11-25T20:00:00Z", conditions, 1_000,
                List.of(), List.of(), Map.of(), List.of(), null, null);
        assertThat(WanTraffic.perFill(report)).isEmpty();
    }

    @Test
    void the_measured_bytes_sit_beside_the_replication_models_prediction() {
        Map<String, String> conditions = WanTraffic.predicted(3_300_000, 3_000_000, "the model", 60_000, 1_000, 4_000);

        assertThat(conditions.get(WanTraffic.PREDICTED)).isEqualTo("measured 3,300 bytes per fill, predicted 3,000 "
                + "(measured +10.0 %) from 1,000 fills and 4,000 mutations in 60 s (the model)");
        assertThat(WanTraffic.predicted(5, 5, "m", 60_000, 0, 3)).isEmpty();
        RunReport report = new RunReport(RunReport.SCHEMA, "t", "default", "2026-11-25T20:00:00Z",
                Map.of(WanTraffic.MUTATIONS, "4000", WanTraffic.NODES_PER_DC, " 3"), 60_000,
                List.of(), List.of(), Map.of(), List.of(), null, null);
        assertThat(WanTraffic.mutations(report)).hasValue(4_000);
        assertThat(WanTraffic.number(report.conditions(), WanTraffic.NODES_PER_DC)).hasValue(3);
        assertThat(WanTraffic.deviationPercent(2_700, 3_000)).isEqualTo(-10.0);
        RunReport older = new RunReport(RunReport.SCHEMA, "t", "default", "2026-11-25T20:00:00Z",
                Map.of(WanTraffic.MUTATIONS_BEFORE_V014, "3500"), 60_000, List.of(), List.of(), Map.of(), List.of(), null, null);
        assertThat(WanTraffic.mutations(older)).as("a report of before V014: every mutation was replicated").hasValue(3_500);
    }

    @Test
    void a_reports_total_is_its_own_or_its_bytes_per_fill_times_its_fills() {
        RunReport total = new RunReport(RunReport.SCHEMA, "t", "default", "2026-11-25T20:00:00Z",
                Map.of(WanTraffic.TOTAL, "123456", WanTraffic.PER_FILL, "1"), 60_000, List.of(), List.of(), Map.of(), List.of(), null, null);
        RunReport older = new RunReport(RunReport.SCHEMA, "t", "default", "2026-11-25T20:00:00Z",
                Map.of(WanTraffic.PER_FILL, "3000"), 60_000, List.of(), List.of(), Map.of(), List.of(), null, null);

        assertThat(WanTraffic.total(total, 10)).hasValue(123_456L);
        assertThat(WanTraffic.total(older, 10)).hasValue(30_000L);
        assertThat(WanTraffic.mutations(older)).isEmpty();
    }

    @Test
    void cassandras_line_gives_each_dcs_writes_and_bytes_to_other_dcs_per_fill() {
        Map<String, Long> counters = Map.of("w:SydneyDC", 30_000L, "s:SydneyDC", 2_000_000L,
                "w:NorthVirginiaDC", 60_000L, "s:NorthVirginiaDC", 4_000_000L, "wan:a->b", 5L);

        assertThat(WanTraffic.cassandra(counters, "w:", "s:", 2_000)).isEqualTo(
                "NorthVirginiaDC: 60,000 table writes applied, 4.0 MB sent to other DCs (30.0 writes and 2,000 bytes per fill); "
                        + "SydneyDC: 30,000 table writes applied, 2.0 MB sent to other DCs (15.0 writes and 1,000 bytes per fill)");
        assertThat(WanTraffic.cassandra(Map.of("wan:a->b", 5L), "w:", "s:", 2_000)).isEmpty();
        assertThat(WanTraffic.withPrefix(counters, "wan:")).containsExactlyEntriesOf(Map.of("a->b", 5L));
    }
}
