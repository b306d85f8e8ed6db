package io.geobroker.loadgen;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.geobroker.domain.Topology;
import io.geobroker.loadgen.demo.Demo;
import io.geobroker.loadgen.driver.TickerRateClient;
import io.geobroker.stack.Jdk17;
import io.geobroker.stack.WanMode;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
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
 * The load generator's commands against an already-running deployment — the demo's stack, brokers
 * and ticker service (its rate 7 tickers/s), started once for the class and driven from outside as
 * a deployment in the cloud would be:
 * <ul>
 *   <li>{@code run --ticker-service}: the run sets the service's rate to its own and puts back the
 *       rate the service had;</li>
 *   <li>a tiny {@code ack-bench --target} (2 clients x 20 orders, no warm-up) over each protocol:
 *       every order acknowledged as accepted, none filled, and the report's figures consistent with
 *       that.</li>
 * </ul>
 */
class DeploymentIT {

    private static final double DEPLOYMENT_RATE = 7.0;

    @TempDir
    static Path dir;
    private static Demo deployment;
    private static Path topologyFile;
    private static Path token;

    @BeforeAll
    static void startDeployment() throws Exception {
        Path root = Path.of(System.getProperty("geobroker.root", "..")).toAbsolutePath().normalize();
        // The brokers and the ticker service compile and size themselves as the stack's JVMs do.
        Demo.Settings settings = new Demo.Settings(root, dir.resolve("deployment"), StackPrefix.offset(7), WanMode.OFF, 1, 256,
                List.of(), 384, Jdk17.stackDefaults(), false, Duration.ofSeconds(300),
                Optional.of(new Demo.TickerService(192, Jdk17.stackDefaults(), 42, 10, 0, 0)));
        deployment = new Demo(settings);
        Topology topology = deployment.start();
        topologyFile = dir.resolve("topology.properties");
        topology.write(topologyFile);
        token = Files.writeString(dir.resolve("admin-token"), deployment.adminToken());
        new TickerRateClient(deployment.tickerServiceUrl().orElseThrow(), Duration.ofSeconds(5)).set(DEPLOYMENT_RATE);
    }

    @AfterAll
    static void stopDeployment() {
        if (deployment != null) {
            deployment.close();
        }
    }

    @Test
    void run_sets_the_ticker_services_rate_for_the_load_and_puts_it_back() throws Exception {
        String tickerService = deployment.tickerServiceUrl().orElseThrow();
        TickerRateClient rate = new TickerRateClient(tickerService, Duration.ofSeconds(5));
        assertThat(rate.current()).as("the deployment's rate before the run").isEqualTo(DEPLOYMENT_RATE);
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
        List<String> lagSources = new ArrayList<>();
        for (JsonNode series : report.path("resources").path("series")) {
            if (series.path("quantity").asText().equals("consumer-lag-records") && !series.path("points").isEmpty()) {
                lagSources.add(series.path("source").asText());
            }
        }
        assertThat(lagSources).as("each broker's consumer lag, read from its page's one gauge")
                .containsExactlyInAnyOrder("broker sydney", "broker nvirginia");
        for (String region : new String[] {"sydney", "nvirginia"}) {
            assertThat(report.path("conditions").path("engine of " + region + " in the measured phase (broker timers)")
                    .asText()).as("what %s's engine did, read from its broker", region)
                    .containsPattern("^[0-9.]+ commits/s, logged batch mean [0-9]+ ms")
                    .containsPattern("\\) of [0-9]+ statements in [0-9]+ partitions on average, waiting on batches")
                    .containsPattern("tickers/s, [0-9]+ per commit, each delivered mean [0-9.]+ ms \\(p50 <= [0-9.]+ ms\\) "
                            + "from its exchange time to the consumer, then waiting mean");
        }
    }

    @Test
    void brokers_start_from_a_class_data_archive_of_their_jar() throws Exception {
        for (String broker : List.of("broker sydney", "broker nvirginia")) {
            List<String> arguments = List.of(ProcessHandle.of(deployment.processes().get(broker)).orElseThrow()
                    .info().arguments().orElseThrow());
            String option = arguments.stream().filter(a -> a.startsWith("-XX:SharedArchiveFile=")).findFirst()
                    .orElseThrow(() -> new AssertionError(broker + " started without an archive: " + arguments));
            Path archive = Path.of(option.substring(option.indexOf('=') + 1));
            assertThat(Files.size(archive)).as("%s's archive, made by the training start", broker)
                    .isGreaterThan(1 << 20);
            Path jar = Path.of(arguments.get(arguments.indexOf("-jar") + 1));
            assertThat(jar.getParent().resolve("lib")).as("the extracted jar's libraries").isDirectory();
            assertThat(jar.getParent().getParent()).isEqualTo(archive.getParent());
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
