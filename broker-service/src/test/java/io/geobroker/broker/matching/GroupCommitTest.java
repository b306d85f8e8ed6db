package io.geobroker.broker.matching;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class GroupCommitTest {

    @Test
    void a_symbol_keeps_pointing_at_the_group_in_flight_until_kafka_acknowledged_its_fills() {
        assertThat(GroupCommit.lastGroupFirstSequence(120, 97L)).isEqualTo(97);
    }

    @Test
    void a_symbol_without_fills_in_flight_points_at_this_group() {
        assertThat(GroupCommit.lastGroupFirstSequence(120, null)).isEqualTo(120);
    }
}
