package io.geobroker.loadgen.metrics;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ScheduleTest {

    @Test
    void spaces_operations_evenly_from_the_start_whatever_the_rate() {
        Schedule s = Schedule.of(1_000, 300, 2_000_000_000L);

        assertThat(s.operations()).isEqualTo(600);
        assertThat(s.intendedNanos(0)).isEqualTo(1_000);
        assertThat(s.intendedNanos(1)).isEqualTo(1_000 + 3_333_333);
        assertThat(s.intendedNanos(300)).isEqualTo(1_000 + 1_000_000_000L);
        assertThat(s.endNanos()).isEqualTo(1_000 + 2_000_000_000L);
    }

    @Test
    void fractional_rates_keep_their_thousandths() {
        Schedule s = Schedule.of(0, 0.5, 10_000_000_000L);

        assertThat(s.operations()).isEqualTo(5);
        assertThat(s.intendedNanos(1)).isEqualTo(2_000_000_000L);
    }

    @Test
    void a_stalled_sender_finds_every_missed_operation_due_at_once() {
        Schedule s = Schedule.of(0, 1000, 1_000_000_000L);

        assertThat(s.dueBy(-1)).isZero();
        assertThat(s.dueBy(0)).isEqualTo(1);
        assertThat(s.dueBy(999_999)).isEqualTo(1);
        assertThat(s.dueBy(1_000_000)).isEqualTo(2);
        // a 250 ms stall: the 250 operations intended meanwhile are all due now, none skipped
        assertThat(s.dueBy(250_000_000L)).isEqualTo(251);
        assertThat(s.dueBy(5_000_000_000L)).isEqualTo(1000);
    }

    @Test
    void latency_measured_from_the_intended_time_charges_the_stall_to_every_delayed_operation() {
        Schedule s = Schedule.of(0, 1000, 1_000_000_000L);
        // the system stalls for 100 ms at t = 0 and answers everything in 0 afterwards: with a
        // sender that is blocked, operation i is sent at 100 ms and completes immediately.
        long stallEnd = 100_000_000L;
        long totalNanos = 0;
        for (long i = 0; i < 100; i++) {
            long completed = Math.max(stallEnd, s.intendedNanos(i));
            totalNanos += completed - s.intendedNanos(i);
        }
        // average wait of the 100 operations in the stall is ~50 ms, not 0
        assertThat(totalNanos / 100).isBetween(49_000_000L, 51_000_000L);
    }

    @Test
    void rejects_non_positive_rates() {
        assertThatThrownBy(() -> Schedule.of(0, 0, 1)).hasMessageContaining("positive");
    }
}
