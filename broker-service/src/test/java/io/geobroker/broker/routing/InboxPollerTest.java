package io.geobroker.broker.routing;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class InboxPollerTest {

    private static final long INTERVAL = 15_000;

    @Test
    void the_inbox_is_swept_every_interval_when_no_cut_has_healed() {
        assertThat(InboxPoller.nextSweep(100_000, -1, INTERVAL)).isEqualTo(115_000);
    }

    @Test
    void after_a_heal_the_inbox_is_swept_every_second_until_the_heal_sweeps_end() {
        long healed = 100_000;
        long until = healed + InboxPoller.HEAL_SWEEPS_MILLIS;
        assertThat(InboxPoller.nextSweep(healed + 1, until, INTERVAL)).isEqualTo(healed + 1 + InboxPoller.HEAL_SWEEP_INTERVAL_MILLIS);
        assertThat(InboxPoller.nextSweep(until - 1, until, INTERVAL)).isEqualTo(until - 1 + InboxPoller.HEAL_SWEEP_INTERVAL_MILLIS);
        assertThat(InboxPoller.nextSweep(until, until, INTERVAL)).as("back to the interval").isEqualTo(until + INTERVAL);
    }

    @Test
    void a_sweep_interval_shorter_than_the_heal_sweeps_stays() {
        assertThat(InboxPoller.nextSweep(100_000, 120_000, 500)).isEqualTo(100_500);
    }
}
