package io.geobroker.loadgen.driver;

import io.geobroker.domain.OrderType;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class DriverTest {

    @Test
    void only_fills_of_tickers_stamped_in_the_measured_phase_count() {
        long start = 1_000_000;
        long end = 61_000_000;

        assertThat(Driver.measuredTicker(start - 1, start, end)).as("warm-up").isFalse();
        assertThat(Driver.measuredTicker(start, start, end)).isTrue();
        assertThat(Driver.measuredTicker(end - 1, start, end)).isTrue();
        // tickers keep coming while late orders drain; their fills are not the measured phase's
        assertThat(Driver.measuredTicker(end, start, end)).as("drain").isFalse();
    }

    @Test
    void fills_of_market_orders_are_not_ticker_to_fill() {
        assertThat(Driver.filledByTicker(OrderType.LIMIT)).isTrue();
        assertThat(Driver.filledByTicker(OrderType.STOP)).isTrue();
        assertThat(Driver.filledByTicker(OrderType.STOP_LIMIT)).isTrue();
        // filled on placement at the latest quote, whose exchange time may precede the order
        assertThat(Driver.filledByTicker(OrderType.MARKET)).isFalse();
    }
}
