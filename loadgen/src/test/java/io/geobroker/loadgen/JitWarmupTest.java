package io.geobroker.loadgen;

import org.junit.jupiter.api.Test;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;

class JitWarmupTest {

    @Test
    void quiet_compilers_end_the_warm_up_only_after_the_least_time() {
        assertThat(JitWarmup.done(0.02, Duration.ofSeconds(40))).isFalse();
        assertThat(JitWarmup.done(JitWarmup.QUIET_SHARE, JitWarmup.LEAST)).isTrue();
        assertThat(JitWarmup.done(0.0, Duration.ofSeconds(61))).isTrue();
    }

    @Test
    void busy_compilers_keep_it_going_until_the_most_time() {
        assertThat(JitWarmup.done(0.07, Duration.ofSeconds(120))).isFalse();
        assertThat(JitWarmup.done(0.5, Duration.ofSeconds(299))).isFalse();
        assertThat(JitWarmup.done(0.5, JitWarmup.MOST)).isTrue();
    }
}
