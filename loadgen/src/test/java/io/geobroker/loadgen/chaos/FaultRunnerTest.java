package io.geobroker.loadgen.chaos;

import io.geobroker.loadgen.report.ChaosReport;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class FaultRunnerTest {

    /** A deployment that records what was done to it; its regions serve again at once. */
    private static final class Recording implements FaultTarget {
        final List<String> done = new ArrayList<>();
        final boolean wan;

        Recording(boolean wan) {
            this.wan = wan;
        }

        @Override
        public List<String> regions() {
            return List.of("sydney", "nvirginia");
        }

        @Override
        public List<String> stackProcesses() {
            return List.of("cassandra-sydney-1", "cassandra-sydney-2", "cassandra-nvirginia-1", "kafka-sydney", "kafka-nvirginia");
        }

        @Override
        public void killStackProcess(String name) {
            done.add("kill " + name);
        }

        @Override
        public void restartStackProcess(String name, Duration timeout) {
            done.add("restart " + name);
        }

        @Override
        public void killBroker(String region) {
            done.add("kill broker " + region);
        }

        @Override
        public void restartBroker(String region) {
            done.add("restart broker " + region);
        }

        @Override
        public String brokerUrl(String region) {
            return "http://127.0.0.1:1";
        }

        @Override
        public boolean wanOn() {
            return wan;
        }

        @Override
        public void cutLink(String a, String b) {
            done.add("cut " + a + " " + b);
        }

        @Override
        public void restoreLink(String a, String b) {
            done.add("restore " + a + " " + b);
        }
    }

    private static ChaosPlan plan(Set<ChaosPlan.Kind> kinds, List<String> regions, int brokerKills) {
        return new ChaosPlan(kinds, regions, Duration.ZERO, Duration.ZERO, brokerKills, Duration.ZERO, Duration.ZERO,
                Duration.ofSeconds(1), Duration.ofSeconds(1), 42);
    }

    @Test
    void runs_every_fault_in_order_and_times_each() {
        Recording deployment = new Recording(true);
        FaultRunner runner = new FaultRunner(deployment, plan(Set.of(ChaosPlan.Kind.values()), List.of(), 2),
                System.nanoTime(), region -> true, (from, to, timeout) -> to + 5);
        runner.run();

        assertThat(deployment.done.subList(0, 6)).containsExactly("kill cassandra-sydney-2", "restart cassandra-sydney-2",
                "kill cassandra-nvirginia-1", "restart cassandra-nvirginia-1", "kill kafka-sydney", "restart kafka-sydney");
        assertThat(deployment.done.subList(6, 10)).allMatch(s -> s.contains(" broker "));
        assertThat(deployment.done.subList(10, 12)).containsExactly("cut sydney nvirginia", "restore sydney nvirginia");
        assertThat(runner.lines()).extracting(ChaosReport.Fault::fault)
                .containsExactly("cassandra", "cassandra", "kafka", "broker", "broker", "wan");
        assertThat(runner.lines()).allMatch(ChaosReport.Fault::servedAgain);
        assertThat(runner.lines()).allMatch(f -> f.startMillis() <= f.endMillis() && f.endMillis() <= f.servedAgainMillis());
        assertThat(runner.problems()).isEmpty();
    }

    @Test
    void a_region_that_never_serves_again_is_marked_and_the_wan_cut_needs_the_wan() {
        Recording deployment = new Recording(false);
        FaultRunner runner = new FaultRunner(deployment, plan(Set.of(ChaosPlan.Kind.BROKER, ChaosPlan.Kind.WAN),
                List.of("nvirginia"), 1), System.nanoTime(), region -> false, (from, to, timeout) -> -1);
        runner.run();

        assertThat(deployment.done).containsExactly("kill broker nvirginia", "restart broker nvirginia");
        assertThat(runner.lines()).singleElement().satisfies(f -> assertThat(f.servedAgain()).isFalse());
        assertThat(runner.problems()).singleElement().asString().contains("the WAN cut was not done: the emulated WAN is off");
    }

    @Test
    void the_measured_phase_is_made_long_enough_for_the_schedule() {
        ChaosPlan plan = new ChaosPlan(Set.of(ChaosPlan.Kind.values()), List.of(), Duration.ofSeconds(20), Duration.ofSeconds(5),
                3, Duration.ofSeconds(20), Duration.ofSeconds(15), Duration.ofSeconds(120), Duration.ofSeconds(60), 1);
        // 2 x (20 + 12 + 15) + (5 + 15 + 15) + 3 x (15 + 15) + (20 + 15 + 15)
        assertThat(plan.estimatedLength(2, true)).isEqualTo(Duration.ofSeconds(94 + 35 + 90 + 50));
        assertThat(plan.estimatedLength(2, false)).isEqualTo(Duration.ofSeconds(94 + 35 + 90));
    }

    @Test
    void the_reports_line_names_only_the_faults_asked_for() {
        ChaosPlan plan = new ChaosPlan(Set.of(ChaosPlan.Kind.KAFKA, ChaosPlan.Kind.BROKER), List.of("nvirginia"), Duration.ofSeconds(20),
                Duration.ofSeconds(2), 1, Duration.ofSeconds(20), Duration.ofSeconds(3), Duration.ofSeconds(120),
                Duration.ofSeconds(60), 1);
        assertThat(new ChaosRun(new Recording(false), plan).describe()).isEqualTo("Kafka down 2 s, 1 broker SIGKILLs, in this "
                + "order, in nvirginia; 3 s recovery gap; serve timeout 120 s, convergence bound 60 s");
    }

    @Test
    void bad_schedules_get_a_clear_error() {
        assertThatThrownBy(() -> ChaosPlan.Kind.parse("disk")).hasMessageContaining("'disk' is not a fault");
        assertThatThrownBy(() -> new ChaosPlan(Set.of(), List.of(), Duration.ofSeconds(-1), Duration.ZERO, 0, Duration.ZERO,
                Duration.ZERO, Duration.ofSeconds(1), Duration.ofSeconds(1), 1)).hasMessageContaining("must not be negative");
        assertThatThrownBy(() -> new ChaosPlan(Set.of(), List.of(), Duration.ZERO, Duration.ZERO, -1, Duration.ZERO,
                Duration.ZERO, Duration.ofSeconds(1), Duration.ofSeconds(1), 1)).hasMessageContaining("--broker-kills");
    }
}
