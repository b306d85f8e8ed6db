package io.geobroker.loadgen.driver;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

class CompilerCpuTest {

    /** A thread's stat line as Linux writes it: utime 1234 and stime 56 ticks (fields 14 and 15). */
    private static String stat(String name, long utime, long stime) {
        return "4711 (" + name + ") S 1 4711 4711 0 -1 4194368 120 0 0 0 " + utime + " " + stime
                + " 0 0 20 0 40 0 1234567 0 0 18446744073709551615 0 0 0 0 0 0 0 0 0 0 0 0 17 1 0 0 0 0 0\n";
    }

    @Test
    void reads_user_and_system_ticks_after_a_name_with_spaces_and_parentheses() {
        assertThat(CompilerCpu.cpuTicks(stat("C2 CompilerThre", 1234, 56))).isEqualTo(1290);
        assertThat(CompilerCpu.cpuTicks(stat("odd) name (x", 7, 3))).isEqualTo(10);
    }

    @Test
    void sums_only_the_c2_compiler_threads(@TempDir Path tasks) throws IOException {
        thread(tasks, "101", "C2 CompilerThre", 300, 20);
        thread(tasks, "102", "C2 CompilerThre", 100, 30);
        thread(tasks, "103", "C1 CompilerThre", 5_000, 0);
        thread(tasks, "104", "MutationStage-1", 9_000, 900);
        assertThat(CompilerCpu.seconds(tasks)).isCloseTo(4.5, within(1e-9));
    }

    @Test
    void a_process_that_is_gone_took_nothing(@TempDir Path dir) {
        assertThat(CompilerCpu.seconds(dir.resolve("no-such-task-dir"))).isZero();
    }

    @Test
    void the_busiest_jvm_sets_the_share_of_a_core() {
        Map<String, Double> before = Map.of("cassandra-sydney-1", 40.0, "kafka-sydney", 10.0);
        Map<String, Double> after = Map.of("cassandra-sydney-1", 43.0, "kafka-sydney", 10.5, "kafka-nvirginia", 1.0);
        // 3 s in 30 s, 0.5 s, and 1 s from a JVM not read before
        assertThat(CompilerCpu.busiestShare(before, after, 30)).isCloseTo(0.1, within(1e-9));
        assertThat(CompilerCpu.busiestShare(after, after, 30)).isZero();
        assertThat(CompilerCpu.describe(before, after)).contains("cassandra-sydney-1 3.0 s", "kafka-sydney 0.5 s",
                "kafka-nvirginia 1.0 s");
    }

    @Test
    void a_phase_gives_the_compilers_cores_in_all_and_each_jvms_seconds() {
        Map<String, Double> before = new LinkedHashMap<>(Map.of("broker sydney", 100.0));
        Map<String, Double> after = new LinkedHashMap<>();
        after.put("broker sydney", 103.0);
        after.put("kafka-sydney", 3.0);
        // 3 s and 3 s (a JVM not read before) in 60 s: a tenth of a core
        assertThat(CompilerCpu.describePhase(before, after, 60))
                .isEqualTo("0.10 cores in all: broker sydney 3.0 s, kafka-sydney 3.0 s");
    }

    private static void thread(Path tasks, String tid, String name, long utime, long stime) throws IOException {
        Path dir = Files.createDirectories(tasks.resolve(tid));
        Files.writeString(dir.resolve("comm"), name + "\n");
        Files.writeString(dir.resolve("stat"), stat(name, utime, stime));
    }
}
