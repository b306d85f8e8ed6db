package io.geobroker.loadgen.driver;

import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.junit.jupiter.api.Test;

import java.util.Properties;

import static org.assertj.core.api.Assertions.assertThat;

class KafkaClientsTest {

    @Test
    void the_ticker_watcher_fetches_in_batches_and_the_fills_watcher_per_record() {
        Properties tickers = KafkaClients.tickerConsumerProperties("127.0.0.1:9092");
        Properties fills = KafkaClients.consumerProperties("127.0.0.1:9092");

        // quotes and counts only: a batch of tickers per fetch, at most 50 ms late
        assertThat((int) tickers.get(ConsumerConfig.FETCH_MIN_BYTES_CONFIG)).isGreaterThan(1);
        assertThat((int) tickers.get(ConsumerConfig.FETCH_MAX_WAIT_MS_CONFIG)).isLessThanOrEqualTo(50);
        // the fills watcher times each fill as it sees it: Kafka answers as soon as one is there
        assertThat(fills.get(ConsumerConfig.FETCH_MIN_BYTES_CONFIG)).isNull();
        assertThat(tickers.get(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG)).isEqualTo("127.0.0.1:9092");
        assertThat(tickers.get(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG)).isEqualTo(false);
    }
}
