package io.geobroker.broker.it;

import io.geobroker.domain.Fill;
import io.geobroker.stack.LocalStack;
import io.geobroker.testsupport.StackContext;
import io.geobroker.testsupport.WithLocalStack;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A group whose single batch is not confirmed: the region's Cassandra node is paused (SIGSTOP)
 * while one ticker fills 200 orders, so the group's logged batch times out. Instead of sending the same large batch again and again to a node that
 * could not apply it, the engine writes the group through its redo journal in small batches once the
 * node answers again (SIGCONT): every order gets exactly one fill, the fills carry one write
 * timestamp, the journal ends cleared, and cash and shares are conserved.
 */
@WithLocalStack
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class SplitGroupIT {

    private static final String SYMBOL = "WFC";
    private static final int ORDERS_PER_SIDE = 100;
    private static final long SEEDED = 5_000;

    private StackContext context;
    private TestStack stack;
    private InProcessBroker broker;
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
    void a_batch_not_confirmed_is_written_again_in_small_batches_exactly_once() throws Exception {
        // Both customers' cash and shares of the symbol are loaded by the engine before the node is
        // paused, so the only Cassandra call the ticker makes it wait for is the group's batch.
        CrossingOrders orders = new CrossingOrders(broker.api, "split", SYMBOL, ORDERS_PER_SIDE, SEEDED, SEEDED);

        long node = nodePid("cassandra-nvirginia-1");
        long sequence;
        signal("STOP", node);
        try {
            sequence = exchange.tick(SYMBOL, CrossingOrders.PRICE, orders.totalQuantity());
            await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(200))
                    .untilAsserted(() -> assertThat(broker.api.rawText("/actuator/prometheus"))
                            .as("the group's batch timed out and the group was split")
                            .containsPattern("geobroker_engine_split_groups_total\\{region=\"nvirginia\"} [1-9]"));
            assertThat(exchange.fills()).as("nothing of the group is published before it is durable").isEmpty();
        } finally {
            signal("CONT", node);
        }

        await().atMost(Duration.ofSeconds(120)).pollInterval(Duration.ofMillis(500))
                .until(() -> Books.distinctIds(exchange.fills()).size() >= orders.owners.size());
        List<Fill> fills = exchange.fills();
        assertThat(fills).extracting(Fill::tickerSequence).containsOnly(sequence);
        orders.assertFilledOnceWithBooksBalanced(fills);
        JournalChecks.assertOneGroupThroughTheJournal(stack.session("nvirginia"), "nvirginia", SYMBOL, sequence,
                orders.owners.size());
    }

    private long nodePid(String name) {
        return context.stack().processes().stream().filter(p -> p.name().equals(name) && p.alive())
                .mapToLong(LocalStack.ProcessInfo::pid).findFirst()
                .orElseThrow(() -> new IllegalStateException("no running " + name + " in " + context.stack().processes()));
    }

    /** Sends SIGSTOP or SIGCONT to one process of the test stack, by pid. */
    private static void signal(String signal, long pid) throws IOException, InterruptedException {
        Process kill = new ProcessBuilder("kill", "-" + signal, Long.toString(pid)).inheritIO().start();
        assertThat(kill.waitFor()).as("kill -%s %d", signal, pid).isZero();
    }
}
