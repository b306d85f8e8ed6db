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
 * A group far larger than one batch may be: with batches capped at 4 KiB, one ticker fills 200
 * orders, which the engine writes through its redo journal and then in many batches. Every order
 * gets exactly one fill, the journal ends cleared, and cash and shares are conserved.
 */
@WithLocalStack
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class OversizedGroupIT {

    private static final String SYMBOL = "JPM";
    private static final int ORDERS_PER_SIDE = 100;
    private static final long SEEDED = 5_000;

    private TestStack stack;
    @AutoClose
    private InProcessBroker broker;
    @AutoClose
    private Exchange exchange;

    @BeforeAll
    void start(StackContext context) {
        stack = TestStack.of(context);
        broker = new InProcessBroker(stack, "nvirginia", stack.testAddress(23),
                Map.of("geobroker.engine.max-batch-bytes", 4_096));
        exchange = new Exchange(stack.kafkaBootstrap("nvirginia"), stack.topics());
    }

    @Test
    void one_ticker_filling_200_orders_fills_each_exactly_once_through_the_journal() {
        CrossingOrders orders = new CrossingOrders(broker.api, "big", SYMBOL, ORDERS_PER_SIDE, SEEDED, 0);

        long sequence = exchange.tick(SYMBOL, CrossingOrders.PRICE, orders.totalQuantity());

        await().atMost(Duration.ofSeconds(120)).pollInterval(Duration.ofMillis(500))
                .until(() -> Books.distinctIds(exchange.fills()).size() >= orders.owners.size());
        List<Fill> fills = exchange.fills();
        assertThat(fills).extracting(Fill::tickerSequence).containsOnly(sequence);
        orders.assertFilledOnceWithBooksBalanced(fills);
        JournalChecks.assertOneGroupThroughTheJournal(stack.session("nvirginia"), "nvirginia", SYMBOL, sequence,
                orders.owners.size());
        assertThat(broker.api.rawText("/actuator/prometheus"))
                .containsPattern("geobroker_engine_oversized_groups_total\\{region=\"nvirginia\"} [1-9]");
    }
}
