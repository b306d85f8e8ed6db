package io.geobroker.loadgen;

import io.geobroker.loadgen.daytrading.Replayer;
import io.geobroker.loadgen.daytrading.WorkloadLine;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class WorkloadCommandTest {

    @TempDir
    Path dir;
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();
    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private PrintStream originalErr;
    private PrintStream originalOut;

    @BeforeEach
    void capture() {
        originalErr = System.err;
        originalOut = System.out;
        System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
        System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
    }

    @AfterEach
    void restore() {
        System.setErr(originalErr);
        System.setOut(originalOut);
    }

    private Replayer.Settings parse(String... args) {
        WorkloadCommand command = new WorkloadCommand();
        new CommandLine(command).parseArgs(args);
        return command.settings();
    }

    @Test
    void defaults_are_the_measured_best_batch_size_and_concurrency() throws Exception {
        Path file = Files.writeString(dir.resolve("wl.txt"), "[1] ADD,a,1.00 ");
        Replayer.Settings s = parse(file.toString());
        assertThat(s.region()).isEqualTo("nvirginia");
        assertThat(s.batchSize()).isEqualTo(1000);
        assertThat(s.concurrency()).isEqualTo(4);
        assertThat(s.settle()).isEqualTo(Duration.ofSeconds(2));
        assertThat(s.finalDumplog()).isTrue();
        assertThat(s.userPrefix()).matches("w[a-z0-9]{4}-");
        assertThat(parse(file.toString()).userPrefix()).as("a fresh prefix per run").isNotEqualTo(s.userPrefix());
        Replayer.Settings set = parse(file.toString(), "--user-prefix", "run7-", "--batch", "1000", "--concurrency", "2",
                "--no-final-dumplog", "--settle", "0s");
        assertThat(set.userPrefix()).isEqualTo("run7-");
        assertThat(set.batchSize()).isEqualTo(1000);
        assertThat(set.finalDumplog()).isFalse();
    }

    @Test
    void bad_options_exit_with_usage_code_2_before_starting_anything() throws Exception {
        Path file = Files.writeString(dir.resolve("wl.txt"), "[1] ADD,a,1.00 ");
        assertThat(Loadgen.execute("workload")).isEqualTo(2);
        assertThat(Loadgen.execute("workload", dir.resolve("none.txt").toString())).isEqualTo(2);
        assertThat(Loadgen.execute("workload", file.toString(), "--batch", "1001")).isEqualTo(2);
        assertThat(Loadgen.execute("workload", file.toString(), "--concurrency", "0")).isEqualTo(2);
        assertThat(Loadgen.execute("workload", file.toString(), "--user-prefix", "a,b")).isEqualTo(2);
        assertThat(Loadgen.execute("workload", file.toString(), "--read-ahead", "10")).isEqualTo(2);
        assertThat(Loadgen.execute("workload", "--generate", dir.resolve("g.txt").toString(), "--users", "0")).isEqualTo(2);
        assertThat(err.toString(StandardCharsets.UTF_8)).contains("name the workload FILE").contains("no such file")
                .contains("--batch must be from 1 to 1000").contains("--user-prefix may hold");
    }

    @Test
    void generates_a_workload_file() throws Exception {
        Path generated = dir.resolve("sub/wl.txt");
        assertThat(Loadgen.execute("workload", "--generate", generated.toString(), "--users", "5", "--commands", "200",
                "--seed", "3")).isZero();
        List<String> lines = Files.readAllLines(generated);
        assertThat(lines).hasSize(200);
        assertThat(WorkloadLine.parse(lines.get(199)).adminDumplog()).isTrue();
        assertThat(out.toString(StandardCharsets.UTF_8)).contains("200 commands of 5 users, seed 3");
    }
}
