package io.geobroker.broker.it;

import io.geobroker.domain.Fill;
import io.geobroker.testsupport.StackContext;
import io.geobroker.testsupport.WithLocalStack;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A group far larger than one batch may be: with batches capped at 4 KiB, one ticker fills 200
 * orders, which the engine writes through its redo journal and then in many batches. Every order
 * gets exactly one fill, the journal ends cleared, and cash and shares are conserved.
 */
@WithLocalStack
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class OversizedGroupIT {

    private static final String SYMBOL = "JPM";
    private static final int ORDERS_PER_SIDE = 100;
    private static final long PRICE = 10_000;
    private static final long QTY = 10;
    private static final long DEPOSIT = 100_000_000;
    private static final long SEEDED = 5_000;

    private TestStack stack;
    private InProcessBroker broker;
    private Exchange exchange;

    @BeforeAll
    void start(StackContext context) {
        stack = TestStack.of(context);
        broker = new InProcessBroker(stack, "nvirginia", stack.testAddress(23),
                Map.of("geobroker.engine.max-batch-bytes", 4_096));
        exchange = new Exchange(stack.kafkaBootstrap("nvirginia"), stack.topics());
    }

    @AfterAll
    void stop() {
        if (exchange != null) {
            exchange.close();
        }
        if (broker != null) {
            broker.close();
        }
    }

    @Test
    void one_ticker_filling_200_orders_fills_each_exactly_once_through_the_journal() {
        BrokerApi api = broker.api;
        String buyer = api.customer("big-buyer", DEPOSIT);
        String seller = api.customer("big-seller", DEPOSIT);
        assertThat(api.seedShares("big-seller", SYMBOL, SEEDED).status()).isEqualTo(201);
        Map<String, String> owners = new HashMap<>();
        for (int i = 0; i < ORDERS_PER_SIDE; i++) {
            owners.put(place(api, buyer, "b" + i, "BUY"), buyer);
            owners.put(place(api, seller, "s" + i, "SELL"), seller);
        }

        long sequence = exchange.tick(SYMBOL, PRICE, owners.size() * QTY);

        await().atMost(Duration.ofSeconds(120)).pollInterval(Duration.ofMillis(500))
                .until(() -> Books.distinctIds(exchange.fills()).size() >= owners.size());
        List<Fill> fills = exchange.fills();
        Map<String, Set<String>> idsPerOrder = Books.idsPerOrder(fills);
        assertThat(idsPerOrder.keySet()).containsExactlyInAnyOrderElementsOf(owners.keySet());
        assertThat(idsPerOrder.values()).as("one fill per order").allSatisfy(ids -> assertThat(ids).hasSize(1));
        assertThat(fills).extracting(Fill::tickerSequence).containsOnly(sequence);
        for (Map.Entry<String, String> e : owners.entrySet()) {
            BrokerApi.Response order = api.order(e.getValue(), e.getKey());
            assertThat(order.text("status")).isEqualTo("FILLED");
            assertThat(order.number("filledQuantity")).isEqualTo(QTY);
        }
        assertThat(Books.ledger(api, buyer, "BUY")).isEqualTo(ORDERS_PER_SIDE);
        assertThat(Books.ledger(api, seller, "SELL")).isEqualTo(ORDERS_PER_SIDE);
        List<Fill> unique = Books.unique(fills);
        assertThat(Books.total(api.cash(buyer, "USD")) + Books.total(api.cash(seller, "USD")) + Books.exchangeCash(unique))
                .as("cash is conserved").isEqualTo(2 * DEPOSIT);
        assertThat(Books.total(api.shares(buyer, SYMBOL)) + Books.total(api.shares(seller, SYMBOL))
                + Books.exchangeShares(unique, SYMBOL)).as("shares are conserved").isEqualTo(SEEDED);

        JournalChecks.assertOneGroupThroughTheJournal(stack.session("nvirginia"), "nvirginia", SYMBOL, sequence,
                owners.size());
        assertThat(api.rawText("/actuator/prometheus"))
                .containsPattern("geobroker_engine_oversized_groups_total\\{region=\"nvirginia\"} [1-9]");
    }

    private static String place(BrokerApi api, String token, String client, String side) {
        BrokerApi.Response r = api.place(token, client, SYMBOL, side, "LIMIT", QTY, "limitPrice", PRICE,
                "timeInForce", "GTC");
        assertThat(r.status()).as("%s", r.body()).isEqualTo(201);
        return r.text("orderId");
    }
}
