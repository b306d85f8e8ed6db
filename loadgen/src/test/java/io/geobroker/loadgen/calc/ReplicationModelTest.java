package io.geobroker.loadgen.calc;

import io.geobroker.loadgen.report.RunReport;
import io.geobroker.loadgen.report.WanTraffic;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ReplicationModelTest {

    private static final ReplicationModel MODEL = new ReplicationModel(6_000, 1_900, 500, 200);

    @Test
    void a_phases_bytes_are_the_nodes_rate_plus_each_fill_and_each_mutation_with_its_answers() {
        // 90.5 s x 2 nodes x 6,000 + 800 fills x 1,900 + 2,000 mutations x (500 + 1 x 200)
        assertThat(MODEL.bytes(90_500, 2, 1, 800, 2_000)).isEqualTo(1_086_000 + 1_520_000 + 1_400_000);
        // three replicas per DC answer each mutation: 2,000 x (500 + 3 x 200); six nodes gossip
        assertThat(MODEL.bytes(90_500, 6, 3, 800, 2_000)).isEqualTo(3_258_000 + 1_520_000 + 2_200_000);
        assertThat(MODEL.describe()).isEqualTo("6,000 bytes a second per Cassandra node + 1,900 per fill + 500 per mutation "
                + "the engines wrote + 200 per replica's answer to it");
    }

    @Test
    void negative_coefficients_or_counts_and_a_deployment_without_nodes_are_refused() {
        assertThatThrownBy(() -> new ReplicationModel(-1, 0, 0, 0)).hasMessageContaining("cannot be negative");
        assertThatThrownBy(() -> MODEL.bytes(1_000, 2, 1, -1, 0)).hasMessageContaining("not negative");
        assertThatThrownBy(() -> MODEL.bytes(1_000, 0, 1, 1, 0)).hasMessageContaining("nodes");
    }

    @Test
    void a_report_is_predicted_from_its_own_counts_and_deployment() {
        List<RunReport.RegionSummary> regions = List.of(new RunReport.RegionSummary("sydney", 500, 500, 0, 0, 300, 900),
                new RunReport.RegionSummary("nvirginia", 500, 500, 0, 0, 500, 900));
        RunReport full = report(Map.of(WanTraffic.MUTATIONS, "2000", WanTraffic.NODES_PER_DC, "3",
                WanTraffic.REPLICAS_PER_DC, "3"), regions);

        assertThat(MODEL.predict(full)).hasValue(MODEL.bytes(90_500, 6, 3, 800, 2_000));
        assertThat(MODEL.predict(report(Map.of(WanTraffic.MUTATIONS, "2000"), regions))).isEmpty();
        assertThat(MODEL.predict(report(Map.of(WanTraffic.NODES_PER_DC, "1", WanTraffic.REPLICAS_PER_DC, "1"), regions))).isEmpty();
        assertThat(MODEL.predict(report(full.conditions(), List.of(new RunReport.RegionSummary("sydney", 1, 1, 0, 0, 0, 1)))))
                .isEmpty();
    }

    @Test
    void bytes_per_trade_spread_the_nodes_rate_over_the_trades() {
        // 1,900 + (500 + 3 x 200) x 2.2 + 6,000 x 6 nodes x 730 h x 3,600 s / 525,600,000 trades
        assertThat(MODEL.bytesPerTrade(6, 3, 2_200, 525_600_000L, 730)).isEqualTo(1_900 + 2_420 + 180);
        assertThat(MODEL.bytesPerTrade(2, 1, 0, 525_600_000L, 730)).isEqualTo(1_900 + 60);
        assertThatThrownBy(() -> MODEL.bytesPerTrade(2, 1, 1_000, 0, 730)).hasMessageContaining("trades");
    }

    @Test
    void the_shipped_price_list_carries_a_measured_model() {
        ReplicationModel shipped = Pricing.standard().replication();

        // a default run's 60 s at one node per DC: ~17,700 fills, ~6,200 mutations every DC receives,
        // ~1,650 bytes a fill across the link (docs/results.md, 2026-12-05)
        long perFill = shipped.bytes(60_000, 2, 1, 17_700, 6_200) / 17_700;
        assertThat(perFill).isBetween(1_300L, 2_000L);
        assertThat(shipped.bytesPerFill()).isPositive();
        assertThat(shipped.bytesPerMutation()).isPositive();
        assertThat(shipped.bytesPerAnswer()).isPositive();
    }

    private static RunReport report(Map<String, String> conditions, List<RunReport.RegionSummary> regions) {
        return new RunReport(RunReport.SCHEMA, "t", "default", "2026-11-28T02:00:00Z", conditions, 90_500, regions, List.of(),
                Map.of(), List.of(), null, null);
    }
}
