package io.geobroker.loadgen.ackbench;

import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.util.SplittableRandom;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class DecimalPriceTest {

    @Test
    void minor_units_become_a_decimal_of_the_major_unit() {
        assertThat(DecimalPrice.toDecimal(19025, 2)).isEqualByComparingTo("190.25");
        assertThat(DecimalPrice.toDecimal(19025, 2).toPlainString()).isEqualTo("190.25");
        assertThat(DecimalPrice.toDecimal(1, 2).toPlainString()).isEqualTo("0.01");
        assertThat(DecimalPrice.toDecimal(500, 0).toPlainString()).isEqualTo("500");
    }

    @Test
    void a_decimal_becomes_minor_units_whatever_its_scale() {
        assertThat(DecimalPrice.toMinorUnits(new BigDecimal("190.25"), 2)).isEqualTo(19025);
        assertThat(DecimalPrice.toMinorUnits(new BigDecimal("190.2"), 2)).isEqualTo(19020);
        assertThat(DecimalPrice.toMinorUnits(new BigDecimal("190"), 2)).isEqualTo(19000);
        assertThat(DecimalPrice.toMinorUnits(new BigDecimal("190.2500"), 2)).isEqualTo(19025);
    }

    @Test
    void rejects_a_price_finer_than_a_minor_unit_or_too_large() {
        assertThatThrownBy(() -> DecimalPrice.toMinorUnits(new BigDecimal("190.255"), 2))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("190.255");
        assertThatThrownBy(() -> DecimalPrice.toMinorUnits(new BigDecimal("1e30"), 2))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> DecimalPrice.toDecimal(1, -1)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void round_trips_exactly() {
        SplittableRandom random = new SplittableRandom(28);
        for (int i = 0; i < 10_000; i++) {
            long minor = random.nextLong(1, Long.MAX_VALUE / 1000);
            int digits = random.nextInt(0, 5);
            BigDecimal decimal = DecimalPrice.toDecimal(minor, digits);
            assertThat(DecimalPrice.toMinorUnits(decimal, digits)).isEqualTo(minor);
            assertThat(DecimalPrice.toMinorUnits(new BigDecimal(decimal.toPlainString()), digits)).isEqualTo(minor);
        }
    }
}
