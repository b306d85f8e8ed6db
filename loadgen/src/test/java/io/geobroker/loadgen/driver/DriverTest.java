package io.geobroker.loadgen.driver;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class DriverTest {

    @Test
    void only_fills_of_tickers_stamped_in_the_measured_phase_count() {
        long start = 1_000_000;
        long end = 61_000_000;

        assertThat(Driver.measuredTicker(start - 1, start, end)).as("warm-up").isFalse();
        assertThat(Driver.measuredTicker(start, start, end)).isTrue();
        assertThat(Driver.measuredTicker(end - 1, start, end)).isTrue();
        // tickers keep coming while late orders drain; their fills are not the measured phase's
        assertThat(Driver.measuredTicker(end, start, end)).as("drain").isFalse();
    }
}
