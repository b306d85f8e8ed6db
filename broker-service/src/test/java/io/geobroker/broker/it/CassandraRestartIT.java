package io.geobroker.broker.it;

import io.geobroker.domain.Fill;
import io.geobroker.testsupport.StackContext;
import io.geobroker.testsupport.WithLocalStack;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The region's Cassandra DC lost and back: the test stack's one N. Virginia node SIGKILLed under the
 * broker and started again (its commit log replayed). Meanwhile the broker refuses what needs its DC
 * with 503 and Retry-After instead of failing or writing elsewhere; afterwards it serves again on
 * its own (no broker restart): the orders of before and after each filled exactly once, the books
 * balanced, and a placement tried during the outage and repeated after it is at most one order.
 * And what the node acknowledged just before its SIGKILL is there after the restart.
 */
@WithLocalStack
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class CassandraRestartIT {

    private static final String NODE = "cassandra-nvirginia-1";
    private static final long SEEDED = 1_000;
    private static final int ORDERS_PER_SIDE = 10;

    private StackContext context;
    @AutoClose
    private InProcessBroker broker;
    @AutoClose
    private Exchange exchange;

    @BeforeAll
    void start(StackContext context) {
        this.context = context;
        TestStack stack = TestStack.of(context);
        broker = new InProcessBroker(stack, "nvirginia", stack.testAddress(38), Map.of());
        exchange = new Exchange(stack.kafkaBootstrap("nvirginia"), stack.topics());
    }

    @Test
    void the_regions_dc_lost_and_back_loses_no_fill_and_duplicates_none() {
        CrossingOrders before = new CrossingOrders(broker.api, "before", "JPM", ORDERS_PER_SIDE, SEEDED, SEEDED);
        String retrier = broker.api.customer("retrier", CrossingOrders.DEPOSIT);
        long first = exchange.tick("JPM", CrossingOrders.PRICE, before.totalQuantity());
        await("the first ticker's fills").atMost(Duration.ofMinutes(1)).pollInterval(Duration.ofMillis(200))
                .until(() -> Books.distinctIds(fillsOf("JPM")).size() >= before.owners.size());

        long down = System.nanoTime();
        context.stack().kill(NODE);
        BrokerApi.Response during = placeAway(retrier);
        assertThat(during.status()).as("a placement with the region's DC down: %s", during.body()).isEqualTo(503);
        assertThat(during.retryAfter()).as("503 says when to try again").isNotNull();
        context.stack().restart(NODE, Duration.ofMinutes(3));
        await("the broker ready again").atMost(Duration.ofMinutes(2)).pollInterval(Duration.ofMillis(500))
                .untilAsserted(() -> assertThat(broker.api.get(null, "/actuator/health/readiness").status()).isEqualTo(200));
        System.out.printf("Cassandra of nvirginia down, then the broker ready again after %.1f s%n",
                (System.nanoTime() - down) / 1e9);

        // A client repeats a refused placement after its Retry-After, with the same clientOrderId.
        BrokerApi.Response repeated = await("the placement repeated until accepted").atMost(Duration.ofMinutes(2))
                .pollInterval(Duration.ofSeconds(1)).until(() -> placeAway(retrier), r -> r.status() != 503);
        assertThat(repeated.status()).as("the placement repeated after the outage: %s", repeated.body()).isIn(200, 201);
        System.out.printf("placements accepted again %.1f s after the node was killed%n", (System.nanoTime() - down) / 1e9);
        CrossingOrders after = new CrossingOrders(broker.api, "after", "BAC", ORDERS_PER_SIDE, SEEDED, SEEDED);
        long second = exchange.tick("BAC", CrossingOrders.PRICE, after.totalQuantity());
        await("the second ticker's fills").atMost(Duration.ofMinutes(2)).pollInterval(Duration.ofMillis(500))
                .until(() -> Books.distinctIds(fillsOf("BAC")).size() >= after.owners.size());

        assertThat(fillsOf("JPM")).extracting(Fill::tickerSequence).containsOnly(first);
        assertThat(fillsOf("BAC")).extracting(Fill::tickerSequence).containsOnly(second);
        before.assertFilledOnceWithBooksBalanced(fillsOf("JPM"));
        after.assertFilledOnceWithBooksBalanced(fillsOf("BAC"));
        assertThat(broker.api.get(retrier, "/api/v1/orders").body().toString())
                .as("one order for the client order id").containsOnlyOnce("\"clientOrderId\":\"away-1\"");
    }

    /**
     * Orders answered 201 and read back (the read starts the projection round that writes their rows
     * to {@code customer_orders}) right before the node's SIGKILL are all there after its restart:
     * the stack's node syncs its commit log before it acknowledges a write. With the periodic sync
     * the round's rows, acknowledged a few ms before the kill, were all gone (404) after the restart.
     */
    @Test
    void orders_answered_right_before_the_kill_are_there_after_the_restart() {
        String token = broker.api.customer("just-before", CrossingOrders.DEPOSIT);
        List<String> ids = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            BrokerApi.Response placed = broker.api.place(token, "jb-" + i, "JPM", "BUY", "LIMIT", 1,
                    "limitPrice", 1_000, "timeInForce", "GTC");
            assertThat(placed.status()).as("%s", placed.body()).isEqualTo(201);
            ids.add(placed.text("orderId"));
        }
        assertThat(broker.api.order(token, ids.get(ids.size() - 1)).text("status")).isEqualTo("OPEN");
        context.stack().kill(NODE);
        context.stack().restart(NODE, Duration.ofMinutes(3));
        await("the orders readable again").atMost(Duration.ofMinutes(2)).pollInterval(Duration.ofMillis(500))
                .until(() -> ids.stream().noneMatch(id -> broker.api.order(token, id).status() == 503));
        for (String id : ids) {
            BrokerApi.Response order = broker.api.order(token, id);
            assertThat(order.status()).as("order %s after the restart: %s", id, order.body()).isEqualTo(200);
            assertThat(order.text("status")).isEqualTo("OPEN");
        }
    }

    /** A buy far below the market, which no ticker of this test fills. */
    private BrokerApi.Response placeAway(String token) {
        return broker.api.place(token, "away-1", "JPM", "BUY", "LIMIT", 1, "limitPrice", 1_000, "timeInForce", "GTC");
    }

    private List<Fill> fillsOf(String symbol) {
        return exchange.fills().stream().filter(f -> f.symbol().equals(symbol)).toList();
    }
}
