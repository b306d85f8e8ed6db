package io.geobroker.broker.it;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.cql.Row;
import com.datastax.oss.driver.api.core.cql.SimpleStatement;
import io.geobroker.domain.Fill;
import io.geobroker.testsupport.StackContext;
import io.geobroker.testsupport.WithLocalStack;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A crash in the middle of an oversized group: with batches capped at 1 KiB, one ticker fills 300
 * orders, which the engine journals and then writes in hundreds of batches. The broker JVM is
 * SIGKILLed as soon as the journal is pending, so it dies between the group's batches with part of
 * the group durable and none of it published. When it starts again, the journal left behind is
 * applied before the state is rebuilt: every order ends with exactly one fill (the ticker, read
 * again because its offset was never committed, is a replay) and cash and shares are conserved.
 */
@WithLocalStack
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class JournalRecoveryIT {

    private static final String SYMBOL = "BAC";
    private static final int ORDERS_PER_SIDE = 150;
    private static final long SEEDED = 5_000;

    private TestStack stack;
    @AutoClose
    private BrokerProcess broker;
    @AutoClose
    private Exchange exchange;

    @BeforeAll
    void start(StackContext context) {
        stack = TestStack.of(context);
        broker = new BrokerProcess(stack, "nvirginia", stack.testAddress(24),
                Path.of("target", "journal-recovery-broker.log"), Map.of("geobroker.engine.max-batch-bytes", 1_024));
        broker.start();
        exchange = new Exchange(stack.kafkaBootstrap("nvirginia"), stack.topics());
    }

    @Test
    void a_group_cut_short_between_its_batches_is_completed_at_start_exactly_once() throws InterruptedException {
        BrokerApi api = broker.api;
        CrossingOrders orders = new CrossingOrders(api, "j", SYMBOL, ORDERS_PER_SIDE, SEEDED, 0);
        Map<String, String> owners = orders.owners;
        CqlSession session = stack.session("nvirginia");

        long sequence = exchange.tick(SYMBOL, CrossingOrders.PRICE, orders.totalQuantity());
        await().atMost(Duration.ofSeconds(120)).pollInterval(Duration.ofMillis(2)).until(() -> pendingParts(session) > 0);
        broker.kill();

        long durableAtKill = fillRows(session, sequence);
        long filledAtKill = filledOrders(session, owners);
        assertThat(pendingParts(session)).as("the kill came between the journal and its clearing").isPositive();
        assertThat(exchange.fills()).as("nothing of the interrupted group was published").isEmpty();

        broker.start();

        await().atMost(Duration.ofSeconds(120)).pollInterval(Duration.ofMillis(500))
                .until(() -> Books.distinctIds(exchange.fills()).size() >= owners.size());
        assertThat(pendingParts(session)).as("the journal was applied and cleared").isZero();
        await().atMost(Duration.ofSeconds(60)).untilAsserted(() -> assertThat(api.rawText("/actuator/prometheus"))
                .as("the ticker, read again after the restart, was recognised as a replay")
                .containsPattern("geobroker_tickers_replayed_total\\{region=\"nvirginia\"} [1-9]"));
        assertThat(fillRows(session, sequence)).isEqualTo(owners.size());
        List<Fill> fills = exchange.fills();
        orders.assertFilledOnceWithBooksBalanced(fills);
        assertThat(api.get(orders.buyer, "/api/v1/orders?status=OPEN&pageSize=500").body().path("items")).isEmpty();
        Row state = session.execute(SimpleStatement.newInstance(
                "SELECT last_ticker_sequence FROM symbol_state WHERE symbol = ?", SYMBOL)).one();
        assertThat(state.getLong("last_ticker_sequence")).isEqualTo(sequence);
        System.out.printf("journal recovery: at SIGKILL %d of %d orders FILLED and %d fill rows durable; after the "
                        + "restart %d fill rows, %d publications of %d distinct fills%n", filledAtKill, owners.size(),
                durableAtKill, fillRows(session, sequence), fills.size(), Books.unique(fills).size());
    }

    private static long pendingParts(CqlSession session) {
        Row header = session.execute(SimpleStatement.newInstance(
                "SELECT parts FROM engine_journal WHERE region = 'nvirginia' LIMIT 1")).one();
        return header == null || header.isNull("parts") ? 0 : header.getInt("parts");
    }

    /** Orders whose row says FILLED, read straight from Cassandra (the broker is down); owners: order id to token. */
    private static long filledOrders(CqlSession session, Map<String, String> owners) {
        long filled = 0;
        for (Map.Entry<String, String> order : owners.entrySet()) {
            String customerId = order.getValue().substring(0, order.getValue().lastIndexOf('.'));
            Row row = session.execute(SimpleStatement.newInstance("SELECT status FROM customer_orders "
                    + "WHERE customer_id = ? AND order_id = ?", customerId, UUID.fromString(order.getKey()))).one();
            if (row != null && "FILLED".equals(row.getString("status"))) {
                filled++;
            }
        }
        return filled;
    }

    private static long fillRows(CqlSession session, long sequence) {
        return session.execute(SimpleStatement.newInstance(
                "SELECT count(*) FROM symbol_fills WHERE symbol = ? AND ticker_sequence = ?", SYMBOL, sequence))
                .one().getLong(0);
    }
}
