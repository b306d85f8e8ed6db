package io.geobroker.stack;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class TimerSlackTest {

    @Test
    void a_child_and_its_own_threads_run_with_the_slack_and_the_caller_keeps_its_own() throws Exception {
        Optional<Long> before = TimerSlack.current();
        assumeTrue(before.isPresent(), "needs Linux's /proc/thread-self/../timerslack_ns");

        // A JVM child: the slack must reach threads the child creates after exec, not just its main thread.
        Path java = Path.of(System.getProperty("java.home"), "bin", "java");
        Path source = Files.createTempFile("slack", ".java");
        Files.writeString(source, """
                public class Slack {
                    public static void main(String[] args) throws Exception {
                        String[] seen = new String[1];
                        Thread t = new Thread(() -> {
                            try {
                                String tid = java.nio.file.Files.readSymbolicLink(
                                        java.nio.file.Path.of("/proc/thread-self")).getFileName().toString();
                                seen[0] = java.nio.file.Files.readString(
                                        java.nio.file.Path.of("/proc", tid, "timerslack_ns")).trim();
                            } catch (Exception e) {
                                seen[0] = e.toString();
                            }
                        });
                        t.start();
                        t.join();
                        System.out.println(seen[0]);
                    }
                }
                """, StandardCharsets.UTF_8);
        try {
            Process child = TimerSlack.start(new ProcessBuilder(List.of(java.toString(), "-Xmx32m",
                    "-XX:TieredStopAtLevel=1", source.toString())).redirectErrorStream(true), 700_000);
            String out = new String(child.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();

            assertThat(child.waitFor()).isZero();
            assertThat(out).isEqualTo("700000");
            assertThat(TimerSlack.current()).isEqualTo(before);
        } finally {
            Files.deleteIfExists(source);
        }
    }

    @Test
    void zero_gives_the_child_the_kernel_default() throws IOException, InterruptedException {
        assumeTrue(TimerSlack.current().isPresent(), "needs Linux's /proc/thread-self/../timerslack_ns");

        Process child = TimerSlack.start(new ProcessBuilder("cat", "/proc/self/timerslack_ns"), 0);
        String out = new String(child.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();

        assertThat(child.waitFor()).isZero();
        assertThat(Long.parseLong(out)).isPositive();
    }
}
