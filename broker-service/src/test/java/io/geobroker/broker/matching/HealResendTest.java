package io.geobroker.broker.matching;

import org.junit.jupiter.api.Test;

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
}
