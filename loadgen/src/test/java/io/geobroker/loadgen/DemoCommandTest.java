package io.geobroker.loadgen;

import io.geobroker.stack.Jdk17;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class DemoCommandTest {

    @Test
    void the_default_load_gets_the_linger_once_two_tickers_of_a_region_fall_in_it() {
        // 600 tickers/s over two regions: 300 a second each, 2.4 in 8 ms
        assertThat(DemoCommand.autoTickerLingerMs(600, 2)).isEqualTo(DemoCommand.AUTO_LINGER_MS);
        // 250 a second each: exactly 2
        assertThat(DemoCommand.autoTickerLingerMs(500, 2)).isEqualTo(DemoCommand.AUTO_LINGER_MS);
    }

    @Test
    void lower_rates_send_each_ticker_at_once() {
        assertThat(DemoCommand.autoTickerLingerMs(450, 2)).isZero();  // three quarters of the load
        assertThat(DemoCommand.autoTickerLingerMs(60, 2)).isZero();   // a tenth
        assertThat(DemoCommand.autoTickerLingerMs(600, 3)).isZero();  // 200 a second in each of three regions
    }

    @Test
    void the_report_names_the_pause_goal_each_jvm_is_left_with() {
        List<String> system = Jdk17.localSystemOptions(true);
        assertThat(DemoCommand.pauseGoals(system, system, system)).isEqualTo("; G1's pause-time goal 20 ms in each of them");

        List<String> brokersOverridden = new ArrayList<>(system);
        brokersOverridden.add("-XX:MaxGCPauseMillis=200");
        assertThat(DemoCommand.pauseGoals(system, brokersOverridden, system))
                .isEqualTo("; G1's pause-time goal 20 ms in the stack, 200 ms in the brokers, 20 ms in the ticker service");
        assertThat(DemoCommand.pauseGoals(List.of(), List.of(), List.of()))
                .isEqualTo("; G1's pause-time goal 200 ms (G1's default) in each of them");
    }

    @Test
    void the_commit_log_is_synced_only_when_asked() {
        DemoCommand synced = new DemoCommand();
        new CommandLine(synced).parseArgs("--synced-commit-log");
        assertThat(synced.syncedCommitLog).isTrue();
        DemoCommand plain = new DemoCommand();
        new CommandLine(plain).parseArgs();
        assertThat(plain.syncedCommitLog).isFalse();
    }
}
