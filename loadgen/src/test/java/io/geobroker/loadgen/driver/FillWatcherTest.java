package io.geobroker.loadgen.driver;

import io.geobroker.domain.OrderType;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class FillWatcherTest {

    @Test
    void fills_of_market_orders_are_not_ticker_to_fill() {
        assertThat(FillWatcher.filledByTicker(OrderType.LIMIT)).isTrue();
        assertThat(FillWatcher.filledByTicker(OrderType.STOP)).isTrue();
        assertThat(FillWatcher.filledByTicker(OrderType.STOP_LIMIT)).isTrue();
        // filled on placement at the latest quote, whose exchange time may precede the order
        assertThat(FillWatcher.filledByTicker(OrderType.MARKET)).isFalse();
    }
}
