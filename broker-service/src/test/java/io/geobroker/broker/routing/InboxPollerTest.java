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

        assertThat(sweeps.summary(0)).isEqualTo("4 sweeps handed 48 orders placed before it in other regions to the engine, "
                + "4500 to 11200 ms after the heal (reads that found an inbox row before its order row: 3)");
        assertThat(new InboxPoller.HealSweeps().summary(0)).as("nothing handed")
                .isEqualTo("0 sweeps handed 0 orders placed before it in other regions to the engine (reads that found an inbox row before its order row: 0)");
        assertThat(new InboxPoller.Taken(1, 2).plus(new InboxPoller.Taken(3, 4))).isEqualTo(new InboxPoller.Taken(4, 6));
    }

    @Test
    void a_heals_summary_counts_the_late_announcements_and_those_taken_from_the_message() {
        long healSeen = 50_000;
        InboxPoller.HealSweeps before = new InboxPoller.HealSweeps();
        before.announced(16, 14, healSeen - 300);
        InboxPoller.HealSweeps sweeps = before.forHeal();
        sweeps.add(500, new InboxPoller.Taken(2, 0));
        sweeps.announced(5, 5, healSeen + 1_350);

        assertThat(sweeps.summary(healSeen)).as("the announcements that came before the heal was seen count too")
                .isEqualTo("1 sweeps handed 2 orders placed before it in other regions to the engine, "
                + "500 to 500 ms after the heal (reads that found an inbox row before its order row: 0); "
                + "late announcements read and handed: 21, 19 of them from the message (no row here yet), "
                + "-300 to 1350 ms after the heal was seen");
        assertThat(before.summary(healSeen)).endsWith("-300 to -300 ms after the heal was seen");
    }

    @Test
    void only_an_announcement_of_an_order_placed_since_the_start_and_in_the_last_seconds_is_taken_unread() {
        long started = 1_000_000;
        long now = started + 60_000;
        assertThat(InboxPoller.fresh(now - 100, now, started)).isTrue();
        assertThat(InboxPoller.fresh(now - InboxPoller.ANNOUNCEMENT_MAX_AGE_MILLIS, now, started)).isTrue();
        assertThat(InboxPoller.fresh(now - InboxPoller.ANNOUNCEMENT_MAX_AGE_MILLIS - 1, now, started))
                .as("placed during a cut, announced after it").isFalse();
        assertThat(InboxPoller.fresh(started - 1, started + 100, started)).as("placed before this broker started")
                .isFalse();
    }
}
