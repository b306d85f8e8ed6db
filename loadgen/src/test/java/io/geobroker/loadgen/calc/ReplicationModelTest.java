package io.geobroker.loadgen.calc;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ReplicationModelTest {

    @Test
    void a_phases_bytes_are_the_fixed_rate_plus_each_cause_times_its_count() {
        ReplicationModel model = new ReplicationModel(12_000, 150, 1_900, 700);

        // 90.5 s x 12,000 + 1,000 x 150 + 800 x 1,900 + 2,000 x 700
        assertThat(model.bytes(90_500, 1_000, 800, 2_000)).isEqualTo(1_086_000 + 150_000 + 1_520_000 + 1_400_000);
        assertThat(model.bytes(0, 0, 0, 0)).isZero();
        assertThat(model.describe()).isEqualTo("12,000 bytes a second + 150 per order + 1,900 per fill + 700 per mutation "
                + "the engines wrote");
    }

    @Test
    void negative_coefficients_or_counts_are_refused() {
        assertThatThrownBy(() -> new ReplicationModel(-1, 0, 0, 0)).hasMessageContaining("cannot be negative");
        ReplicationModel model = new ReplicationModel(1, 1, 1, 1);
        assertThatThrownBy(() -> model.bytes(1_000, -1, 0, 0)).hasMessageContaining("cannot be negative");
    }

    @Test
    void the_shipped_price_list_carries_a_measured_model() {
        ReplicationModel shipped = Pricing.standard().replication();

        // a default run's 60 s: ~17,900 orders, ~17,700 fills, ~32,000 mutations (docs/results.md)
        long perFill = shipped.bytes(60_000, 17_900, 17_700, 32_000) / 17_700;
        assertThat(perFill).isBetween(2_000L, 4_500L);
        assertThat(shipped.bytesPerFill()).isPositive();
        assertThat(shipped.bytesPerMutation()).isPositive();
    }
}
