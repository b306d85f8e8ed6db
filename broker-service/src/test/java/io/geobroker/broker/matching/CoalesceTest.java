package io.geobroker.broker.matching;

import io.geobroker.broker.matching.Coalesce.Shape;
import io.geobroker.broker.matching.Coalesce.Write;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;

class CoalesceTest {

    private static final UUID A = UUID.fromString("00000000-0000-0000-0000-00000000000a");
    private static final UUID B = UUID.fromString("00000000-0000-0000-0000-00000000000b");

    private static Write<String> state(String name, String symbol, long cells) {
        return new Write<>(Shape.SYMBOL_STATE, symbol, 0, null, 0, cells, name);
    }

    private static Write<String> open(String name, String symbol, int generation, UUID order, long cells) {
        return new Write<>(Shape.OPEN_ORDER, symbol, generation, order, 0, cells, name);
    }

    private static Write<String> deleteOpen(String name, String symbol, int generation, UUID order) {
        return new Write<>(Shape.DELETE_OPEN_ORDER, symbol, generation, order, 0, 0b111, name);
    }

    private static Write<String> deleteGeneration(String name, String symbol, int generation) {
        return new Write<>(Shape.DELETE_GENERATION, symbol, generation, null, 0, 0b11, name);
    }

    private static Write<String> deleteThrough(String name, String symbol, int generation) {
        return new Write<>(Shape.DELETE_GENERATIONS_THROUGH, symbol, generation, null, 0, 0b11, name);
    }

    private static Write<String> fill(String name, String symbol, long sequence) {
        return new Write<>(Shape.FILL, symbol, 0, null, sequence, 0b111, name);
    }

    private static Write<String> deleteFills(String name, String symbol, long before) {
        return new Write<>(Shape.DELETE_FILLS_BEFORE, symbol, 0, null, before, 0b11, name);
    }

    private static List<List<String>> names(List<List<Write<String>>> kept) {
        return kept.stream().map(g -> g.stream().map(Write::statement).toList()).toList();
    }

    @Test
    void other_statements_are_all_written_and_cover_nothing() {
        // a customer's cash row written by two groups, between symbol statements
        Write<String> cash1 = new Write<>(Shape.OTHER, null, 0, null, 0, 0, "c1");
        Write<String> cash2 = new Write<>(Shape.OTHER, null, 0, null, 0, 0, "c2");
        var kept = Coalesce.keep(List.of(
                List.of(cash1, state("s1", "AAPL", 0b0111)),
                List.of(cash2, state("s2", "AAPL", 0b0111))));

        assertThat(names(kept)).containsExactly(List.of("c1"), List.of("c2", "s2"));
    }

    @Test
    void a_symbol_state_is_written_once_with_its_last_values() {
        var kept = Coalesce.keep(List.of(
                List.of(state("s1", "AAPL", 0b0111), state("t1", "MSFT", 0b0111)),
                List.of(state("s2", "AAPL", 0b1111)),
                List.of(state("s3", "AAPL", 0b1111))));

        assertThat(names(kept)).containsExactly(List.of("t1"), List.of(), List.of("s3"));
    }

    @Test
    void an_upsert_that_writes_a_cell_the_later_ones_do_not_is_kept() {
        // the first group wrote the quote's columns, the later one left them unset
        var kept = Coalesce.keep(List.of(
                List.of(state("s1", "AAPL", 0b1111)),
                List.of(state("s2", "AAPL", 0b0011))));

        assertThat(names(kept)).containsExactly(List.of("s1"), List.of("s2"));
    }

    @Test
    void cells_written_by_several_later_upserts_together_cover_an_earlier_one() {
        var kept = Coalesce.keep(List.of(
                List.of(open("o1", "AAPL", 3, A, 0b1111)),
                List.of(open("o2", "AAPL", 3, A, 0b0111)),
                List.of(open("o3", "AAPL", 3, A, 0b1011))));

        assertThat(names(kept)).containsExactly(List.of(), List.of("o2"), List.of("o3"));
    }

    @Test
    void a_resting_order_deleted_later_is_not_written_and_its_deletion_is() {
        var kept = Coalesce.keep(List.of(
                List.of(open("a", "AAPL", 3, A, 0b111), open("b", "AAPL", 3, B, 0b111)),
                List.of(deleteOpen("del-a", "AAPL", 3, A))));

        assertThat(names(kept)).containsExactly(List.of("b"), List.of("del-a"));
    }

    @Test
    void a_deletion_does_not_cover_a_later_insert_of_the_same_row() {
        var kept = Coalesce.keep(List.of(
                List.of(deleteOpen("del-a", "AAPL", 3, A)),
                List.of(open("a", "AAPL", 3, A, 0b111))));

        assertThat(names(kept)).containsExactly(List.of("del-a"), List.of("a"));
    }

    @Test
    void a_dropped_generation_covers_its_rows_and_their_deletions_but_not_the_next_generation() {
        var kept = Coalesce.keep(List.of(
                List.of(open("a3", "AAPL", 3, A, 0b111), deleteOpen("del-b3", "AAPL", 3, B), open("a4", "AAPL", 4, A, 0b111),
                        deleteGeneration("drop-2", "AAPL", 2), open("m3", "MSFT", 3, A, 0b111)),
                List.of(deleteThrough("through-3", "AAPL", 3))));

        assertThat(names(kept)).containsExactly(List.of("a4", "m3"), List.of("through-3"));
    }

    @Test
    void a_narrower_generation_drop_is_covered_by_a_later_wider_one() {
        var kept = Coalesce.keep(List.of(
                List.of(deleteThrough("through-2", "AAPL", 2)),
                List.of(deleteThrough("through-4", "AAPL", 4)),
                List.of(deleteThrough("through-3", "AAPL", 3))));

        assertThat(names(kept)).containsExactly(List.of(), List.of("through-4"), List.of("through-3"));
    }

    @Test
    void fills_below_a_later_deletion_are_not_written_and_the_widest_deletion_is() {
        var kept = Coalesce.keep(List.of(
                List.of(fill("f10", "AAPL", 10), fill("f11", "AAPL", 11), deleteFills("before-5", "AAPL", 5)),
                List.of(fill("f12", "AAPL", 12), deleteFills("before-11", "AAPL", 11), fill("g10", "MSFT", 10))));

        assertThat(names(kept)).containsExactly(List.of("f11"), List.of("f12", "before-11", "g10"));
    }

    @Test
    void statements_of_one_group_do_not_cover_each_other() {
        // within a group, a fill above its own deletion's bound and an order inserted in a generation
        // it is not dropping: both stay; and nothing of the group is compared with itself
        var kept = Coalesce.keep(List.of(
                List.of(fill("f3", "AAPL", 3), deleteFills("before-9", "AAPL", 9), open("a", "AAPL", 1, A, 0b1),
                        deleteOpen("del-a", "AAPL", 1, A))));

        assertThat(names(kept)).containsExactly(List.of("f3", "before-9", "a", "del-a"));
    }
}
