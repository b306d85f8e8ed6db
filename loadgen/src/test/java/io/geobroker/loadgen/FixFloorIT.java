package io.geobroker.loadgen;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code ack-bench --floor} end to end: the FIX floor started from the broker's jar as a process of
 * its own, the load generator's QuickFIX/J clients against it, the report with the floor's CPU.
 * Needs the broker's boot jar (the build packages broker-service before the load generator).
 */
class FixFloorIT {

    @Test
    void the_floor_acks_every_order_and_its_process_is_in_the_cpu_line(@TempDir Path dir) throws Exception {
        Path out = dir.resolve("out");
        Path work = dir.resolve("work");

        int code = Loadgen.execute("ack-bench", "--floor", "--clients", "3", "--orders", "50", "--warmup-orders", "10",
                "--no-progress", "--work-dir", work.toString(), "--out", out.toString());

        assertThat(code).isZero();
        JsonNode report = new ObjectMapper().readTree(out.resolve("ack-bench-fix.json").toFile());
        assertThat(report.path("region").asText()).isEqualTo("nvirginia (floor)");
        assertThat(report.path("conditions").path("target").asText()).startsWith("the FIX floor at 127.0.0.1:");
        JsonNode round = report.path("rounds").get(0);
        assertThat(round.path("accepted").asLong()).as("causes: %s", round.path("causes")).isEqualTo(150);
        assertThat(round.path("rejected").asLong()).isZero();
        assertThat(round.path("errors").asLong()).isZero();
        assertThat(round.path("ackLatencyMicros").path("count").asLong()).isEqualTo(150);
        assertThat(round.path("cpu").asText()).matches(".* in all: FIX floor [0-9]+\\.[0-9]{2}, load generator [0-9]+\\.[0-9]{2}");
        try (Stream<Path> files = Files.list(work.resolve("fix-floor").resolve("store"))) {
            assertThat(files.map(p -> p.getFileName().toString()).filter(name -> name.endsWith(".body")))
                    .as("each session's messages written through to the floor's store, as the broker's are").hasSize(3);
        }
    }
}
