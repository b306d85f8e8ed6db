package io.geobroker.loadgen;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code workload} with the course's real two-user file (10,000 commands, ending in an admin
 * DUMPLOG) against the local system it starts and stops itself (its own stack on
 * {@code <shared prefix + 9>}, WAN off, the ticker service at 50 tickers/s): every command answered,
 * no HTTP failure, the DUMPLOG's file written and valid against the schema, and the end-of-run
 * invariants holding for both users.
 */
class WorkloadIT {

    @TempDir
    static Path dir;

    @Test
    void replays_the_courses_two_user_file() throws Exception {
        Path file = Path.of("src/test/resources/day-trading/WL_2_USER.txt").toAbsolutePath();
        Path out = dir.resolve("report");
        int code = Loadgen.execute("workload", file.toString(), "--prefix", StackPrefix.offset(9), "--work-dir",
                dir.resolve("stack").toString(), "--wan", "off", "--broker-heap-mb", "384", "--no-progress",
                "--out", out.toString());

        JsonNode report = new ObjectMapper().readTree(out.resolve("workload.json").toFile());
        assertThat(report.path("sent").asLong()).isEqualTo(10_000);
        assertThat(report.path("answered").asLong()).as("failures: %s", report.path("failures")).isEqualTo(10_000);
        assertThat(report.path("failed").asLong()).isZero();
        assertThat(report.path("users").asLong()).isEqualTo(2);
        assertThat(report.path("errors").asLong()).as("the file's COMMITs with nothing pending and the like")
                .isPositive().isLessThan(10_000);
        assertThat(report.path("addedLines").path("answered").asLong()).as("2 summaries and the final DUMPLOG").isEqualTo(3);
        assertThat(report.path("addedLines").path("failed").asLong()).isZero();

        JsonNode logs = report.path("logs");
        assertThat(logs.size()).as("the file's DUMPLOG and the final one").isEqualTo(2);
        assertThat(logs.get(0).path("filename").asText()).isEqualTo("./testLOG");
        assertThat(out.resolve("testLOG")).isRegularFile();
        for (JsonNode log : logs) {
            assertThat(log.path("valid").asBoolean()).as("%s", log).isTrue();
            assertThat(log.path("bytes").asLong()).isPositive();
        }
        assertThat(report.path("schemaNote").asText()).contains("widened");

        JsonNode invariants = report.path("invariants");
        assertThat(invariants.size()).as("%s", report.path("invariantsNote")).isEqualTo(3);
        for (JsonNode check : invariants) {
            assertThat(check.path("holds").asBoolean()).as("%s", check).isTrue();
            assertThat(check.path("users").asLong()).isEqualTo(2);
        }
        assertThat(report.path("symbols").size()).as("the file's 20 symbols, each mapped").isEqualTo(20);
        assertThat(report.path("averagePerSecond").asDouble()).isPositive();
        assertThat(report.path("cpu").asText()).contains("load generator");
        assertThat(code).as("exit code: no failures").isZero();
    }
}
