package io.geobroker.loadgen.driver;

import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class ProcessCpuTest {

    private static final long SECOND = 1_000_000_000L;

    @Test
    void gives_each_group_its_cores_over_the_span_and_their_sum() {
        ProcessCpu.Reading before = reading(0, Map.of("Cassandra", 10_000L, "load generator", 2_000L));
        ProcessCpu.Reading after = reading(40 * SECOND, Map.of("Cassandra", 35_760L, "load generator", 11_840L));

        assertThat(ProcessCpu.describe(before, after, 2))
                .contains("0.89 of 2 cores in all: Cassandra 0.64, load generator 0.25");
    }

    @Test
    void counts_only_groups_read_both_times_and_names_a_lone_group_without_a_sum() {
        ProcessCpu.Reading before = reading(0, Map.of("load generator", 1_000L));
        ProcessCpu.Reading after = reading(10 * SECOND, Map.of("brokers", 9_000L, "load generator", 2_000L));

        assertThat(ProcessCpu.describe(before, after, 2)).contains("load generator 0.10 of 2 cores");
        assertThat(ProcessCpu.describe(before, reading(10 * SECOND, Map.of("brokers", 9_000L)), 2)).isEmpty();
        assertThat(ProcessCpu.describe(before, reading(0, Map.of("load generator", 2_000L)), 2)).as("no time passed").isEmpty();
    }

    @Test
    void reads_the_cpu_time_this_jvm_has_used() {
        long spin = System.nanoTime() + 200_000_000L;
        double sink = 0;
        ProcessCpu.Reading before = ProcessCpu.read(List.of(ProcessCpu.loadGenerator()));
        while (System.nanoTime() < spin) {
            sink += Math.sqrt(sink + 1);
        }
        ProcessCpu.Reading after = ProcessCpu.read(List.of(ProcessCpu.loadGenerator(),
                new ProcessCpu.Group("gone", List.of(Long.MAX_VALUE))));

        assertThat(sink).isPositive();
        assertThat(after.cpu()).containsOnlyKeys("load generator");
        assertThat(after.cpu().get("load generator")).isGreaterThan(before.cpu().get("load generator"));
        assertThat(ProcessCpu.describe(before, after, 2)).hasValueSatisfying(s -> assertThat(s).matches("load generator [0-9.]+ of 2 cores"));
    }

    /** A reading at {@code nanos} of each group's CPU time in milliseconds, in the order given by name. */
    private static ProcessCpu.Reading reading(long nanos, Map<String, Long> millis) {
        Map<String, Duration> cpu = new LinkedHashMap<>();
        millis.keySet().stream().sorted().forEach(k -> cpu.put(k, Duration.ofMillis(millis.get(k))));
        return new ProcessCpu.Reading(cpu, nanos);
    }
}
