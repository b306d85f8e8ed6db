package io.geobroker.broker.matching;

import io.geobroker.domain.OrderStatus;
import io.geobroker.domain.Side;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class GenerationsTest {

    private final SymbolState aapl = TestOrders.symbol("AAPL");
    private final SymbolState msft = TestOrders.symbol("MSFT");
    private final Map<String, SymbolState> symbols = Map.of("AAPL", aapl, "MSFT", msft);

    private OrderState order(String symbol, OrderStatus status, int persistedGeneration) {
        OrderState o = TestOrders.order(symbol, Side.BUY, 1, 100);
        o.status = status;
        o.persistedGeneration = persistedGeneration;
        return o;
    }

    @Test
    void only_orders_that_rest_in_a_book_keep_an_open_orders_row() {
        assertThat(Generations.rests(order("AAPL", OrderStatus.OPEN, -1))).isTrue();
        assertThat(Generations.rests(order("AAPL", OrderStatus.PARTIALLY_FILLED, -1))).isTrue();
        assertThat(Generations.rests(order("AAPL", OrderStatus.PENDING, -1))).isFalse();
        assertThat(Generations.rests(order("AAPL", OrderStatus.FILLED, -1))).isFalse();
        assertThat(Generations.rests(order("AAPL", OrderStatus.CANCELLED, -1))).isFalse();
    }

    @Test
    void a_group_deletes_the_rows_of_orders_leaving_the_current_partition() {
        aapl.generation = 3;
        msft.generation = 1;
        List<OrderState> orders = List.of(
                order("AAPL", OrderStatus.FILLED, 3),
                order("AAPL", OrderStatus.CANCELLED, 3),
                order("AAPL", OrderStatus.EXPIRED, 2),   // an older partition: not counted against the current one
                order("AAPL", OrderStatus.REJECTED, -1), // never had a row
                order("AAPL", OrderStatus.OPEN, 3),      // still rests
                order("MSFT", OrderStatus.FILLED, 1));

        assertThat(Generations.deletions(orders, symbols)).containsOnly(Map.entry(aapl, 2), Map.entry(msft, 1));
    }

    @Test
    void a_symbol_moves_when_the_group_would_bring_its_partition_to_the_limit() {
        assertThat(Generations.mustMove(99, 10, 100)).isFalse();
        assertThat(Generations.mustMove(100, 10, 100)).isTrue();
        assertThat(Generations.mustMove(497, 10, 100)).isTrue();
    }

    @Test
    void a_large_book_moves_after_tombstones_in_proportion_to_its_orders() {
        int resting = 2_000;
        int limit = Generations.TOMBSTONES_PER_RESTING_ORDER * resting;

        assertThat(Generations.mustMove(limit - 1, resting, 100)).as("a copy of every resting order amortised over "
                + "as many deletions per order").isFalse();
        assertThat(Generations.mustMove(limit, resting, 100)).isTrue();
        assertThat(Generations.mustMove(limit - 1, 0, 100)).as("an emptied book moves at the fixed limit").isTrue();
    }
}
