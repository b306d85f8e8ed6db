package io.geobroker.broker.matching;

import io.geobroker.domain.Side;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class GroupTest {

    private final Group group = new Group(new WriteClock());

    @Test
    void the_write_timestamp_is_fixed_at_its_first_use_so_a_retried_batch_is_identical() {
        long first = group.timestampMicros();

        assertThat(group.timestampMicros()).isEqualTo(first);
        group.clear();
        assertThat(group.timestampMicros()).isGreaterThan(first);
    }

    @Test
    void a_row_written_elsewhere_with_a_later_clock_moves_the_group_timestamp_above_it() {
        long fixed = group.timestampMicros();
        long foreign = fixed + 5_000_000;

        group.writeAfter(foreign);

        assertThat(group.timestampMicros()).isGreaterThan(foreign);
    }

    @Test
    void a_row_written_elsewhere_earlier_leaves_the_group_timestamp_alone() {
        long fixed = group.timestampMicros();

        group.writeAfter(fixed - 1);

        assertThat(group.timestampMicros()).isEqualTo(fixed);
    }

    @Test
    void a_timestamp_taken_after_a_foreign_write_is_above_it() {
        long foreign = System.currentTimeMillis() * 1000 + 60_000_000;

        group.writeAfter(foreign);

        assertThat(group.timestampMicros()).isGreaterThan(foreign);
    }

    @Test
    void the_statement_estimate_counts_three_per_order_and_one_per_other_row() {
        SymbolState aapl = TestOrders.symbol("AAPL");
        OrderState o = TestOrders.order("AAPL", Side.BUY, 10, 100);
        group.orders.put(o.id, o);
        group.cash.add(new CashAccount("c1", "USD", 0, 0));
        group.holdings.add(new Holding("c1", "AAPL", 0, 0));
        group.symbols.add(aapl);

        assertThat(group.statementEstimate()).isEqualTo(3 + 1 + 1 + 1);
    }

    @Test
    void a_group_is_empty_until_a_command_or_a_row_is_in_it_and_again_after_clear() {
        assertThat(group.isEmpty()).isTrue();
        group.symbols.add(TestOrders.symbol("AAPL"));
        assertThat(group.isEmpty()).isFalse();
        group.clear();
        assertThat(group.isEmpty()).isTrue();
        group.commands++;
        assertThat(group.isEmpty()).isFalse();
        group.clear();
        assertThat(group.isEmpty()).isTrue();
        assertThat(group.timestamp).isEqualTo(-1);
    }
}
