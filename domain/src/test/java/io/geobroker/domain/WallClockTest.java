package io.geobroker.domain;

import org.junit.jupiter.api.Test;

import java.time.Instant;

import static org.assertj.core.api.Assertions.assertThat;

class WallClockTest {

    @Test
    void an_instant_in_microseconds_drops_what_is_below_a_microsecond() {
        assertThat(WallClock.micros(Instant.ofEpochSecond(1_700_000_000L, 2_345_678))).isEqualTo(1_700_000_000_002_345L);
    }

    @Test
    void before_the_epoch_the_microseconds_count_back() {
        assertThat(WallClock.micros(Instant.ofEpochSecond(-1, 500_000_000))).isEqualTo(-500_000L);
    }
}
