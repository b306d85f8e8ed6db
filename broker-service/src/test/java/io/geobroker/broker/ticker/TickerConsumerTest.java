package io.geobroker.broker.ticker;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** How a ticker's delivery to the broker is timed. */
class TickerConsumerTest {

    @Test
    void delivery_runs_from_the_exchange_time_to_the_consumer() {
        assertThat(TickerConsumer.deliveryMicros(1_700_000_000_000_000L, 1_700_000_000_004_250L)).isEqualTo(4_250);
    }

    @Test
    void a_ticker_stamped_ahead_of_this_clock_counts_as_delivered_at_once() {
        assertThat(TickerConsumer.deliveryMicros(1_700_000_000_010_000L, 1_700_000_000_004_250L)).isZero();
    }
}
