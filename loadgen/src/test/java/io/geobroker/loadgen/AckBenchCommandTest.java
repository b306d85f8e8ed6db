package io.geobroker.loadgen;

import io.geobroker.loadgen.ackbench.AckBench;
import io.geobroker.loadgen.demo.Demo;
import io.geobroker.stack.LocalStack;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class AckBenchCommandTest {

    private final ByteArrayOutputStream err = new ByteArrayOutputStream();
    private PrintStream originalErr;

    @BeforeEach
    void capture() {
        originalErr = System.err;
        System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
    }

    @AfterEach
    void restore() {
        System.setErr(originalErr);
    }

    private static AckBench.Settings parse(String... args) {
        AckBenchCommand command = new AckBenchCommand();
        new CommandLine(command).parseArgs(args);
        return command.settings();
    }

    @Test
    void reads_the_rounds_and_the_protocol() {
        AckBench.Settings s = parse("--clients", "5,25,250", "--orders", "1000", "--protocol", "rest", "--region", "sydney",
                "--fix-port", "9900", "--ack-timeout", "2s");
        assertThat(s.clients()).containsExactly(5, 25, 250);
        assertThat(s.maxClients()).isEqualTo(250);
        assertThat(s.ordersPerClient()).isEqualTo(1000);
        assertThat(s.protocol()).isEqualTo(AckBench.Protocol.REST);
        assertThat(s.region()).isEqualTo("sydney");
        assertThat(s.fixPort()).isEqualTo(9900);
        assertThat(s.ackTimeout()).isEqualTo(Duration.ofSeconds(2));
        assertThat(s.ordersPerCustomer()).as("warm-up plus one set per round").isEqualTo(s.warmupOrders() + 3 * 1000L);
    }

    @Test
    void defaults_are_the_issues_benchmark_over_fix() {
        AckBench.Settings s = parse();
        assertThat(s.clients()).containsExactly(5, 25, 250);
        assertThat(s.ordersPerClient()).isEqualTo(1000);
        assertThat(s.protocol()).isEqualTo(AckBench.Protocol.FIX);
        assertThat(s.fixPort()).isEqualTo(9878);
        assertThat(s.region()).isEqualTo("nvirginia");
        assertThat(parse("--clients", "7").clients()).containsExactly(7);
    }

    @Test
    void the_local_system_gets_the_demos_cassandra_heap_unless_told_otherwise() {
        assertThat(localSystem().cassandraHeapMb()).as("the demo's default, with half of it for memtables")
                .isEqualTo(LocalStack.DEFAULT_CASSANDRA_HEAP_MB).isEqualTo(512);
        assertThat(localSystem("--cassandra-heap-mb", "768").cassandraHeapMb()).isEqualTo(768);
        AckBenchCommand command = new AckBenchCommand();
        new CommandLine(command).parseArgs("--cassandra-heap-mb", "256");
        assertThat(command.stack.deployment("the ticker service paused"))
                .contains("one Cassandra 5.0 node per DC (256 MB heap)");
    }

    private static Demo.Settings localSystem(String... args) {
        AckBenchCommand command = new AckBenchCommand();
        CommandLine line = new CommandLine(command);
        line.parseArgs(args);
        return command.stack.demoSettings(line.getCommandSpec(), new Demo.TickerService(256, List.of(), 42, 10, 0, 0));
    }

    @Test
    void bad_options_exit_with_usage_code_2_before_starting_anything() {
        assertThat(Loadgen.execute("ack-bench", "--clients", "0")).isEqualTo(2);
        assertThat(Loadgen.execute("ack-bench", "--clients", "5,abc")).isEqualTo(2);
        assertThat(Loadgen.execute("ack-bench", "--protocol", "smtp")).isEqualTo(2);
        assertThat(Loadgen.execute("ack-bench", "--orders", "0")).isEqualTo(2);
        assertThat(Loadgen.execute("ack-bench", "--fix-port", "70000")).isEqualTo(2);
        assertThat(Loadgen.execute("ack-bench", "--target", "/no/such/topology.properties")).isEqualTo(2);
        assertThat(Loadgen.execute("ack-bench", "--cassandra-heap-mb", "64")).isEqualTo(2);
        assertThat(Loadgen.execute("up", "--cassandra-heap-mb", "64")).isEqualTo(2);
        assertThat(Loadgen.execute("ack-bench", "--floor", "--protocol", "rest")).isEqualTo(2);
        assertThat(Loadgen.execute("ack-bench", "--floor", "--target", "/no/such/topology.properties")).isEqualTo(2);
        assertThat(err.toString(StandardCharsets.UTF_8)).contains("--clients must be numbers of clients")
                .contains("--protocol must be fix or rest, not smtp").contains("no such file")
                .contains("--cassandra-heap-mb and --broker-heap-mb must be at least 128")
                .contains("--cassandra-heap-mb and --broker-heap-mb at least 128")
                .contains("--floor is the FIX acceptor alone: use it with --protocol fix")
                .contains("--floor starts the floor on this machine: it takes no --target");
    }
}
