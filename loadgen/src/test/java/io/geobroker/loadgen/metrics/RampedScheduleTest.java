package io.geobroker.loadgen.metrics;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class RampedScheduleTest {

    private static final long SECOND = 1_000_000_000L;

    @Test
    void without_a_ramp_it_is_the_constant_rate_schedule() {
        RampedSchedule ramped = RampedSchedule.of(1_000, 300, 0, 0.1, 2 * SECOND);
        Schedule constant = Schedule.of(1_000, 300, 2 * SECOND);

        assertThat(ramped.operations()).isEqualTo(constant.operations());
        for (long i = 0; i < constant.operations(); i += 7) {
            assertThat(ramped.intendedNanos(i)).isEqualTo(constant.intendedNanos(i));
        }
    }

    @Test
    void the_ramp_offers_the_area_under_a_straight_line_then_the_full_rate() {
        // 100/s ramping from 10 % over 10 s: (10 + 100) / 2 × 10 = 550 operations, then 100/s for 5 s
        RampedSchedule s = RampedSchedule.of(0, 100, 10 * SECOND, 0.1, 15 * SECOND);

        assertThat(s.rampOperations()).isEqualTo(550);
        assertThat(s.operations()).isEqualTo(550 + 500);
        assertThat(s.intendedNanos(0)).isZero();
        // at the start operations are ~1/10 s apart, at the end of the ramp ~1/100 s
        assertThat(s.intendedNanos(1)).isBetween(95_000_000L, 100_000_000L);
        assertThat(s.intendedNanos(549) - s.intendedNanos(548)).isBetween(10_000_000L, 10_200_000L);
        assertThat(s.intendedNanos(550)).isEqualTo(10 * SECOND);
        assertThat(s.intendedNanos(551) - s.intendedNanos(550)).isEqualTo(10_000_000L);
        assertThat(s.endNanos()).isEqualTo(15 * SECOND);
    }

    @Test
    void the_rate_at_a_time_climbs_linearly_over_the_ramp_then_stays_full() {
        RampedSchedule s = RampedSchedule.of(2 * SECOND, 600, 30 * SECOND, 0.1, 90 * SECOND);

        assertThat(s.rateAt(0)).isCloseTo(60, org.assertj.core.api.Assertions.within(1e-9));
        assertThat(s.rateAt(2 * SECOND)).isCloseTo(60, org.assertj.core.api.Assertions.within(1e-9));
        assertThat(s.rateAt(17 * SECOND)).isCloseTo(330, org.assertj.core.api.Assertions.within(1e-9));
        assertThat(s.rateAt(32 * SECOND)).isEqualTo(600);
        assertThat(s.rateAt(80 * SECOND)).isEqualTo(600);
        assertThat(RampedSchedule.of(0, 600, 0, 0.1, 10 * SECOND).rateAt(0)).isEqualTo(600);
    }

    @Test
    void operations_due_by_the_middle_of_the_ramp_follow_the_linear_rate() {
        RampedSchedule s = RampedSchedule.of(0, 100, 10 * SECOND, 0.1, 10 * SECOND);
        // by t = 5 s: 10 × 5 + 90 × 25 / 20 = 162.5 operations
        long due = 0;
        while (s.intendedNanos(due) <= 5 * SECOND) {
            due++;
        }
        assertThat(due).isBetween(162L, 163L);
    }

    @Test
    void intended_times_never_go_backwards() {
        RampedSchedule s = RampedSchedule.of(5, 3_000, 30 * SECOND, 0.1, 90 * SECOND);
        long previous = Long.MIN_VALUE;
        for (long i = 0; i < s.operations(); i++) {
            long t = s.intendedNanos(i);
            assertThat(t).isGreaterThanOrEqualTo(previous);
            previous = t;
        }
        assertThat(previous).isLessThan(s.endNanos());
    }

    @Test
    void rejects_a_ramp_outside_the_schedule_and_bad_fractions() {
        assertThatThrownBy(() -> RampedSchedule.of(0, 10, 2 * SECOND, 0.1, SECOND)).hasMessageContaining("within");
        assertThatThrownBy(() -> RampedSchedule.of(0, 10, SECOND, 0, SECOND)).hasMessageContaining("fraction");
        assertThatThrownBy(() -> RampedSchedule.of(0, 0, SECOND, 0.5, SECOND)).hasMessageContaining("positive");
    }
}
