package io.geobroker.loadgen.driver;

import org.junit.jupiter.api.Test;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;

class PhasesTest {

    @Test
    void only_fills_of_tickers_stamped_in_the_measured_phase_count() {
        long start = 1_000_000;
        long end = 61_000_000;

        assertThat(Phases.measuredTicker(start - 1, start, end)).as("warm-up").isFalse();
        assertThat(Phases.measuredTicker(start, start, end)).isTrue();
        assertThat(Phases.measuredTicker(end - 1, start, end)).isTrue();
        // tickers keep coming while late orders drain; their fills are not the measured phase's
        assertThat(Phases.measuredTicker(end, start, end)).as("drain").isFalse();
    }

    @Test
    void the_measured_phase_follows_the_warm_up_on_both_clocks() {
        Phases p = Phases.of(5_000_000_000L, 1_700_000_000_000_000L, Duration.ofSeconds(10), Duration.ofSeconds(60));

        assertThat(p.measureStartNanos()).isEqualTo(15_000_000_000L);
        assertThat(p.measureEndNanos()).isEqualTo(75_000_000_000L);
        assertThat(p.measureStartWallMicros()).isEqualTo(1_700_000_010_000_000L);
        assertThat(p.measureEndWallMicros()).isEqualTo(1_700_000_070_000_000L);
    }

    @Test
    void an_order_intended_at_the_end_of_the_measured_phase_belongs_to_the_drain() {
        Phases p = Phases.of(0, 0, Duration.ofSeconds(1), Duration.ofSeconds(2));

        assertThat(p.measured(999_999_999L)).as("warm-up").isFalse();
        assertThat(p.measured(1_000_000_000L)).isTrue();
        assertThat(p.measured(2_999_999_999L)).isTrue();
        assertThat(p.measured(3_000_000_000L)).as("drain").isFalse();
        assertThat(p.measuredTicker(1_000_000L)).isTrue();
        assertThat(p.measuredTicker(3_000_000L)).as("drain").isFalse();
    }
}
