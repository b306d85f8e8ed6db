package io.geobroker.loadgen.metrics;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class PhaseIntervalsTest {

    private static final long SECOND = 1_000_000_000L;
    private static final long START = 5 * SECOND;

    @Test
    void an_interval_is_named_by_its_start_and_closed_once_its_end_has_passed() {
        PhaseIntervals intervals = new PhaseIntervals(START, START + 3 * SECOND, SECOND);

        assertThat(intervals.closeNext(START)).as("nothing has ended at the phase's start").isEqualTo(-1);
        assertThat(intervals.closeNext(START + SECOND - 1)).isEqualTo(-1);
        assertThat(intervals.closeNext(START + SECOND)).as("[0 s, 1 s)").isZero();
        assertThat(intervals.closeNext(START + SECOND)).as("already closed").isEqualTo(-1);
        assertThat(intervals.nextEndNanos()).isEqualTo(START + 2 * SECOND);
        assertThat(intervals.closeNext(START + 2 * SECOND + 10)).isEqualTo(1_000);
        assertThat(intervals.done()).isFalse();
        assertThat(intervals.closeNext(START + 3 * SECOND)).as("the last second of the phase").isEqualTo(2_000);
        assertThat(intervals.done()).isTrue();
        assertThat(intervals.closeNext(START + 9 * SECOND)).as("nothing after the phase").isEqualTo(-1);
    }

    @Test
    void a_late_caller_closes_every_interval_it_owes_in_order() {
        PhaseIntervals intervals = new PhaseIntervals(START, START + 60 * SECOND, SECOND);

        assertThat(closeAll(intervals, START + 3 * SECOND + SECOND / 2)).containsExactly(0L, 1_000L, 2_000L);
        assertThat(closeAll(intervals, START + 61 * SECOND)).hasSize(57).startsWith(3_000L).endsWith(59_000L);
        assertThat(intervals.done()).isTrue();
    }

    @Test
    void a_phase_of_no_whole_number_of_intervals_ends_with_a_shorter_one() {
        PhaseIntervals intervals = new PhaseIntervals(START, START + 2 * SECOND + SECOND / 2, SECOND);

        assertThat(closeAll(intervals, START + 2 * SECOND)).containsExactly(0L, 1_000L);
        assertThat(intervals.nextEndNanos()).isEqualTo(START + 2 * SECOND + SECOND / 2);
        assertThat(closeAll(intervals, START + 2 * SECOND + SECOND / 2)).containsExactly(2_000L);
        assertThat(intervals.done()).isTrue();
    }

    @Test
    void refuses_intervals_without_length() {
        assertThatThrownBy(() -> new PhaseIntervals(START, START + SECOND, 0)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new PhaseIntervals(START, START - 1, SECOND)).isInstanceOf(IllegalArgumentException.class);
    }

    private static List<Long> closeAll(PhaseIntervals intervals, long nowNanos) {
        List<Long> starts = new ArrayList<>();
        for (long start = intervals.closeNext(nowNanos); start >= 0; start = intervals.closeNext(nowNanos)) {
            starts.add(start);
        }
        return starts;
    }
}
