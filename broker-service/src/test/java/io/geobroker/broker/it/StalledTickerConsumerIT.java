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
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The ticker consumer held past Kafka's poll interval: while the region's Cassandra node is paused
 * (SIGSTOP, by pid; SIGCONT always sent), the engine waits for its batch, its queue (4 commands
 * here) fills, and the consumer waits to hand it the next ticker, longer than its poll interval (2 s
 * here). The group takes its partitions away while offsets the engine made durable before the pause
 * wait to be committed; when the node runs again, the consumer rejoins without committing them (the
 * group would refuse it) and goes on: the next ticker fills the next orders. Before, the refused
 * commit ended the consumer's thread and the broker filled nothing more while it reported itself
 * healthy.
 */
@WithLocalStack
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class StalledTickerConsumerIT {

    private static final String SYMBOL = "XOM";
    private static final Duration POLL_INTERVAL = Duration.ofSeconds(2);
    private static final Pattern LAST_POLL = Pattern.compile(
            "kafka_consumer_last_poll_seconds_ago\\{[^}]*client_id=\"broker-tickers-nvirginia\"[^}]*} ([0-9.E+-]+)");

    private StackContext context;
    @AutoClose
    private InProcessBroker broker;
    @AutoClose
    private Exchange exchange;

    @BeforeAll
    void start(StackContext context) {
        this.context = context;
        TestStack stack = TestStack.of(context);
        // Offsets are committed only on revocation and at the stop (the interval outlasts the test), so
        // the offsets the engine made durable are still waiting to be committed when the group takes
        // the partitions away.
        broker = new InProcessBroker(stack, "nvirginia", stack.testAddress(43), Map.of(
                "geobroker.kafka.max-poll-interval", POLL_INTERVAL.toMillis() + "ms",
                "geobroker.kafka.offset-commit-interval", "10m",
                "geobroker.engine.queue-capacity", 4));
        exchange = new Exchange(stack.kafkaBootstrap("nvirginia"), stack.topics());
    }

    @Test
    void a_consumer_held_past_its_poll_interval_rejoins_and_the_next_ticker_fills() throws Exception {
        CrossingOrders before = new CrossingOrders(broker.api, "stalled-before", SYMBOL, 1, CrossingOrders.QTY, 0);
        long beforeSequence = exchange.tick(SYMBOL, CrossingOrders.PRICE, before.totalQuantity());
        await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(250))
                .until(() -> fillsOf(beforeSequence).size() >= before.owners.size());

        CrossingOrders first = new CrossingOrders(broker.api, "stalled", SYMBOL, 1, CrossingOrders.QTY, 0);
        long node = NodeSignals.pid(context, "cassandra-nvirginia-1");
        long firstSequence;
        NodeSignals.signal("STOP", node);
        try {
            firstSequence = exchange.tick(SYMBOL, CrossingOrders.PRICE, first.totalQuantity());
            for (int i = 0; i < 10; i++) {
                exchange.tick(SYMBOL, CrossingOrders.PRICE + 100, 1);
            }
            await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(250))
                    .untilAsserted(() -> assertThat(lastPollSecondsAgo())
                            .as("the consumer has not polled for twice its poll interval")
                            .isGreaterThan(2.0 * POLL_INTERVAL.toSeconds()));
        } finally {
            NodeSignals.signal("CONT", node);
        }
        await().atMost(Duration.ofSeconds(120)).pollInterval(Duration.ofMillis(500))
                .until(() -> fillsOf(firstSequence).size() >= first.owners.size());
        first.assertFilledOnceWithBooksBalanced(fillsOf(firstSequence));

        CrossingOrders next = new CrossingOrders(broker.api, "stalled-next", SYMBOL, 1, CrossingOrders.QTY, 0);
        long nextSequence = exchange.tick(SYMBOL, CrossingOrders.PRICE, next.totalQuantity());
        await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(250))
                .until(() -> fillsOf(nextSequence).size() >= next.owners.size());
        next.assertFilledOnceWithBooksBalanced(fillsOf(nextSequence));
        assertThat(lastPollSecondsAgo()).as("the consumer polls again").isLessThan(POLL_INTERVAL.toSeconds());
    }

    private List<Fill> fillsOf(long sequence) {
        return exchange.fills().stream().filter(f -> f.symbol().equals(SYMBOL) && f.tickerSequence() == sequence)
                .toList();
    }

    /** The ticker consumer's own figure, from the broker's metrics. */
    private double lastPollSecondsAgo() {
        Matcher m = LAST_POLL.matcher(broker.api.rawText("/actuator/prometheus"));
        assertThat(m.find()).as("the ticker consumer's last-poll metric").isTrue();
        return Double.parseDouble(m.group(1));
    }
}
