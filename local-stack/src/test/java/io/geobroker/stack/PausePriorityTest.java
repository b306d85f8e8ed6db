package io.geobroker.stack;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PausePriorityTest {

    @TempDir
    Path dir;

    @Test
    void reads_the_nice_value_after_a_thread_name_with_spaces_and_parentheses() {
        String stat = "4242 (GC Thread#0 (x)) S 4200 4200 4200 0 -1 1077936192 12 0 0 0 3 1 0 0 5 -15 1 0 1234 0";

        assertThat(PausePriority.nice(stat)).isEqualTo(OptionalInt.of(-15));
        assertThat(PausePriority.nice("4242 (main) S 1 2 3")).isEmpty();
        assertThat(PausePriority.nice("no name")).isEmpty();
    }

    @Test
    void only_the_collector_workers_and_the_vm_thread_run_stops() {
        assertThat(PausePriority.isStopThread("GC Thread#0")).isTrue();
        assertThat(PausePriority.isStopThread("GC Thread#3")).isTrue();
        assertThat(PausePriority.isStopThread("VM Thread")).isTrue();
        assertThat(PausePriority.isStopThread("G1 Conc#0")).isFalse();
        assertThat(PausePriority.isStopThread("G1 Refine#0")).isFalse();
        assertThat(PausePriority.isStopThread("VM Periodic Task Thread")).isFalse();
        assertThat(PausePriority.isStopThread("main")).isFalse();
    }

    @Test
    void a_child_jvm_runs_its_collector_and_vm_thread_at_the_raised_priority_and_nothing_else()
            throws IOException, InterruptedException {
        if (!Jdk17.runsAsRoot()) {
            // Only root may lower a nice value; elsewhere the starter leaves the JVM as it is.
            return;
        }
        Path source = dir.resolve("Idle.java");
        Files.writeString(source, """
                public class Idle {
                    public static void main(String[] args) throws Exception {
                        System.out.println("ready");
                        System.in.read();
                    }
                }
                """);
        Process child = new ProcessBuilder(Jdk17.find().toString(), "-Xmx32m", "-XX:+UseG1GC",
                "-XX:ActiveProcessorCount=1", source.toString()).redirectErrorStream(true).start();
        try {
            assertThat(new String(child.getInputStream().readNBytes(5), StandardCharsets.UTF_8)).isEqualTo("ready");
            Path tasks = Path.of("/proc", Long.toString(child.pid()), "task");
            assertThat(PausePriority.stopThreadsAbove(tasks, PausePriority.NICE)).hasSizeGreaterThanOrEqualTo(2);

            int own = PausePriority.nice(Files.readString(Path.of("/proc/thread-self/stat"), StandardCharsets.UTF_8))
                    .orElseThrow();
            List<Long> raised = PausePriority.raise(child.toHandle());

            Map<String, Integer> niceByName = niceByName(tasks);
            assertThat(raised).hasSizeGreaterThanOrEqualTo(2);
            assertThat(niceByName).containsEntry("GC Thread#0", PausePriority.NICE)
                    .containsEntry("VM Thread", PausePriority.NICE)
                    .containsEntry("java", own);
            assertThat(PausePriority.stopThreadsAbove(tasks, PausePriority.NICE)).isEmpty();
            assertThat(PausePriority.raise(child.toHandle())).as("nothing left to raise").isEmpty();
        } finally {
            child.getOutputStream().close();
            if (!child.waitFor(10, TimeUnit.SECONDS)) {
                child.destroyForcibly();
            }
        }
    }

    /** Each thread's nice value by its name (the last thread of a name wins). */
    private static Map<String, Integer> niceByName(Path tasks) throws IOException {
        Map<String, Integer> nice = new HashMap<>();
        try (DirectoryStream<Path> dirs = Files.newDirectoryStream(tasks)) {
            for (Path task : dirs) {
                String name = Files.readString(task.resolve("comm"), StandardCharsets.UTF_8).trim();
                PausePriority.nice(Files.readString(task.resolve("stat"), StandardCharsets.UTF_8))
                        .ifPresent(n -> nice.put(name, n));
            }
        }
        return nice;
    }
}
