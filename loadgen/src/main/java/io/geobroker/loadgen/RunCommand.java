package io.geobroker.loadgen;

import io.geobroker.domain.SymbolDirectory;
import io.geobroker.domain.Topics;
import io.geobroker.domain.Topology;
import io.geobroker.loadgen.driver.Driver;
import io.geobroker.loadgen.driver.ResourceSampler;
import io.geobroker.loadgen.driver.Target;
import io.geobroker.loadgen.driver.TickerRateClient;
import io.geobroker.loadgen.driver.TickerSource;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.io.IOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.Callable;

/** {@code loadgen run}: drives an already-running deployment (local or in the cloud). */
@Command(name = "run", mixinStandardHelpOptions = true,
        description = "Drive an already-running deployment given by a topology file and/or per-region URLs, "
                + "then print and write the latency report.")
public final class RunCommand implements Callable<Integer> {

    @Option(names = "--target", description = "Topology file of the deployment (regions, broker-url, kafka), e.g. the local stack's topology.properties.")
    Path topologyFile;

    @Option(names = "--broker", description = "Broker URL of a region, e.g. --broker sydney=http://127.0.1.200:8080 (overrides the topology).")
    Map<String, String> brokers = new LinkedHashMap<>();

    @Option(names = "--kafka", description = "Kafka bootstrap servers of a region, e.g. --kafka sydney=127.0.1.100:9092 (overrides the topology).")
    Map<String, String> kafka = new LinkedHashMap<>();

    @Option(names = "--admin-token-file", description = "File holding the brokers' admin token (default: environment GEOBROKER_ADMIN_TOKEN).")
    Path adminTokenFile;

    @Option(names = "--topic-prefix", defaultValue = "", description = "Prefix of the Kafka topic names, if the deployment uses one.")
    String topicPrefix;

    @Option(names = "--ticker-service", description = "URL of the deployment's ticker service, e.g. http://127.0.0.200:8081: "
            + "the run then sets its rate as the demo does (ramp, then --tickers-per-second x --scale) and puts back the "
            + "rate it had when the run ends. Default: the deployment's ticker service keeps its own rate.")
    String tickerService;

    @Option(names = "--ready-timeout", defaultValue = "60s", converter = WorkloadOptions.DurationConverter.class,
            description = "How long to wait for the deployment to be ready. Default: ${DEFAULT-VALUE}.")
    Duration readyTimeout;

    @Mixin
    WorkloadOptions options;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        if (options.scenario() == WorkloadOptions.Scenario.REMOTE_DC) {
            throw new CommandLine.ParameterException(spec.commandLine(),
                    "remote-dc reconfigures the brokers, so it is a demo scenario; against a running deployment, start its brokers "
                            + "with the other region's DC as local DC and use --scenario default");
        }
        if (options.scenario() == WorkloadOptions.Scenario.CHAOS) {
            throw new CommandLine.ParameterException(spec.commandLine(),
                    "chaos kills and restarts the deployment's processes, which only the demo started itself and can do: "
                            + "use ./geobroker demo --scenario chaos");
        }
        options.workload();
        options.resourceInterval();
        Topology topology = topology();
        Target target = Target.of(topology, brokers, kafka, adminToken(), new Topics(topicPrefix),
                topologyFile != null ? "topology " + topologyFile : "regions " + brokers.keySet());
        Driver.Tickers tickers = tickers();
        LoadRun.execute(target, options, tickers, readyTimeout, options.scenario().name().toLowerCase().replace('_', '-'),
                Map.of(), List.of(), Map::of, ResourceSampler.Sources.none());
        return 0;
    }

    /**
     * The deployment's own ticker service publishes: at its own rate, or at the run's when
     * {@code --ticker-service} names it; {@code --tickers=loadgen} makes the load generator publish.
     */
    private Driver.Tickers tickers() throws InterruptedException {
        if (options.tickers() == TickerSource.LOADGEN) {
            if (tickerService != null) {
                throw new CommandLine.ParameterException(spec.commandLine(),
                        "--ticker-service sets the rate of the deployment's ticker service; with --tickers=loadgen the load "
                                + "generator publishes, so give only one of them");
            }
            return Driver.Tickers.publishedByLoadgen();
        }
        if (tickerService == null) {
            return Driver.Tickers.fromDeployment();
        }
        URI url;
        try {
            url = new URI(tickerService);
        } catch (URISyntaxException e) {
            url = null;
        }
        if (url == null || url.getHost() == null || !("http".equals(url.getScheme()) || "https".equals(url.getScheme()))) {
            throw new CommandLine.ParameterException(spec.commandLine(),
                    "--ticker-service must be an http(s) URL such as http://127.0.0.200:8081, not " + tickerService);
        }
        TickerRateClient rate = new TickerRateClient(tickerService, Duration.ofSeconds(5));
        try {
            return Driver.Tickers.fromDeploymentService(rate, rate.current());
        } catch (IOException e) {
            throw new IllegalStateException("the ticker service at " + tickerService + " does not answer its rate ("
                    + e.getClass().getSimpleName() + (e.getMessage() == null ? "" : ": " + e.getMessage()) + ")", e);
        }
    }

    private Topology topology() {
        if (topologyFile != null) {
            if (!Files.isRegularFile(topologyFile)) {
                throw new CommandLine.ParameterException(spec.commandLine(), "--target " + topologyFile + ": no such file");
            }
            return Topology.load(topologyFile);
        }
        if (brokers.isEmpty()) {
            throw new CommandLine.ParameterException(spec.commandLine(),
                    "give the deployment: --target topology.properties, or --broker and --kafka for every region");
        }
        Properties p = new Properties();
        p.setProperty(Topology.PREFIX + "regions", String.join(",", brokers.keySet()));
        return Topology.fromProperties(p, SymbolDirectory.standard());
    }

    private String adminToken() throws IOException {
        if (adminTokenFile != null) {
            return Files.readString(adminTokenFile, StandardCharsets.UTF_8).trim();
        }
        String env = System.getenv("GEOBROKER_ADMIN_TOKEN");
        if (env == null || env.isBlank()) {
            throw new CommandLine.ParameterException(spec.commandLine(),
                    "no admin token: pass --admin-token-file or set GEOBROKER_ADMIN_TOKEN");
        }
        return env.trim();
    }
}
