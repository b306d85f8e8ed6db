package io.geobroker.loadgen;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.geobroker.domain.Topology;
import io.geobroker.loadgen.demo.Demo;
import io.geobroker.loadgen.driver.TickerRateClient;
import io.geobroker.stack.WanMode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.LongStream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code run} against an already-running deployment — the demo's stack, brokers and ticker service,
 * driven from outside as a deployment in the cloud would be — with {@code --ticker-service}: the
 * run sets the service's rate to its own and puts back the rate the service had.
 */
class RunAgainstDeploymentIT {

    private static final double DEPLOYMENT_RATE = 7.0;

    @Test
    void run_sets_the_ticker_services_rate_for_the_load_and_puts_it_back(@TempDir Path dir) throws Exception {
        Path root = Path.of(System.getProperty("geobroker.root", "..")).toAbsolutePath().normalize();
        Demo.Settings settings = new Demo.Settings(root, dir.resolve("deployment"), StackPrefix.offset(7), WanMode.OFF, 1, 256,
                List.of(), 384, List.of(), false, Duration.ofSeconds(300),
                Optional.of(new Demo.TickerService(192, List.of(), 42, 10, 0)));
        try (Demo deployment = new Demo(settings)) {
            Topology topology = deployment.start();
            Path topologyFile = dir.resolve("topology.properties");
            topology.write(topologyFile);
            Path token = Files.writeString(dir.resolve("admin-token"), deployment.adminToken());
            String tickerService = deployment.tickerServiceUrl().orElseThrow();
            TickerRateClient rate = new TickerRateClient(tickerService, Duration.ofSeconds(5));
            rate.set(DEPLOYMENT_RATE);
            Path out = dir.resolve("report");

            // 0.1 x the default load: 30 orders/s and 60 tickers/s, far above the deployment's 7 tickers/s.
            int code = Loadgen.execute("run", "--target", topologyFile.toString(), "--admin-token-file", token.toString(),
                    "--ticker-service", tickerService, "--scale", "0.1", "--warmup", "6s", "--ramp", "2s",
                    "--duration", "10s", "--no-progress", "--out", out.toString());

            assertThat(code).isZero();
            assertThat(rate.current()).as("the rate after the run").isEqualTo(DEPLOYMENT_RATE);
            JsonNode report = new ObjectMapper().readTree(out.resolve("report.json").toFile());
            long tickers = 0;
            for (JsonNode region : report.path("regions")) {
                tickers += region.path("tickers").asLong();
            }
            assertThat(tickers).as("tickers stamped in the 10 s measured phase (60/s asked, 7/s before the run)")
                    .isGreaterThan(300);
            List<Long> intervalStarts = new ArrayList<>();
            report.path("throughput").path("orders.sent/sydney").forEach(point -> intervalStarts.add(point.get(0).asLong()));
            assertThat(intervalStarts).as("one interval per second of the 10 s phase, named by its start, then the drain")
                    .containsExactlyElementsOf(LongStream.rangeClosed(0, 10).map(s -> s * 1_000).boxed().toList());
            assertThat(report.path("conditions").path("CPU in the measured phase (each process's user and system time)")
                    .asText()).as("a deployment elsewhere: only the load generator's own CPU")
                    .matches("load generator [0-9]+\\.[0-9]{2} of [0-9]+ cores");
            assertThat(report.path("conditions").path("tickers").asText())
                    .contains("deployment's ticker service").contains("put back to 7.0 tickers/s");
            assertThat(report.path("conditions").path("offered load").asText()).contains("60 tickers/s");
            assertThat(report.path("conditions").path("ticker service in the measured phase (its timers)").asText())
                    .as("what the ticker service whose rate the run set did, read from it")
                    .containsPattern("^[0-9]+ tickers/s, each handed to Kafka's producer mean [0-9.]+ ms \\(p50 <= [0-9.]+ ms\\) "
                            + "after its exchange time, then acknowledged by Kafka mean [0-9.]+ ms");
            for (String region : new String[] {"sydney", "nvirginia"}) {
                assertThat(report.path("conditions").path("engine of " + region + " in the measured phase (broker timers)")
                        .asText()).as("what %s's engine did, read from its broker", region)
                        .containsPattern("^[0-9.]+ commits/s, logged batch mean [0-9]+ ms")
                        .containsPattern("\\) of [0-9]+ statements in [0-9]+ partitions on average, waiting on batches")
                        .containsPattern("tickers/s, [0-9]+ per commit, each delivered mean [0-9.]+ ms \\(p50 <= [0-9.]+ ms\\) "
                                + "from its exchange time to the consumer, then waiting mean");
            }
        }
    }
}
