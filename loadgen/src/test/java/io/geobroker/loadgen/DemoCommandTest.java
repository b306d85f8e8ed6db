package io.geobroker.loadgen;

import io.geobroker.loadgen.demo.Demo;
import io.geobroker.stack.Jdk17;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class DemoCommandTest {

    @Test
    void without_a_linger_given_the_tickers_linger_8_ms_from_two_per_linger() {
        Demo.TickerService automatic = DemoCommand.tickerService(256, List.of(), 42, 10, null, null);
        assertThat(automatic.lingerMs()).isEqualTo(8);
        assertThat(automatic.lingerFrom()).isEqualTo(250);
    }

    @Test
    void a_linger_given_holds_at_every_rate() {
        Demo.TickerService given = DemoCommand.tickerService(256, List.of(), 42, 10, 3, null);
        assertThat(given.lingerMs()).isEqualTo(3);
        assertThat(given.lingerFrom()).isZero();
        assertThat(DemoCommand.tickerService(256, List.of(), 42, 10, 0, null).lingerMs()).isZero();
    }

    @Test
    void a_rate_to_linger_from_given_holds_with_the_linger_given_or_the_automatic_one() {
        Demo.TickerService from = DemoCommand.tickerService(256, List.of(), 42, 10, null, 125);
        assertThat(from.lingerMs()).isEqualTo(8);
        assertThat(from.lingerFrom()).isEqualTo(125);
        Demo.TickerService both = DemoCommand.tickerService(256, List.of(), 42, 10, 5, 200);
        assertThat(both.lingerMs()).isEqualTo(5);
        assertThat(both.lingerFrom()).isEqualTo(200);
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
    void by_default_every_jvm_compiles_with_c2_warmed_before_the_run() {
        DemoCommand demo = new DemoCommand();
        CommandLine line = new CommandLine(demo);
        line.parseArgs();
        String jit = DemoCommand.jit(demo.jit, false);
        assertThat(jit).isEqualTo(DemoCommand.WARM_C2);
        assertThat(DemoCommand.jitOptions(jit, line.getCommandSpec())).contains(Jdk17.TIERED).doesNotContain(Jdk17.C1_ONLY);
        assertThat(DemoCommand.describeJit(jit)).contains("warmed before the run");
    }

    @Test
    void the_chaos_scenario_compiles_with_c1_only_unless_told_otherwise() {
        DemoCommand byDefault = new DemoCommand();
        new CommandLine(byDefault).parseArgs("--scenario", "chaos");
        assertThat(DemoCommand.jit(byDefault.jit, true)).isEqualTo("c1-only");
        DemoCommand given = new DemoCommand();
        new CommandLine(given).parseArgs("--scenario", "chaos", "--jit", "tiered");
        assertThat(DemoCommand.jit(given.jit, true)).isEqualTo("tiered");
    }

    @Test
    void c1_only_and_tiered_are_as_given() {
        CommandLine.Model.CommandSpec spec = new CommandLine(new DemoCommand()).getCommandSpec();
        assertThat(DemoCommand.jitOptions("c1-only", spec)).contains(Jdk17.C1_ONLY).doesNotContain(Jdk17.TIERED);
        assertThat(DemoCommand.jitOptions("tiered", spec)).contains(Jdk17.TIERED).doesNotContain(Jdk17.C1_ONLY);
        assertThat(DemoCommand.describeJit("c1-only")).startsWith("C1 only in every JVM");
        assertThat(DemoCommand.describeJit("tiered")).contains("while the run is measured");
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
