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
    void offsets_are_committed_once_per_interval() {
        long interval = 250_000_000L;
        assertThat(TickerConsumer.commitDue(1_000_000_000L, 900_000_000L, interval)).isFalse();
        assertThat(TickerConsumer.commitDue(1_150_000_000L, 900_000_000L, interval)).isTrue();
        assertThat(TickerConsumer.commitDue(Long.MIN_VALUE + 100_000_000L, Long.MAX_VALUE - 200_000_000L, interval))
                .as("across the wrap of System.nanoTime()").isTrue();
    }

    @Test
    void a_ticker_stamped_ahead_of_this_clock_counts_as_delivered_at_once() {
        assertThat(TickerConsumer.deliveryMicros(1_700_000_000_010_000L, 1_700_000_000_004_250L)).isZero();
    }
}
