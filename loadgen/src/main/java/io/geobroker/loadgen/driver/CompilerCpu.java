package io.geobroker.loadgen.driver;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * The CPU time of JVMs' C2 compiler threads, read from Linux's {@code /proc/<pid>/task/<tid>}: how a
 * run tells whether C2 still compiles in the JVMs of its stack.
 */
public final class CompilerCpu {

    /** Linux's clock ticks a second in {@code stat} files (USER_HZ: 100 on every port a JDK runs on). */
    static final int TICKS_PER_SECOND = 100;

    private CompilerCpu() {
    }

    /** Each named JVM's C2 compiler threads' CPU seconds so far; 0 for a JVM that is gone or not Linux's. */
    public static Map<String, Double> seconds(Map<String, Long> pids) {
        Map<String, Double> seconds = new LinkedHashMap<>();
        pids.forEach((name, pid) -> seconds.put(name, seconds(Path.of("/proc", Long.toString(pid), "task"))));
        return seconds;
    }

    static double seconds(Path tasks) {
        long ticks = 0;
        try (Stream<Path> threads = Files.list(tasks)) {
            for (Path task : threads.toList()) {
                try {
                    // a thread's name is cut to 15 characters: "C2 CompilerThre"
                    if (Files.readString(task.resolve("comm")).startsWith("C2 Compiler")) {
                        ticks += cpuTicks(Files.readString(task.resolve("stat")));
                    }
                } catch (IOException e) {
                    // the thread ended between the listing and the read
                }
            }
        } catch (IOException e) {
            return 0;
        }
        return ticks / (double) TICKS_PER_SECOND;
    }

    /** The user and system clock ticks of a {@code stat} line (fields 14 and 15). */
    static long cpuTicks(String stat) {
        // the thread's name (field 2) is in parentheses and may hold spaces: count the fields after its ')'
        String[] fields = stat.substring(stat.lastIndexOf(')') + 2).trim().split(" ");
        return Long.parseLong(fields[11]) + Long.parseLong(fields[12]);
    }

    /**
     * The largest share of a core any JVM's compilers took between two readings {@code seconds} apart
     * (a JVM missing from the first counts from 0).
     */
    public static double busiestShare(Map<String, Double> before, Map<String, Double> after, double seconds) {
        return after.entrySet().stream()
                .mapToDouble(e -> (e.getValue() - before.getOrDefault(e.getKey(), 0.0)) / seconds)
                .max().orElse(0);
    }

    /**
     * "0.03 cores in all: cassandra-sydney-1 0.6 s, ...": what the compilers took in all, as cores
     * over the {@code seconds} between two readings, and each JVM's.
     */
    public static String describePhase(Map<String, Double> before, Map<String, Double> after, double seconds) {
        double all = after.entrySet().stream().mapToDouble(e -> e.getValue() - before.getOrDefault(e.getKey(), 0.0)).sum();
        return String.format(Locale.ROOT, "%.2f cores in all: %s", all / seconds, describe(before, after));
    }

    /** "cassandra-sydney-1 41.2 s, kafka-sydney 12.0 s": what each JVM's compilers took between two readings. */
    public static String describe(Map<String, Double> before, Map<String, Double> after) {
        return after.entrySet().stream()
                .map(e -> String.format(Locale.ROOT, "%s %.1f s", e.getKey(), e.getValue() - before.getOrDefault(e.getKey(), 0.0)))
                .collect(Collectors.joining(", "));
    }
}
