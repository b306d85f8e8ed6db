package io.geobroker.broker.it;

import io.geobroker.domain.Fill;
import io.geobroker.testsupport.StackContext;
import io.geobroker.testsupport.WithLocalStack;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Exactly-once fills across a crash: a broker JVM is SIGKILLed while it works through a stream of
 * tickers, then started again. Every order must end with exactly one fill (one distinct fill id on
 * Kafka, one ledger entry), and cash and shares must be conserved between the customers and the
 * exchange side.
 */
@WithLocalStack
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class CrashRecoveryIT {

    private static final String[] SYMBOLS = {"JPM", "BAC", "WFC"};
    private static final int ORDERS_PER_SIDE = 40;
    private static final long PRICE = 10_000;
    private static final long QTY = 10;
    private static final long DEPOSIT = 100_000_000;
    private static final long SEEDED = 1_000;

    private TestStack stack;
    @AutoClose
    private BrokerProcess broker;
    @AutoClose
    private Exchange exchange;

    @BeforeAll
    void start(StackContext context) {
        stack = TestStack.of(context);
        String address = stack.testAddress(21);
        broker = new BrokerProcess(stack, "nvirginia", address, Path.of("target", "crash-recovery-broker.log"));
        broker.start();
        exchange = new Exchange(stack.kafkaBootstrap("nvirginia"), stack.topics());
    }

    @Test
    void a_broker_killed_mid_stream_loses_no_fill_and_duplicates_none() throws InterruptedException {
        BrokerApi api = broker.api;
        String run = UUID.randomUUID().toString().substring(0, 6);
        String buyer = api.customer("buyer" + run, DEPOSIT);
        String seller = api.customer("seller" + run, DEPOSIT);
        Map<String, String> owners = new HashMap<>();
        for (String symbol : SYMBOLS) {
            assertThat(api.seedShares("seller" + run, symbol, SEEDED).status()).isEqualTo(201);
            for (int i = 0; i < ORDERS_PER_SIDE; i++) {
                owners.put(place(api, buyer, "b-" + symbol + i, symbol, "BUY"), buyer);
                owners.put(place(api, seller, "s-" + symbol + i, symbol, "SELL"), seller);
            }
        }
        int tickersPerSymbol = 2 * ORDERS_PER_SIDE;
        // Each ticker offers exactly one order's quantity, so every ticker fills exactly one order.
        // The stream keeps flowing while the broker is killed and restarted.
        Thread stream = new Thread(() -> {
            for (int t = 0; t < tickersPerSymbol; t++) {
                for (String symbol : SYMBOLS) {
                    exchange.tick(symbol, PRICE, QTY);
                }
            }
        }, "ticker-stream");
        stream.start();
        await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(10))
                .until(() -> exchange.fills().size() >= 5);
        broker.kill();
        int seenBeforeKill = Books.distinctIds(exchange.fills()).size();
        broker.start();
        stream.join(60_000);

        int expectedFills = owners.size();
        await().atMost(Duration.ofSeconds(120)).pollInterval(Duration.ofMillis(500))
                .until(() -> Books.distinctIds(exchange.fills()).size() >= expectedFills);
        List<Fill> fills = exchange.fills();
        Map<String, Set<String>> idsPerOrder = Books.idsPerOrder(fills);

        assertThat(seenBeforeKill).as("the kill came mid-stream").isLessThan(expectedFills);
        assertThat(idsPerOrder.keySet()).containsExactlyInAnyOrderElementsOf(owners.keySet());
        assertThat(idsPerOrder.values()).as("one fill per order, however often published").allSatisfy(ids ->
                assertThat(ids).hasSize(1));
        for (Map.Entry<String, String> e : owners.entrySet()) {
            BrokerApi.Response order = api.order(e.getValue(), e.getKey());
            assertThat(order.text("status")).isEqualTo("FILLED");
            assertThat(order.number("filledQuantity")).isEqualTo(QTY);
        }

        assertThat(Books.ledger(api, buyer, "BUY")).isEqualTo((long) SYMBOLS.length * ORDERS_PER_SIDE);
        assertThat(Books.ledger(api, seller, "SELL")).isEqualTo((long) SYMBOLS.length * ORDERS_PER_SIDE);

        List<Fill> unique = Books.unique(fills);
        long customersCash = Books.total(api.cash(buyer, "USD")) + Books.total(api.cash(seller, "USD"));
        assertThat(customersCash + Books.exchangeCash(unique)).as("cash is conserved").isEqualTo(2 * DEPOSIT);
        for (String symbol : SYMBOLS) {
            long customersShares = Books.total(api.shares(buyer, symbol)) + Books.total(api.shares(seller, symbol));
            assertThat(customersShares + Books.exchangeShares(unique, symbol)).as("%s shares are conserved", symbol)
                    .isEqualTo(SEEDED);
        }
        System.out.printf("crash recovery: %d distinct fills before SIGKILL, %d after restart, %d publications "
                + "(%d repeated, same ids)%n", seenBeforeKill, unique.size(), fills.size(), fills.size() - unique.size());
    }

    private static String place(BrokerApi api, String token, String client, String symbol, String side) {
        BrokerApi.Response r = api.place(token, client, symbol, side, "LIMIT", QTY, "limitPrice", PRICE,
                "timeInForce", "GTC");
        assertThat(r.status()).as("%s", r.body()).isEqualTo(201);
        return r.text("orderId");
    }
}
