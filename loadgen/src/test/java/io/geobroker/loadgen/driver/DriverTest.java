package io.geobroker.loadgen.driver;

import io.geobroker.domain.OrderType;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.junit.jupiter.api.Test;

import java.util.Properties;

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

    @Test
    void the_ticker_watcher_fetches_in_batches_and_the_fills_watcher_per_record() {
        Properties tickers = Driver.tickerConsumerProperties("127.0.0.1:9092");
        Properties fills = Driver.consumerProperties("127.0.0.1:9092");

        // quotes and counts only: a batch of tickers per fetch, at most 50 ms late
        assertThat((int) tickers.get(ConsumerConfig.FETCH_MIN_BYTES_CONFIG)).isGreaterThan(1);
        assertThat((int) tickers.get(ConsumerConfig.FETCH_MAX_WAIT_MS_CONFIG)).isLessThanOrEqualTo(50);
        // the fills watcher times each fill as it sees it: Kafka answers as soon as one is there
        assertThat(fills.get(ConsumerConfig.FETCH_MIN_BYTES_CONFIG)).isNull();
        assertThat(tickers.get(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG)).isEqualTo("127.0.0.1:9092");
        assertThat(tickers.get(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG)).isEqualTo(false);
    }
}
