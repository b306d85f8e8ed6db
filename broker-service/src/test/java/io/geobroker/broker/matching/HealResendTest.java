package io.geobroker.broker.matching;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class HealResendTest {

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
