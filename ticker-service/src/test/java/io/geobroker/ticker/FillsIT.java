package io.geobroker.ticker;

import io.geobroker.domain.Fill;
import io.geobroker.domain.OrderType;
import io.geobroker.domain.Side;
import io.geobroker.domain.Ticker;
import io.geobroker.domain.WireFormat;
import io.geobroker.testsupport.StackContext;
import io.geobroker.testsupport.WithLocalStack;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * With fills enabled, fills on a region's fills topic move prices: buying up, selling down. The walk
 * is switched off (no volatility, no mean reversion) so only fills can move a price.
 */
@WithLocalStack
class FillsIT {

    private static final long AAPL_START = 19_000;

    @Test
    void buying_pushes_the_price_up_and_selling_pushes_it_down(StackContext stack) throws Exception {
        String prefix = stack.topics().prefix();
        try (TickerTopics nasdaq = new TickerTopics(stack.kafkaBootstrap("nvirginia"), prefix + "tickers.NASDAQ");
             KafkaProducer<String, byte[]> fills = new KafkaProducer<>(Map.of(
                     ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, stack.kafkaBootstrap("nvirginia"),
                     ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class,
                     ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class));
             RunningTicker ticker = RunningTicker.start(stack, prefix, Map.of("exchanges", "NASDAQ",
                     "tickers-per-second", "400", "fills.enabled", "true", "fills.shares-per-tick", "100",
                     "model.volatility-per-step", "0", "model.mean-reversion", "0"))) {

            await().atMost(Duration.ofSeconds(60)).until(() -> !aapl(nasdaq).isEmpty());
            assertThat(aapl(nasdaq)).allSatisfy(t -> assertThat(t.price()).isEqualTo(AAPL_START));

            // The service's consumer starts at the latest offset once it has joined, so keep buying until it sees it;
            // a poison record before each fill must not stop it.
            await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(500)).until(() -> {
                fills.send(new ProducerRecord<>(prefix + "fills", "poison", "not a fill".getBytes(StandardCharsets.UTF_8))).get();
                fills.send(fill(prefix, Side.BUY, 300)).get();
                return last(nasdaq) > AAPL_START;
            });
            long high = last(nasdaq);
            await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(500)).until(() -> {
                fills.send(fill(prefix, Side.SELL, 500)).get();
                return last(nasdaq) < high;
            });
            assertThat(ticker.get("/actuator/prometheus").body())
                    .containsPattern("geobroker_ticker_fills_total\\{outcome=\"invalid\",region=\"nvirginia\"} [1-9]");
        }
    }

    private static ProducerRecord<String, byte[]> fill(String prefix, Side side, long quantity) {
        String orderId = UUID.randomUUID().toString();
        return new ProducerRecord<>(prefix + "fills", orderId, WireFormat.encode(new Fill(UUID.randomUUID().toString(),
                orderId, "customer-1", "AAPL", "NASDAQ", side, OrderType.MARKET, AAPL_START, quantity, "USD", 1, 1, 1,
                "nvirginia")));
    }

    private static List<Ticker> aapl(TickerTopics topic) {
        return topic.tickers().stream().filter(t -> t.symbol().equals("AAPL")).toList();
    }

    private static long last(TickerTopics topic) {
        List<Ticker> tickers = aapl(topic);
        return tickers.isEmpty() ? AAPL_START : tickers.get(tickers.size() - 1).price();
    }
}
