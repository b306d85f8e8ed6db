package io.geobroker.stack;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class Jdk17Test {

    @TempDir
    Path dir;

    @Test
    void prefers_java_home_when_it_is_a_jdk_17() throws IOException {
        Path home = jdk("jdk-home", "17.0.15");
        jdk("jvm/java-17-openjdk", "17.0.9");

        assertThat(Jdk17.find(Optional.of(home), dir.resolve("jvm"))).isEqualTo(home.resolve("bin/java"));
    }

    @Test
    void falls_back_to_a_jdk_17_under_the_jvm_directory_when_java_home_is_newer() throws IOException {
        Path home = jdk("temurin-25", "25.0.1");
        Path jdk17 = jdk("jvm/java-17-openjdk-amd64", "17.0.15");

        assertThat(Jdk17.find(Optional.of(home), dir.resolve("jvm"))).isEqualTo(jdk17.resolve("bin/java"));
    }

    @Test
    void says_what_it_tried_when_there_is_no_jdk_17() throws IOException {
        Path home = jdk("temurin-25", "25.0.1");
        jdk("jvm/temurin-25-jdk-amd64", "25.0.1");

        assertThatThrownBy(() -> Jdk17.find(Optional.of(home), dir.resolve("jvm")))
                .isInstanceOf(StackException.class)
                .hasMessageStartingWith("no JDK 17 found: JAVA_HOME=" + home + " is Java 25.0.1; nothing usable matches ")
                .hasMessageNotContaining("\n");
    }

    private Path jdk(String name, String version) throws IOException {
        Path home = dir.resolve(name);
        Files.createDirectories(home.resolve("bin"));
        Files.writeString(home.resolve("release"), "IMPLEMENTOR=\"test\"\nJAVA_VERSION=\"" + version + "\"\n");
        Path java = home.resolve("bin/java");
        Files.writeString(java, "#!/bin/sh\n");
        Files.setPosixFilePermissions(java, PosixFilePermissions.fromString("rwxr-xr-x"));
        return home;
    }

    @Test
    void jvms_are_sized_for_one_core_only_where_the_machine_has_fewer_cores_than_the_system_has_jvms()
            throws IOException, InterruptedException {
        assertThat(Jdk17.processorShare(2)).containsExactly("-XX:ActiveProcessorCount=1");
        assertThat(Jdk17.processorShare(Jdk17.LOCAL_JVMS - 1)).containsExactly("-XX:ActiveProcessorCount=1");
        assertThat(Jdk17.processorShare(Jdk17.LOCAL_JVMS)).isEmpty();
        assertThat(Jdk17.processorShare(64)).isEmpty();

        List<String> command = new ArrayList<>(List.of(Jdk17.find().toString(), "-Xmx32m", Jdk17.GC));
        command.addAll(Jdk17.processorShare(2));
        command.addAll(List.of("-XX:+PrintFlagsFinal", "-version"));
        Process child = new ProcessBuilder(command).redirectErrorStream(true).start();
        String out = new String(child.getInputStream().readAllBytes());

        assertThat(child.waitFor()).isZero();
        assertThat(out).as("the JVM takes the option").containsPattern("int ActiveProcessorCount\\s+= 1 ");
        assertThat(out).as("and sizes its collector for one core").containsPattern("uint ParallelGCThreads\\s+= 1 ");
    }

    @Test
    void a_stack_jvm_compiles_with_c1_only_unless_its_caller_says_otherwise() throws IOException, InterruptedException {
        assertThat(Jdk17.stackOptions(List.of())).startsWith("-XX:TieredStopAtLevel=1")
                .containsSubsequence(Jdk17.processorShare());
        assertThat(Jdk17.stackOptions(List.of("-XX:TieredStopAtLevel=1", "-Xss512k")))
                .as("an option given twice is given once").containsOnlyOnce("-XX:TieredStopAtLevel=1").endsWith("-Xss512k");

        assertThat(Jdk17.stackOptions(Jdk17.localSystemOptions(false))).as("the demo's --jit=tiered")
                .containsSubsequence("-XX:TieredStopAtLevel=1", "-XX:TieredStopAtLevel=4");

        assertThat(tieredStopAtLevel(Jdk17.stackOptions(List.of()))).isEqualTo(1);
        assertThat(tieredStopAtLevel(Jdk17.stackOptions(Jdk17.localSystemOptions(false)))).isEqualTo(4);
        assertThat(tieredStopAtLevel(Jdk17.stackOptions(List.of("-XX:TieredStopAtLevel=4"))))
                .as("the caller's option comes last and wins").isEqualTo(4);
        assertThat(tieredStopAtLevel(Jdk17.stackOptions(List.of("-XX:TieredStopAtLevel=4", "-XX:TieredStopAtLevel=1"))))
                .as("the demo's --jit=tiered with --stack-jvm-option=-XX:TieredStopAtLevel=1").isEqualTo(1);
    }

    @Test
    void the_local_systems_jvms_collect_with_a_20_ms_pause_goal_unless_their_caller_says_otherwise()
            throws IOException, InterruptedException {
        assertThat(Jdk17.localSystemOptions(true)).contains(Jdk17.PAUSE_GOAL);
        assertThat(Jdk17.localSystemOptions(false)).contains(Jdk17.PAUSE_GOAL);
        assertThat(Jdk17.stackDefaults()).as("the tests' stacks keep G1's own goal").doesNotContain(Jdk17.PAUSE_GOAL);

        assertThat(finalFlag(Jdk17.stackOptions(Jdk17.localSystemOptions(true)), "uintx MaxGCPauseMillis")).isEqualTo(20);
        assertThat(finalFlag(Jdk17.stackOptions(List.of()), "uintx MaxGCPauseMillis")).isEqualTo(200);
        List<String> overridden = new ArrayList<>(Jdk17.localSystemOptions(true));
        overridden.add("-XX:MaxGCPauseMillis=50");
        assertThat(finalFlag(Jdk17.stackOptions(overridden), "uintx MaxGCPauseMillis"))
                .as("a --stack-jvm-option comes last and wins").isEqualTo(50);
    }

    private static long finalFlag(List<String> options, String typeAndName) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of(Jdk17.find().toString(), "-Xmx32m", Jdk17.GC));
        command.addAll(options);
        command.addAll(List.of("-XX:+PrintFlagsFinal", "-version"));
        Process child = new ProcessBuilder(command).redirectErrorStream(true).start();
        String out = new String(child.getInputStream().readAllBytes());
        assertThat(child.waitFor()).as(out).isZero();
        Matcher m = Pattern.compile(Pattern.quote(typeAndName) + "\\s+= (\\d+) ").matcher(out);
        assertThat(m.find()).as(out).isTrue();
        return Long.parseLong(m.group(1));
    }

    private static int tieredStopAtLevel(List<String> options) throws IOException, InterruptedException {
        return (int) finalFlag(options, "intx TieredStopAtLevel");
    }

    @Test
    void a_jvm_started_with_the_thread_priorities_runs_a_maximum_priority_thread_at_a_raised_os_priority()
            throws IOException, InterruptedException {
        if (!Jdk17.runsAsRoot()) {
            assertThat(Jdk17.threadPriorities()).isEmpty();
            return;
        }
        Path source = dir.resolve("Nice.java");
        Files.writeString(source, """
                public class Nice {
                    public static void main(String[] args) throws Exception {
                        String[] seen = new String[2];
                        Thread normal = new Thread(() -> seen[0] = nice(), "normal");
                        Thread max = new Thread(() -> seen[1] = nice(), "max");
                        max.setPriority(Thread.MAX_PRIORITY);
                        normal.start(); max.start(); normal.join(); max.join();
                        System.out.println(seen[0] + " " + seen[1]);
                    }
                    static String nice() {
                        try {
                            String stat = java.nio.file.Files.readString(java.nio.file.Path.of("/proc/thread-self/stat"));
                            return stat.substring(stat.lastIndexOf(')') + 2).split(" ")[16];
                        } catch (Exception e) {
                            return e.toString();
                        }
                    }
                }
                """);
        List<String> command = new ArrayList<>(List.of(Jdk17.find().toString(), "-Xmx32m"));
        command.addAll(Jdk17.threadPriorities());
        command.add(source.toString());
        Process child = new ProcessBuilder(command).redirectErrorStream(true).start();
        String out = new String(child.getInputStream().readAllBytes()).trim();

        assertThat(child.waitFor()).isZero();
        assertThat(out).isEqualTo("0 -5");
    }
}
