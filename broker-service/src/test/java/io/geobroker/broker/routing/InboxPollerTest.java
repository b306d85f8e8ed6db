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

    @Test
    void a_heals_sweeps_say_how_many_orders_they_handed_and_when() {
        InboxPoller.HealSweeps sweeps = new InboxPoller.HealSweeps();
        sweeps.add(80, new InboxPoller.Taken(0, 0));
        sweeps.add(4_500, new InboxPoller.Taken(39, 2));
        sweeps.add(5_000, new InboxPoller.Taken(0, 1));
        sweeps.add(11_200, new InboxPoller.Taken(9, 0));

        assertThat(sweeps.summary()).isEqualTo("4 sweeps handed 48 orders placed before it in other regions to the engine, "
                + "4500 to 11200 ms after the heal (reads that found an inbox row before its order row: 3)");
        assertThat(new InboxPoller.HealSweeps().summary()).as("nothing handed")
                .isEqualTo("0 sweeps handed 0 orders placed before it in other regions to the engine (reads that found an inbox row before its order row: 0)");
        assertThat(new InboxPoller.Taken(1, 2).plus(new InboxPoller.Taken(3, 4))).isEqualTo(new InboxPoller.Taken(4, 6));
    }
}
