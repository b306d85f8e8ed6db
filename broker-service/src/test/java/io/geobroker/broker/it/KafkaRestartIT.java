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
 * ticker whose fills are on their way when Kafka dies, a placement tried while it is down, and orders
 * filled by a ticker after it is back. The broker itself is not restarted: its consumer, its fills
 * producer and its offset commits must find Kafka again on their own. Every order ends with exactly
 * one fill, the books balance, and the broker is ready again.
 *
 * <p>While Kafka is down the engine stops at the group whose fills Kafka has not acknowledged (it
 * keeps at most one such group, the bound its restart republishing relies on), so a placement then is
 * answered 201 if it came first or 503 with Retry-After; repeated with the same clientOrderId once
 * Kafka is back, it makes exactly one order.
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
        broker = new InProcessBroker(stack, "nvirginia", stack.testAddress(37), Map.of());
        exchange = new Exchange(stack.kafkaBootstrap("nvirginia"), stack.topics());
    }

    @Test
    void a_kafka_restart_loses_no_fill_and_duplicates_none() {
        CrossingOrders before = new CrossingOrders(broker.api, "before", "JPM", ORDERS_PER_SIDE, SEEDED, SEEDED);
        CrossingOrders after = new CrossingOrders(broker.api, "after", "BAC", ORDERS_PER_SIDE, SEEDED, SEEDED);
        String retrier = broker.api.customer("retrier", CrossingOrders.DEPOSIT);
        long first = exchange.tick("JPM", CrossingOrders.PRICE, before.totalQuantity());

        long down = System.nanoTime();
        context.stack().kill(KAFKA);
        BrokerApi.Response during = placeAway(retrier);
        assertThat(during.status()).as("a placement while Kafka is down: %s", during.body()).isIn(201, 503);
        if (during.status() == 503) {
            assertThat(during.retryAfter()).as("503 says when to try again").isNotNull();
        }
        context.stack().restart(KAFKA, Duration.ofMinutes(2));
        System.out.printf("Kafka of nvirginia down for %.1f s; the placement meanwhile answered %d%n",
                (System.nanoTime() - down) / 1e9, during.status());

        long second = exchange.tick("BAC", CrossingOrders.PRICE, after.totalQuantity());
        await("every order's fill on the fills topic").atMost(Duration.ofMinutes(3)).pollInterval(Duration.ofMillis(500))
                .until(() -> Books.distinctIds(fillsOf("JPM")).size() >= before.owners.size()
                        && Books.distinctIds(fillsOf("BAC")).size() >= after.owners.size());

        assertThat(fillsOf("JPM")).extracting(Fill::tickerSequence).containsOnly(first);
        assertThat(fillsOf("BAC")).extracting(Fill::tickerSequence).containsOnly(second);
        before.assertFilledOnceWithBooksBalanced(fillsOf("JPM"));
        after.assertFilledOnceWithBooksBalanced(fillsOf("BAC"));

        BrokerApi.Response repeated = placeAway(retrier);
        assertThat(repeated.status()).as("the placement repeated after the restart: %s", repeated.body()).isIn(200, 201);
        if (during.status() == 201) {
            assertThat(repeated.status()).as("already placed: the repeat returns it").isEqualTo(200);
            assertThat(repeated.text("orderId")).isEqualTo(during.text("orderId"));
        }
        assertThat(broker.api.get(retrier, "/api/v1/orders").body().toString()).as("one order for the client order id")
                .containsOnlyOnce("\"clientOrderId\":\"away-1\"");
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
