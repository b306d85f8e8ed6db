package io.geobroker.broker.it;

import io.geobroker.domain.Fill;
import io.geobroker.testsupport.StackContext;
import io.geobroker.testsupport.WithLocalStack;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import java.time.Duration;
import java.util.Map;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A group that fills an order is committed after the fill commit interval, not the commit
 * interval: with a commit interval of 6 s and a fill commit interval of 0, a resting order's
 * placement waits for the interval, and the ticker that fills it right after does not.
 */
@WithLocalStack
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class FillCommitIT {

    private static final Duration COMMIT_INTERVAL = Duration.ofSeconds(6);
    /** Used by no other broker test, so no other test's orders or tickers meet this one's. */
    private static final String SYMBOL = "INTU";

    @AutoClose
    private InProcessBroker broker;
    @AutoClose
    private Exchange exchange;

    @BeforeAll
    void start(StackContext context) {
        TestStack stack = TestStack.of(context);
        broker = new InProcessBroker(stack, "nvirginia", stack.testAddress(45), Map.of(
                "geobroker.engine.commit-interval", COMMIT_INTERVAL.toMillis() + "ms",
                "geobroker.engine.fill-commit-interval", "0ms"));
        exchange = new Exchange(stack.kafkaBootstrap("nvirginia"), stack.topics());
    }

    @Test
    void the_ticker_that_fills_an_order_does_not_wait_out_the_commit_interval() {
        BrokerApi api = broker.api;
        String token = api.customer("fc" + UUID.randomUUID().toString().substring(0, 8), 1_000_000);

        long before = System.nanoTime();
        BrokerApi.Response placed = api.place(token, "rest-1", SYMBOL, "BUY", "LIMIT", 10, "limitPrice", 5_000,
                "timeInForce", "GTC");
        Duration placing = Duration.ofNanos(System.nanoTime() - before);
        assertThat(placed.status()).as("%s", placed.body()).isEqualTo(201);
        // The deposit's group was written just before: the placement's group, which fills nothing,
        // waits for the commit interval from that write's start.
        assertThat(placing).as("the resting order's group waited for the commit interval")
                .isGreaterThan(COMMIT_INTERVAL.dividedBy(2));
        String orderId = placed.text("orderId");

        exchange.tick(SYMBOL, 5_000, 100);
        await().atMost(Duration.ofSeconds(30)).until(() -> !exchange.fillsOf(orderId).isEmpty());
        Fill fill = exchange.fillsOf(orderId).get(0);
        assertThat(fill.price()).isEqualTo(5_000);
        assertThat(fill.durableTimeMicros() - fill.tickerExchangeTimeMicros())
                .as("the fill's group was written without waiting for the commit interval (µs from the ticker to durable)")
                .isLessThan(COMMIT_INTERVAL.dividedBy(2).toNanos() / 1_000);
    }
}
