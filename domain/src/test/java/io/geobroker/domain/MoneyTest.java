package io.geobroker.domain;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class MoneyTest {

    @Test
    void notional_is_exact_and_refuses_to_overflow() {
        assertThat(Money.notional("USD", Price.of(19_001), Quantity.of(3))).isEqualTo(Money.of("USD", 57_003));
        assertThatThrownBy(() -> Money.notional("USD", Price.of(Long.MAX_VALUE / 2), Quantity.of(3)))
                .isInstanceOf(ArithmeticException.class);
    }

    @Test
    void currencies_do_not_mix() {
        assertThatThrownBy(() -> Money.of("USD", 1).plus(Money.of("AUD", 1)))
                .hasMessageContaining("cannot combine USD and AUD");
        assertThat(Money.of("AUD", 5).minus(Money.of("AUD", 7))).isEqualTo(Money.of("AUD", -2));
    }

    @Test
    void prices_and_quantities_are_positive() {
        assertThatThrownBy(() -> Price.of(0)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> Quantity.of(-1)).isInstanceOf(IllegalArgumentException.class);
    }
}
