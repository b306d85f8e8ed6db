package io.geobroker.loadgen.calc;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Properties;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class CalculatorTest {

    private final Pricing pricing = Pricing.standard();
    private final Calculator calculator = new Calculator(pricing);
    private final Deployment prototype = pricing.defaults();

    @Test
    void reproduces_the_prototypes_cpu_table_from_40_to_180_percent() {
        Calculator.Result result = calculator.table(prototype, 8, calculator.referenceWorkload());

        assertThat(result.rows()).extracting(Calculator.Row::cpuPercent)
                .containsExactly(40, 60, 80, 100, 120, 140, 160, 180);
        assertThat(result.rows()).extracting(Calculator.Row::storedCopiesPerWrite)
                .containsExactly(3, 6, 9, 12, 15, 18, 21, 24);
    }

    @Test
    void reproduces_the_prototypes_monthly_cost_of_361_dollars() {
        CostModel.Estimate e = new CostModel(pricing).estimate(prototype);

        assertThat(prototype.regions()).containsExactly("us-east-1", "ap-southeast-2");
        assertThat(Usd.toWholeDollars(e.infrastructureMicros())).isEqualTo(337);
        assertThat(Usd.toWholeDollars(e.transferMicros())).isEqualTo(24);
        assertThat(Usd.toWholeDollars(e.totalMicros())).isEqualTo(361)
                .isEqualTo(Usd.toWholeDollars(e.infrastructureMicros()) + Usd.toWholeDollars(e.transferMicros()));
        // exact cents, line by line: 6 x t3.small, 900 GB gp3, 2 x c5.large, 128 GB gp3, 407 GB out
        assertThat(e.micros(CostModel.Item.CASSANDRA_INSTANCES)).isEqualTo(103_368_000L);
        assertThat(e.micros(CostModel.Item.CASSANDRA_STORAGE)).isEqualTo(79_200_000L);
        assertThat(e.micros(CostModel.Item.BROKER_INSTANCES)).isEqualTo(143_080_000L);
        assertThat(e.micros(CostModel.Item.BROKER_STORAGE)).isEqualTo(11_264_000L);
        assertThat(e.transferBytes()).isEqualTo(407_000_000_000L);
        assertThat(e.transferMicros()).isEqualTo(4_070_000L + 19_943_000L);
        assertThat(Usd.cents(e.totalMicros())).isEqualTo("$360.93");
    }

    @Test
    void derives_814_bytes_per_trade_from_the_prototypes_24_dollars_of_transfer() {
        assertThat(new CostModel(pricing).bytesPerTradeFor(prototype, 24_000_000L)).isEqualTo(814);
        assertThat(pricing.bytesReplicatedPerTrade()).isEqualTo(814);
    }

    @Test
    void one_dc_replicates_nothing_and_more_dcs_multiply_transfer() {
        Calculator.Result result = calculator.table(prototype, 3, calculator.referenceWorkload());

        assertThat(result.rows().get(0).estimate().transferMicros()).isZero();
        // 3 DCs: each third of the trades goes to two other DCs (each region's line rounded to a byte)
        assertThat(result.rows().get(2).estimate().transferBytes())
                .isBetween(500_000_000L * 814 * 2 - 3, 500_000_000L * 814 * 2 + 3);
    }

    @Test
    void more_nodes_than_replicas_spread_the_load_and_bigger_loads_scale_it() {
        Deployment sixNodes = new Deployment(prototype.regions(), 6, 3, "t3.small", 150, "c5.large", 1, 64,
                500_000_000L, 814, List.of());
        assertThat(calculator.row(sixNodes, calculator.referenceWorkload()).cpuPercent()).isEqualTo(30);

        Calculator.Workload doubled = new Calculator.Workload("x2", 600_000, 500_000);
        assertThat(calculator.row(prototype, doubled).cpuPercent()).isEqualTo(120);
    }

    @Test
    void measured_trade_shares_weigh_the_transfer_by_region() {
        Deployment allFromSydney = prototype.withTradesPerMonth(500_000_000L, List.of(0L, 1L));
        CostModel.Estimate e = new CostModel(pricing).estimate(allFromSydney);

        assertThat(e.transferMicros()).isEqualTo(500_000_000L * 814 / 1_000_000_000L * 98_000L);
    }

    @Test
    void rejects_unknown_instance_types_and_too_many_dcs_with_a_clear_message() {
        Deployment unknown = new Deployment(prototype.regions(), 3, 3, "z9.huge", 150, "c5.large", 1, 64,
                1, 814, List.of());
        assertThatThrownBy(() -> new CostModel(pricing).estimate(unknown)).hasMessageContaining("z9.huge");
        assertThatThrownBy(() -> pricing.firstRegions(9)).hasMessageContaining("1..8");
    }

    @Test
    void prices_are_read_as_exact_micro_dollars() {
        assertThat(Pricing.toMicros("0.0208")).isEqualTo(20_800L);
        assertThat(Pricing.toMicros("0.098")).isEqualTo(98_000L);
        assertThatThrownBy(() -> Pricing.toMicros("0.00000001")).hasMessageContaining("6 decimals");
        assertThatThrownBy(() -> Pricing.from(new Properties())).hasMessageContaining("regions");
    }

    @Test
    void renders_a_table_and_a_self_contained_chart_page() {
        Calculator.Result result = calculator.table(prototype, 8, calculator.referenceWorkload());

        String text = CalcRender.text(result);
        assertThat(text).contains("$337 + $24 = $361 rounded").contains(" 180%");
        String html = CalcRender.html(result);
        assertThat(html).startsWith("<!DOCTYPE html>").contains("<svg").doesNotContain("<script").doesNotContain("http://cdn")
                .doesNotContain("src=");
        assertThat(html.split("class='bar'", -1)).hasSize(1 + 8 + 16);
    }
}
