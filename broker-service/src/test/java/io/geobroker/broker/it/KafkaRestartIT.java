package io.geobroker.broker.it;

import io.geobroker.domain.Fill;
import io.geobroker.testsupport.StackContext;
import io.geobroker.testsupport.WithLocalStack;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The region's Kafka broker SIGKILLed and started again (its logs kept) while the broker works: a
 * ticker whose fills are on their way when Kafka dies, customers, deposits and orders placed while it
 * is down, and a ticker after it is back that fills them. The broker itself is not restarted: its
 * consumer, its fills producer and its offset commits must find Kafka again on their own, and its
 * engine must go on meanwhile (it runs ahead of Kafka's acknowledgements). Every order ends with
 * exactly one fill, the books balance, and a placement made during the outage and repeated after it
 * is one order. The broker writes its customers' rows with each group's slot in one logged batch
 * ({@code log-customer-rows=false}), so that path stays tested end to end beside the default.
 */
@WithLocalStack
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class KafkaRestartIT {

    private static final String KAFKA = "kafka-nvirginia";
    private static final long SEEDED = 1_000;
    private static final int ORDERS_PER_SIDE = 20;

    private StackContext context;
    @AutoClose
    private InProcessBroker broker;
    @AutoClose
    private Exchange exchange;

    @BeforeAll
    void start(StackContext context) {
        this.context = context;
        TestStack stack = TestStack.of(context);
        broker = new InProcessBroker(stack, "nvirginia", stack.testAddress(37),
                Map.of("geobroker.engine.log-customer-rows", false));
        exchange = new Exchange(stack.kafkaBootstrap("nvirginia"), stack.topics());
    }

    @Test
    void a_kafka_restart_loses_no_fill_duplicates_none_and_stops_no_placement() {
        CrossingOrders before = new CrossingOrders(broker.api, "before", "JPM", ORDERS_PER_SIDE, SEEDED, SEEDED);
        long first = exchange.tick("JPM", CrossingOrders.PRICE, before.totalQuantity());

        long down = System.nanoTime();
        context.stack().kill(KAFKA);
        // Nothing of this needs Kafka: customers, deposits, shares and resting orders are Cassandra's.
        long placing = System.nanoTime();
        CrossingOrders during = new CrossingOrders(broker.api, "during", "BAC", ORDERS_PER_SIDE, SEEDED, SEEDED);
        String retrier = broker.api.customer("retrier", CrossingOrders.DEPOSIT);
        BrokerApi.Response placed = placeAway(retrier);
        assertThat(placed.status()).as("a placement while Kafka is down: %s", placed.body()).isEqualTo(201);
        double placingSeconds = (System.nanoTime() - placing) / 1e9;
        context.stack().restart(KAFKA, Duration.ofMinutes(2));
        System.out.printf("Kafka of nvirginia down for %.1f s; %d customers and %d orders placed meanwhile in %.1f s%n",
                (System.nanoTime() - down) / 1e9, 3, during.owners.size() + 1, placingSeconds);

        long second = exchange.tick("BAC", CrossingOrders.PRICE, during.totalQuantity());
        await("every order's fill on the fills topic").atMost(Duration.ofMinutes(3)).pollInterval(Duration.ofMillis(500))
                .until(() -> Books.distinctIds(fillsOf("JPM")).size() >= before.owners.size()
                        && Books.distinctIds(fillsOf("BAC")).size() >= during.owners.size());

        assertThat(fillsOf("JPM")).extracting(Fill::tickerSequence).containsOnly(first);
        assertThat(fillsOf("BAC")).extracting(Fill::tickerSequence).containsOnly(second);
        before.assertFilledOnceWithBooksBalanced(fillsOf("JPM"));
        during.assertFilledOnceWithBooksBalanced(fillsOf("BAC"));

        BrokerApi.Response repeated = placeAway(retrier);
        assertThat(repeated.status()).as("the placement repeated after the restart: %s", repeated.body()).isEqualTo(200);
        assertThat(repeated.text("orderId")).isEqualTo(placed.text("orderId"));
        assertThat(broker.api.get(null, "/actuator/health/readiness").status()).isEqualTo(200);
        assertThat(context.stack().processes()).filteredOn(p -> p.name().equals(KAFKA))
                .singleElement().satisfies(p -> assertThat(p.alive()).isTrue());
    }

    /** A buy far below the market, which no ticker of this test fills. */
    private BrokerApi.Response placeAway(String token) {
        return broker.api.place(token, "away-1", "JPM", "BUY", "LIMIT", 1, "limitPrice", 1_000, "timeInForce", "GTC");
    }

    private List<Fill> fillsOf(String symbol) {
        return exchange.fills().stream().filter(f -> f.symbol().equals(symbol)).toList();
    }
}
