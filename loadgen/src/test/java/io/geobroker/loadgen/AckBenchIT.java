package io.geobroker.loadgen;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.geobroker.domain.Topology;
import io.geobroker.loadgen.demo.Demo;
import io.geobroker.stack.WanMode;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A tiny {@code ack-bench --target} (2 clients x 20 orders, no warm-up) over each protocol against
 * a deployment started with the demo's machinery: every order acknowledged as accepted, none
 * filled, and the report's figures consistent with that.
 */
class AckBenchIT {

    @TempDir
    static Path dir;
    private static Demo deployment;
    private static Path topologyFile;
    private static Path token;

    @BeforeAll
    static void startDeployment() throws Exception {
        Path root = Path.of(System.getProperty("geobroker.root", "..")).toAbsolutePath().normalize();
        Demo.Settings settings = new Demo.Settings(root, dir.resolve("deployment"), StackPrefix.offset(8), WanMode.OFF, 1, 256,
                List.of(), 384, List.of(), false, Duration.ofSeconds(300), Optional.empty());
        deployment = new Demo(settings);
        Topology topology = deployment.start();
        topologyFile = dir.resolve("topology.properties");
        topology.write(topologyFile);
        token = Files.writeString(dir.resolve("admin-token"), deployment.adminToken());
    }

    @AfterAll
    static void stopDeployment() {
        if (deployment != null) {
            deployment.close();
        }
    }

    @Test
    void rest_acks_every_order() throws Exception {
        JsonNode round = bench("rest");
        assertThat(round.path("fills").isNull()).as("REST delivers no fills").isTrue();
    }

    @Test
    void fix_acks_every_order() throws Exception {
        JsonNode round = bench("fix");
        assertThat(round.path("fills").asLong()).as("resting orders, far below the market").isZero();
    }

    /** Runs the tiny benchmark and checks its one round; returns it. */
    private static JsonNode bench(String protocol) throws Exception {
        Path out = dir.resolve("report-" + protocol);
        int code = Loadgen.execute("ack-bench", "--target", topologyFile.toString(), "--admin-token-file", token.toString(),
                "--protocol", protocol, "--clients", "2", "--orders", "20", "--warmup-orders", "0", "--no-progress",
                "--out", out.toString());

        assertThat(code).isZero();
        JsonNode report = new ObjectMapper().readTree(out.resolve("ack-bench-" + protocol + ".json").toFile());
        assertThat(report.path("protocol").asText()).isEqualTo(protocol);
        JsonNode round = report.path("rounds").get(0);
        assertThat(round.path("clients").asInt()).isEqualTo(2);
        assertThat(round.path("accepted").asLong()).as("causes: %s", round.path("causes")).isEqualTo(40);
        assertThat(round.path("rejected").asLong()).isZero();
        assertThat(round.path("errors").asLong()).isZero();
        JsonNode latency = round.path("ackLatencyMicros");
        assertThat(latency.path("count").asLong()).isEqualTo(40);
        assertThat(latency.path("p50").asLong()).isPositive().isLessThanOrEqualTo(latency.path("p99").asLong());
        assertThat(latency.path("p99").asLong()).isLessThanOrEqualTo(latency.path("max").asLong());
        assertThat(round.path("ordersPerSecond").asDouble())
                .isCloseTo(40 * 1e9 / round.path("wallNanos").asLong(), org.assertj.core.api.Assertions.within(0.1));
        assertThat(round.path("cpu").asText()).as("a deployment elsewhere: the load generator's own CPU")
                .matches("load generator [0-9]+\\.[0-9]{2} of [0-9]+ cores");
        return round;
    }
}
