package io.geobroker.loadgen;

import io.geobroker.loadgen.driver.Workload;
import org.junit.jupiter.api.Test;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;

class LoadRunTest {

    private final Workload base = new Workload(75, 150, 60, 20, 20, 70, 5, 10, Duration.ofSeconds(45),
            Duration.ofSeconds(30), Duration.ofSeconds(60), 1, 256);

    @Test
    void a_sweeps_first_step_keeps_the_warm_up_and_ramp_and_later_steps_start_at_full_rate_after_5_s() {
        Workload first = LoadRun.stepWorkload(base, 1, true, Duration.ofSeconds(20));
        Workload third = LoadRun.stepWorkload(base, 3, false, Duration.ofSeconds(20));

        assertThat(first.warmup()).isEqualTo(Duration.ofSeconds(45));
        assertThat(first.ramp()).isEqualTo(Duration.ofSeconds(30));
        assertThat(first.duration()).isEqualTo(Duration.ofSeconds(20));
        assertThat(first.ordersPerSecond()).isEqualTo(75);
        assertThat(third.warmup()).isEqualTo(Duration.ofSeconds(5));
        assertThat(third.ramp()).isZero();
        assertThat(third.duration()).isEqualTo(Duration.ofSeconds(20));
        assertThat(third.ordersPerSecond()).isEqualTo(225);
        assertThat(third.tickersPerSecond()).isEqualTo(450);
    }
}
