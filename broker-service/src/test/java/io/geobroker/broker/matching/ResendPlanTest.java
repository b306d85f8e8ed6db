package io.geobroker.broker.matching;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ResendPlanTest {

    /**
     * Statements as "partition:what" or "partition:row:cells"; one with "lwt" after the first colon
     * cannot carry its own timestamp, and the timestamped form is the statement with "@timestamp". A
     * statement weighs its length.
     */
    private static final ResendPlan.Form<String> FORM = new ResendPlan.Form<>() {
        @Override
        public String at(String statement, long timestampMicros) {
            return statement.contains(":lwt") ? null : statement + "@" + timestampMicros;
        }

        @Override
        public Object partition(String statement) {
            return statement.substring(0, statement.indexOf(':'));
        }

        @Override
        public long bytes(String statement) {
            return statement.length();
        }

        /** "partition:row:cells" names its row; "partition:what" none. */
        @Override
        public Object row(String statement) {
            String[] parts = statement.split(":");
            return parts.length == 3 ? parts[0] + ":" + parts[1] : null;
        }

        /** The letters after the second colon, a bit each. */
        @Override
        public long cells(String statement) {
            String[] parts = statement.split(":");
            long cells = 0;
            for (char c : parts.length == 3 ? parts[2].toCharArray() : new char[0]) {
                cells |= 1L << (c - 'a');
            }
            return cells;
        }
    };

    private static RecentWrites.Entry<String> entry(long timestamp, boolean first, String... statements) {
        return new RecentWrites.Entry<>(timestamp, timestamp, List.of(statements), 10, first);
    }

    private static List<List<String>> statements(List<ResendPlan.Batch<String>> batches) {
        return batches.stream().map(ResendPlan.Batch::statements).toList();
    }

    @Test
    void statements_of_many_groups_share_one_batch_per_partition_each_with_its_own_timestamp() {
        List<ResendPlan.Batch<String>> batches = new ResendPlan<>(FORM, 1 << 20).batches(List.of(
                entry(1, false, "alice:order", "alice:cash", "AAPL:state"),
                entry(2, false, "bob:cash", "AAPL:state"),
                entry(3, false, "alice:cash")));

        assertThat(statements(batches)).containsExactly(
                List.of("alice:order@1", "alice:cash@1", "alice:cash@3"),
                List.of("AAPL:state@1", "AAPL:state@2"),
                List.of("bob:cash@2"));
        assertThat(batches).allMatch(ResendPlan.Batch::ownTimestamps);
    }

    @Test
    void every_kept_statement_is_written_again_once() {
        List<RecentWrites.Entry<String>> entries = List.of(entry(5, true, "x:a", "y:b"), entry(6, false, "x:c"),
                entry(7, false, "z:d", "y:e"), entry(8, true, "z:f"));
        List<String> written = new ResendPlan<>(FORM, 8).batches(entries).stream()
                .flatMap(b -> b.statements().stream()).toList();

        assertThat(written).containsExactlyInAnyOrder("x:a@5", "y:b@5", "x:c@6", "z:d@7", "y:e@7", "z:f@8");
    }

    @Test
    void the_entries_marked_first_keep_their_partitions_batches_ahead_of_the_others() {
        List<ResendPlan.Batch<String>> batches = new ResendPlan<>(FORM, 1 << 20).batches(List.of(
                entry(1, false, "alice:cash"),
                entry(2, true, "alice:pending", "inbox:row"),
                entry(3, false, "inbox:processed")));

        assertThat(statements(batches)).containsExactly(
                List.of("alice:pending@2"), List.of("inbox:row@2"),
                List.of("alice:cash@1"), List.of("inbox:processed@3"));
    }

    @Test
    void a_partition_is_cut_into_batches_of_at_most_max_bytes() {
        // each statement weighs 9 bytes ("p:s1@1000"): two fit in 20, a third does not
        List<ResendPlan.Batch<String>> batches = new ResendPlan<>(FORM, 20).batches(List.of(
                entry(1000, false, "p:s1", "p:s2", "p:s3"), entry(2000, false, "p:s4", "p:s5")));

        assertThat(statements(batches)).containsExactly(
                List.of("p:s1@1000", "p:s2@1000"), List.of("p:s3@1000", "p:s4@2000"), List.of("p:s5@2000"));
    }

    @Test
    void a_statement_larger_than_max_bytes_is_a_batch_of_its_own() {
        List<ResendPlan.Batch<String>> batches = new ResendPlan<>(FORM, 4).batches(List.of(entry(1, false, "p:big", "p:big2")));

        assertThat(statements(batches)).containsExactly(List.of("p:big@1"), List.of("p:big2@1"));
    }

    @Test
    void an_entry_with_a_statement_that_cannot_carry_its_timestamp_is_written_as_it_was() {
        List<ResendPlan.Batch<String>> batches = new ResendPlan<>(FORM, 1 << 20).batches(List.of(
                entry(1, false, "alice:cash"),
                entry(2, false, "alice:order", "alice:lwt"),
                entry(3, false, "alice:holding")));

        assertThat(batches).hasSize(2);
        assertThat(batches.get(0).statements()).containsExactly("alice:cash@1", "alice:holding@3");
        assertThat(batches.get(0).ownTimestamps()).isTrue();
        assertThat(batches.get(1).statements()).as("the whole entry, unchanged").containsExactly("alice:order", "alice:lwt");
        assertThat(batches.get(1).ownTimestamps()).isFalse();
        assertThat(batches.get(1).timestampMicros()).isEqualTo(2);
    }

    @Test
    void nothing_kept_is_nothing_to_write() {
        assertThat(new ResendPlan<>(FORM, 10).batches(List.of())).isEmpty();
        assertThatThrownBy(() -> new ResendPlan<>(FORM, 0)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void a_statement_whose_every_cell_a_later_one_of_its_row_writes_again_is_left_out() {
        List<ResendPlan.Batch<String>> batches = new ResendPlan<>(FORM, 1 << 20).batches(List.of(
                entry(1, false, "alice:cash:ab", "alice:order:abc"),
                entry(2, false, "alice:cash:ab", "alice:order:a"),
                entry(3, false, "alice:cash:a", "alice:order:bc")));

        assertThat(statements(batches)).as("cash@1 is overwritten by cash@2; order@1 by order@2 and order@3 together")
                .containsExactly(List.of("alice:cash:ab@2", "alice:order:a@2", "alice:cash:a@3", "alice:order:bc@3"));
    }

    @Test
    void writes_of_one_timestamp_do_not_overwrite_each_other_and_rows_without_a_name_are_always_written() {
        List<ResendPlan.Batch<String>> batches = new ResendPlan<>(FORM, 1 << 20).batches(List.of(
                entry(5, false, "p:row:a", "p:row:a", "p:delete"),
                entry(6, false, "p:delete")));

        assertThat(statements(batches)).containsExactly(List.of("p:row:a@5", "p:row:a@5", "p:delete@5", "p:delete@6"));
    }

    @Test
    void a_later_write_marked_otherwise_does_not_make_an_earlier_one_needless() {
        // the entries marked first go ahead of the others: an overwrite is judged within each kind
        List<ResendPlan.Batch<String>> batches = new ResendPlan<>(FORM, 1 << 20).batches(List.of(
                entry(1, true, "alice:pending:ab"), entry(2, false, "alice:pending:ab")));

        assertThat(statements(batches)).containsExactly(List.of("alice:pending:ab@1"), List.of("alice:pending:ab@2"));
    }
}
