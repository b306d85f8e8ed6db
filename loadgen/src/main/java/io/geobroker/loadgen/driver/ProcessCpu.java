package io.geobroker.loadgen.driver;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * The CPU time of the processes of a run on this machine, by group (Cassandra, Kafka, brokers,
 * ...), read from the operating system ({@link ProcessHandle.Info#totalCpuDuration()}: user and
 * system time) at two moments, and what they used in between as a number of cores. It tells
 * whether a run saturated the machine and which process took the cores.
 */
public final class ProcessCpu {

    /** Processes counted together under one name. */
    public record Group(String name, List<Long> pids) {
        public Group {
            pids = List.copyOf(pids);
        }
    }

    /** One reading: each group's CPU time so far (groups whose time the OS does not give are left out). */
    public record Reading(Map<String, Duration> cpu, long nanos) {
    }

    private ProcessCpu() {
    }

    /** The group of this JVM: the load generator. */
    public static Group loadGenerator() {
        return new Group("load generator", List.of(ProcessHandle.current().pid()));
    }

    public static Reading read(List<Group> groups) {
        Map<String, Duration> cpu = new LinkedHashMap<>();
        for (Group g : groups) {
            Duration sum = Duration.ZERO;
            boolean any = false;
            for (long pid : g.pids()) {
                Optional<Duration> time = ProcessHandle.of(pid).flatMap(p -> p.info().totalCpuDuration());
                if (time.isPresent()) {
                    sum = sum.plus(time.get());
                    any = true;
                }
            }
            if (any) {
                cpu.put(g.name(), sum);
            }
        }
        return new Reading(cpu, System.nanoTime());
    }

    /**
     * What each group used between the two readings, in cores, e.g. {@code "1.90 of 2 cores in all:
     * Cassandra 0.64, Kafka 0.28, load generator 0.25"}; only groups read both times count. Empty if
     * none was, or if no time passed.
     */
    public static Optional<String> describe(Reading before, Reading after, int cores) {
        double seconds = (after.nanos() - before.nanos()) / 1e9;
        if (seconds <= 0) {
            return Optional.empty();
        }
        List<String> parts = new ArrayList<>();
        double total = 0;
        for (Map.Entry<String, Duration> e : after.cpu().entrySet()) {
            Duration start = before.cpu().get(e.getKey());
            if (start == null) {
                continue;
            }
            double used = Math.max(0, e.getValue().minus(start).toNanos() / 1e9) / seconds;
            total += used;
            parts.add(String.format(Locale.ROOT, "%s %.2f", e.getKey(), used));
        }
        if (parts.isEmpty()) {
            return Optional.empty();
        }
        String each = String.join(", ", parts);
        return Optional.of(parts.size() == 1 ? String.format(Locale.ROOT, "%s of %d cores", each, cores)
                : String.format(Locale.ROOT, "%.2f of %d cores in all: %s", total, cores, each));
    }
}
