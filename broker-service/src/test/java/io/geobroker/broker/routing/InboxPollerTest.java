package io.geobroker.broker.routing;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class InboxPollerTest {

    @Test
    void after_a_heal_the_inbox_is_swept_every_half_second_until_the_heal_sweeps_end() {
        long healed = 100_000;
        long until = healed + InboxPoller.HEAL_SWEEPS_MILLIS;
        assertThat(InboxPoller.nextHealSweep(healed, until)).isEqualTo(healed + InboxPoller.HEAL_SWEEP_INTERVAL_MILLIS);
        assertThat(InboxPoller.nextHealSweep(until - InboxPoller.HEAL_SWEEP_INTERVAL_MILLIS - 1, until))
                .isEqualTo(until - 1);
        assertThat(InboxPoller.nextHealSweep(until - InboxPoller.HEAL_SWEEP_INTERVAL_MILLIS, until))
                .as("no heal sweep after the heal's sweeps end").isEqualTo(Long.MAX_VALUE);
        assertThat(InboxPoller.nextHealSweep(healed, -1)).as("no heal yet").isEqualTo(Long.MAX_VALUE);
    }

    @Test
    void a_heals_sweeps_start_a_margin_before_the_cut_was_noticed() {
        assertThat(InboxPoller.healSweepFrom(40_000, 100_000, 11_000)).isEqualTo(29_000);
        assertThat(InboxPoller.healSweepFrom(-1, 100_000, 11_000)).as("the cut's start unknown").isEqualTo(89_000);
        assertThat(InboxPoller.healSweepFrom(120_000, 100_000, 11_000)).as("a start after the heal is not taken")
                .isEqualTo(89_000);
    }
}
