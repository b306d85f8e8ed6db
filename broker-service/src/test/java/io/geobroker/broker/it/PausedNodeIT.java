package io.geobroker.broker.it;

import io.geobroker.domain.Fill;
import io.geobroker.testsupport.StackContext;
import io.geobroker.testsupport.WithLocalStack;
import org.awaitility.core.ThrowingRunnable;
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
 * The engine while the region's Cassandra node is paused (SIGSTOP, by pid) and after it runs again
 * (SIGCONT, always sent):
 * <ul>
 * <li>A group whose single batch is not confirmed (one ticker filling 200 orders): instead of
 * sending the same large batch again and again to a node that could not apply it, the engine writes
 * the group through its redo journal in small batches once the node answers again. Every order gets
 * exactly one fill, the fills carry one write timestamp, the journal ends cleared, and cash and
 * shares are conserved.</li>
 * <li>A fill that needs an account the engine has not read yet (the buyer's holding of the symbol):
 * the read is not answered, and the engine reads again until it is instead of stopping. The fill is
 * made once, the broker stays ready, and the next order is matched.</li>
 * </ul>
 */
@WithLocalStack
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class PausedNodeIT {

    private static final String SYMBOL = "WFC";
    private static final String REREAD_SYMBOL = "JPM";
    private static final int ORDERS_PER_SIDE = 100;
    private static final long SEEDED = 5_000;

    private StackContext context;
    private TestStack stack;
    @AutoClose
    private InProcessBroker broker;
    @AutoClose
    private Exchange exchange;

    @BeforeAll
    void start(StackContext context) {
        this.context = context;
        stack = TestStack.of(context);
        // The group (~200 kB) fits one batch (max-batch-bytes 1 MiB) but not one split batch (64 KiB);
        // its 200 open-order deletions stay in the symbol's partition (no generation move, whose
        // writes would wait for the paused node before the group's batch is even sent).
        broker = new InProcessBroker(stack, "nvirginia", stack.testAddress(26), Map.of(
                "geobroker.engine.max-batch-bytes", 1_048_576, "geobroker.engine.deletions-per-generation", 1_000));
        exchange = new Exchange(stack.kafkaBootstrap("nvirginia"), stack.topics());
    }

    @Test
    void a_batch_not_confirmed_is_written_again_in_small_batches_exactly_once() throws Exception {
        // Both customers' cash and shares of the symbol are loaded by the engine before the node is
        // paused, so the only Cassandra call the ticker makes it wait for is the group's batch.
        CrossingOrders orders = new CrossingOrders(broker.api, "split", SYMBOL, ORDERS_PER_SIDE, SEEDED, SEEDED);

        Ticked ticked = tickWhilePaused(orders, () -> assertThat(broker.api.rawText("/actuator/prometheus"))
                .as("the group's batch timed out and the group was split")
                .containsPattern("geobroker_engine_split_groups_total\\{region=\"nvirginia\"} [1-9]"));

        orders.assertFilledOnceWithBooksBalanced(ticked.fills());
        JournalChecks.assertOneGroupThroughTheJournal(stack.session("nvirginia"), "nvirginia", SYMBOL, ticked.sequence(),
                orders.owners.size());
    }

    @Test
    void an_account_read_not_answered_is_read_again_and_the_engine_goes_on() throws Exception {
        // The buyer has cash (read by the engine for the deposit and the order's reservation) but
        // no shares of the symbol: the engine reads the buyer's holding only when the fill needs it.
        CrossingOrders orders = new CrossingOrders(broker.api, "reread", REREAD_SYMBOL, 1, CrossingOrders.QTY, 0);
        double before = rereads();

        Ticked ticked = tickWhilePaused(orders, () -> assertThat(rereads())
                .as("the holding's read failed and was made again").isGreaterThan(before));

        orders.assertFilledOnceWithBooksBalanced(ticked.fills());
        assertThat(broker.api.get(null, "/actuator/health/readiness").status())
                .as("the engine kept running: the broker is ready").isEqualTo(200);

        // The engine goes on matching: a second pair of orders is filled by the next ticker.
        CrossingOrders next = new CrossingOrders(broker.api, "reread-next", REREAD_SYMBOL, 1, CrossingOrders.QTY, 0);
        long nextSequence = exchange.tick(REREAD_SYMBOL, CrossingOrders.PRICE, next.totalQuantity());
        await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(200))
                .until(() -> fillsOf(REREAD_SYMBOL).stream().anyMatch(f -> f.tickerSequence() == nextSequence));
        next.assertFilledOnceWithBooksBalanced(fillsOf(REREAD_SYMBOL).stream()
                .filter(f -> f.tickerSequence() == nextSequence).toList());
    }

    /** A ticker's sequence and the fills published for it. */
    private record Ticked(long sequence, List<Fill> fills) {
    }

    /**
     * Pauses the region's Cassandra node, publishes the ticker that fills every one of {@code orders},
     * waits until {@code whilePaused} holds with nothing of the ticker published, lets the node run
     * again (always), and returns the ticker's fills once each order has one.
     */
    private Ticked tickWhilePaused(CrossingOrders orders, ThrowingRunnable whilePaused) throws Exception {
        long node = NodeSignals.pid(context, "cassandra-nvirginia-1");
        long sequence;
        NodeSignals.signal("STOP", node);
        try {
            sequence = exchange.tick(orders.symbol, CrossingOrders.PRICE, orders.totalQuantity());
            await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(200)).untilAsserted(whilePaused);
            assertThat(fillsOf(orders.symbol)).as("nothing of the group is published before it is durable").isEmpty();
        } finally {
            NodeSignals.signal("CONT", node);
        }

        await().atMost(Duration.ofSeconds(120)).pollInterval(Duration.ofMillis(500))
                .until(() -> Books.distinctIds(fillsOf(orders.symbol)).size() >= orders.owners.size());
        List<Fill> fills = fillsOf(orders.symbol);
        assertThat(fills).extracting(Fill::tickerSequence).containsOnly(sequence);
        return new Ticked(sequence, fills);
    }

    private List<Fill> fillsOf(String symbol) {
        return exchange.fills().stream().filter(f -> f.symbol().equals(symbol)).toList();
    }

    private double rereads() {
        return broker.api.rawText("/actuator/prometheus").lines()
                .filter(l -> l.startsWith("geobroker_engine_account_rereads_total{"))
                .mapToDouble(l -> Double.parseDouble(l.substring(l.lastIndexOf(' ') + 1))).sum();
    }
}
