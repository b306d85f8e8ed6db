package io.geobroker.broker.it;

import io.geobroker.domain.SymbolDirectory;
import io.geobroker.domain.SymbolInfo;
import io.geobroker.testsupport.StackContext;
import io.geobroker.testsupport.WithLocalStack;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A ticker that changes no order writes nothing of its own: its quote and sequence become durable
 * with the symbol's next write. Until then its Kafka offset must not be committed, so a broker
 * SIGKILLed in between reads it again and ends with the same latest quote it had before the kill.
 */
@WithLocalStack
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class QuoteDurabilityIT {

    private static final String SYMBOL = "DIS";

    private TestStack stack;
    @AutoClose
    private BrokerProcess broker;
    @AutoClose
    private Exchange exchange;
    @AutoClose
    private Admin admin;

    @BeforeAll
    void start(StackContext context) {
        stack = TestStack.of(context);
        // Quotes wait an hour to be written: only the first ticker of a symbol and book changes write.
        broker = new BrokerProcess(stack, "nvirginia", stack.testAddress(28), Path.of("target", "quote-durability-broker.log"),
                Map.of("geobroker.engine.quote-persist-interval", "1h"));
        broker.start();
        exchange = new Exchange(stack.kafkaBootstrap("nvirginia"), stack.topics());
        admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, stack.kafkaBootstrap("nvirginia")));
    }

    @Test
    void a_quote_that_changed_no_order_survives_a_kill_because_its_offset_was_held_back() throws Exception {
        BrokerApi api = broker.api;
        String token = api.customer("quote" + UUID.randomUUID().toString().substring(0, 6), 100_000);

        RecordMetadata first = exchange.send(SYMBOL, 5_000, 10, 1);
        await().atMost(Duration.ofSeconds(30)).until(() -> quoteSequence(api, token) == 1);
        TopicPartition partition = new TopicPartition(first.topic(), first.partition());
        await().atMost(Duration.ofSeconds(30)).until(() -> committed(partition) > first.offset());

        RecordMetadata second = exchange.send(SYMBOL, 5_100, 10, 2);
        assertThat(second.partition()).isEqualTo(first.partition());
        // Other symbols' first tickers, written at once, until one lands in the same partition after the
        // held one: committing its offset would commit past the held ticker too.
        int sent = 2;
        boolean sharesPartition = false;
        for (SymbolInfo other : SymbolDirectory.standard().symbolsOf("NYSE")) {
            if (other.symbol().equals(SYMBOL)) {
                continue;
            }
            RecordMetadata m = exchange.send(other.symbol(), 1_000, 10, 1);
            sent++;
            if (m.partition() == second.partition()) {
                sharesPartition = true;
                break;
            }
        }
        assertThat(sharesPartition).as("another NYSE symbol shares the held ticker's partition").isTrue();
        int tickers = sent;
        await().atMost(Duration.ofSeconds(30)).until(() -> consumed(api) >= tickers);
        await().during(Duration.ofSeconds(3)).atMost(Duration.ofSeconds(5)).untilAsserted(() -> {
            assertThat(committed(partition)).as("the second ticker's offset is held back").isLessThanOrEqualTo(second.offset());
            assertThat(quoteSequence(api, token)).as("the second ticker wrote nothing").isEqualTo(1);
        });

        broker.kill();
        broker.start();

        await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(200)).until(() -> consumed(api) >= 1);
        // A resting order changes the symbol's book: its group writes the symbol's state, quote included.
        BrokerApi.Response placed = api.place(token, "rest-1", SYMBOL, "BUY", "LIMIT", 1, "limitPrice", 4_000,
                "timeInForce", "GTC");
        assertThat(placed.status()).as("%s", placed.body()).isEqualTo(201);
        await().atMost(Duration.ofSeconds(30)).until(() -> quoteSequence(api, token) == 2);
        BrokerApi.Response quote = api.get(token, "/api/v1/quotes/" + SYMBOL);
        assertThat(quote.number("price")).as("read again after the restart, the ticker's quote is durable").isEqualTo(5_100);
    }

    private static long quoteSequence(BrokerApi api, String token) {
        BrokerApi.Response q = api.get(token, "/api/v1/quotes/" + SYMBOL);
        return q.status() == 200 ? q.number("sequence") : -1;
    }

    /** Tickers the engine has taken from its queue (the consume stage's count). */
    private static long consumed(BrokerApi api) {
        return api.rawText("/actuator/prometheus").lines()
                .filter(l -> l.startsWith("geobroker_engine_stage_seconds_count") && l.contains("stage=\"consume\""))
                .mapToLong(l -> (long) Double.parseDouble(l.substring(l.lastIndexOf(' ') + 1)))
                .sum();
    }

    private long committed(TopicPartition partition) throws Exception {
        OffsetAndMetadata offset = admin.listConsumerGroupOffsets(stack.topics().prefix() + "broker-nvirginia")
                .partitionsToOffsetAndMetadata().get().get(partition);
        return offset == null ? -1 : offset.offset();
    }
}
