package io.geobroker.broker.matching;

import io.geobroker.schema.Migration;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.function.Function;

import static org.assertj.core.api.Assertions.assertThat;

class HealResendTest {

    @Test
    void only_rows_other_regions_read_are_kept_to_be_written_again() {
        Function<String, String> table = s -> s.substring(0, s.indexOf(':'));
        List<String> group = List.of("customer_orders:a", "engine_log:1", "cash:a", "symbol_state:IBM",
                "symbol_orders:IBM", "symbol_fills:IBM", "transactions:a", "holdings:a", "engine_journal:r",
                "order_inbox:x", "orders_by_customer:a");
        assertThat(HealResend.sharedRows(group, table)).containsExactly("customer_orders:a", "cash:a",
                "transactions:a", "holdings:a", "order_inbox:x", "orders_by_customer:a");
        List<String> customers = List.of("customer_orders:a", "cash:a");
        assertThat(HealResend.sharedRows(customers, table)).as("nothing to leave out: the same list")
                .isSameAs(customers);
        assertThat(HealResend.sharedRows(List.of("symbol_state:IBM", "engine_log:2"), table)).isEmpty();
    }

    @Test
    void the_home_only_tables_are_tables_of_the_schema() {
        String schema = String.join("\n", Migration.onClassPath(getClass().getClassLoader()).stream()
                .map(Migration::text).toList());
        assertThat(HealResend.HOME_ONLY_TABLES).allSatisfy(t -> assertThat(schema)
                .containsPattern("(?i)CREATE TABLE (IF NOT EXISTS )?(\\S+\\.)?" + t + "\\s*\\("));
    }

    @Test
    void another_dc_is_cut_off_when_a_majority_of_its_nodes_is_down() {
        assertThat(HealResend.lostMajority(1, 1)).as("its only node").isTrue();
        assertThat(HealResend.lostMajority(1, 0)).isFalse();
        assertThat(HealResend.lostMajority(3, 1)).as("one of three: two replicas take every write").isFalse();
        assertThat(HealResend.lostMajority(3, 2)).isTrue();
        assertThat(HealResend.lostMajority(3, 3)).isTrue();
        assertThat(HealResend.lostMajority(2, 1)).as("one of two: no quorum of two").isTrue();
        assertThat(HealResend.lostMajority(5, 2)).isFalse();
        assertThat(HealResend.lostMajority(5, 3)).isTrue();
    }

    @Test
    void a_cut_ends_only_with_an_answer_to_a_probe_sent_since_it_was_noticed_from_every_peer() {
        long noticed = 1_000;
        List<String> peers = List.of("sydney", "nvirginia");
        assertThat(HealResend.answeredSince(peers, Map.of(), noticed)).as("no answer yet").isFalse();
        assertThat(HealResend.answeredSince(peers, Map.of("sydney", noticed + 5), noticed))
                .as("one peer of two").isFalse();
        assertThat(HealResend.answeredSince(peers,
                Map.of("sydney", noticed + 5, "nvirginia", noticed - 1), noticed))
                .as("an answer to a probe sent before the cut was noticed").isFalse();
        assertThat(HealResend.answeredSince(peers,
                Map.of("sydney", noticed + 5, "nvirginia", noticed), noticed)).isTrue();
        assertThat(HealResend.answeredSince(List.of(), Map.of(), noticed)).as("no peers: the nodes decide").isTrue();
        long nearWrap = Long.MAX_VALUE - 10;
        assertThat(HealResend.answeredSince(List.of("sydney"), Map.of("sydney", nearWrap + 20), nearWrap))
                .as("nanoTime values compared across their wrap").isTrue();
        assertThat(HealResend.later(noticed, noticed + 5)).isEqualTo(noticed + 5);
        assertThat(HealResend.later(noticed + 5, noticed)).as("an answer to an older probe arriving late").isEqualTo(noticed + 5);
        assertThat(HealResend.later(nearWrap, nearWrap + 20)).as("across the wrap").isEqualTo(nearWrap + 20);
    }
}
