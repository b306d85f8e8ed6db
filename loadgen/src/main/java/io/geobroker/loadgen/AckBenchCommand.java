package io.geobroker.loadgen;

import io.geobroker.domain.Topics;
import io.geobroker.domain.Topology;
import io.geobroker.loadgen.ackbench.AckBench;
import io.geobroker.loadgen.demo.Demo;
import io.geobroker.loadgen.driver.Target;
import io.geobroker.stack.WanMode;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;

/**
 * {@code loadgen ack-bench}: the order-acknowledgement benchmark of issue 28. Without
 * {@code --target} it starts the local two-region system as the demo does (the ticker service
 * paused), benchmarks one region's broker and stops everything; with {@code --target} it drives a
 * running deployment.
 */
@Command(name = "ack-bench", mixinStandardHelpOptions = true,
        description = "Order-acknowledgement benchmark: for each number of clients, that many clients at once each send "
                + "--orders LIMIT BUY orders one after another, the next when the previous one's ack arrived, over REST or "
                + "FIX to one region's broker; prints orders/s, ack latency, rejects, errors, fills and CPU per round.")
public final class AckBenchCommand implements Callable<Integer> {

    @Option(names = "--clients", defaultValue = "5,25,250", split = ",",
            description = "The rounds: clients at once in each, in order. Default: ${DEFAULT-VALUE}.")
    List<Integer> clients;

    @Option(names = "--orders", defaultValue = "1000", description = "Orders each client sends in a round. Default: ${DEFAULT-VALUE}.")
    int orders;

    @Option(names = "--protocol", defaultValue = "fix", description = "fix | rest. Default: ${DEFAULT-VALUE}.")
    String protocol;

    @Option(names = "--region", defaultValue = "nvirginia", description = "The region whose broker is benchmarked "
            + "(its own symbols). Default: ${DEFAULT-VALUE}.")
    String region;

    @Option(names = "--fix-port", defaultValue = "9878", description = "The brokers' FIX port, on the host of the "
            + "broker's HTTP address. Default: ${DEFAULT-VALUE}.")
    int fixPort;

    @Option(names = "--warmup-orders", defaultValue = "100", description = "Orders per client of an unreported first "
            + "round with the fewest clients (0: none). Default: ${DEFAULT-VALUE}.")
    int warmupOrders;

    @Option(names = "--ack-timeout", defaultValue = "10s", converter = WorkloadOptions.DurationConverter.class,
            description = "How long a client waits for an ack before counting an error and sending its next order. "
                    + "Default: ${DEFAULT-VALUE}.")
    Duration ackTimeout;

    @Option(names = "--round-timeout", defaultValue = "300s", converter = WorkloadOptions.DurationConverter.class,
            description = "Bound on one round; orders not sent by then count as errors. Default: ${DEFAULT-VALUE}.")
    Duration roundTimeout;

    @Option(names = "--setup-timeout", defaultValue = "300s", converter = WorkloadOptions.DurationConverter.class,
            description = "Bound on creating and funding the customers. Default: ${DEFAULT-VALUE}.")
    Duration setupTimeout;

    @Option(names = "--out", defaultValue = "loadgen-report", description = "Directory of the report files "
            + "(ack-bench-<protocol>.json and .md). Default: ${DEFAULT-VALUE}.")
    Path out;

    @Option(names = "--no-progress", negatable = false, description = "No progress bar on stderr.")
    boolean noProgress;

    @Option(names = "--target", description = "Topology file of a running deployment (as for run); without it the "
            + "local system is started and stopped.")
    Path topologyFile;

    @Option(names = "--admin-token-file", description = "With --target: file holding the brokers' admin token (default: "
            + "environment GEOBROKER_ADMIN_TOKEN).")
    Path adminTokenFile;

    @Option(names = "--ready-timeout", defaultValue = "60s", converter = WorkloadOptions.DurationConverter.class,
            description = "How long to wait for the brokers to be ready and the FIX sessions to log on. Default: ${DEFAULT-VALUE}.")
    Duration readyTimeout;

    @Option(names = "--prefix", description = "Without --target: loopback address prefix of the stack (default: "
            + "GEOBROKER_STACK_PREFIX or 127.0).")
    String prefix;

    @Option(names = "--work-dir", description = "Without --target: the stack's data and the services' logs (default: "
            + "<repository>/.demo, as the demo).")
    Path workDir;

    @Option(names = "--wan", defaultValue = "auto", description = "Without --target: auto | on | off, the emulated WAN. "
            + "Default: ${DEFAULT-VALUE}.")
    String wan;

    @Option(names = "--broker-heap-mb", defaultValue = "512", description = "Without --target: heap of each broker. "
            + "Default: ${DEFAULT-VALUE}.")
    int brokerHeapMb;

    @Option(names = "--broker-jvm-option", description = "Without --target: an extra JVM option for each broker (repeatable).")
    List<String> brokerJvmOptions = new ArrayList<>();

    @Option(names = "--jit", defaultValue = "c1-only", description = "Without --target: c1-only | tiered, for every JVM "
            + "started. Default: ${DEFAULT-VALUE}.")
    String jit;

    @Option(names = "--start-timeout", defaultValue = "300s", converter = WorkloadOptions.DurationConverter.class,
            description = "Without --target: bound on starting the stack and the services. Default: ${DEFAULT-VALUE}.")
    Duration startTimeout;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    /** The benchmark's settings from the options; bad ones are usage errors (exit 2). */
    AckBench.Settings settings() {
        AckBench.Protocol p = switch (protocol.toLowerCase(Locale.ROOT)) {
            case "fix" -> AckBench.Protocol.FIX;
            case "rest" -> AckBench.Protocol.REST;
            default -> throw usage("--protocol must be fix or rest, not " + protocol);
        };
        if (clients.isEmpty() || clients.stream().anyMatch(c -> c == null || c < 1 || c > MAX_CLIENTS)) {
            throw usage("--clients must be numbers of clients from 1 to " + MAX_CLIENTS + ", e.g. 5,25,250");
        }
        if (orders < 1 || warmupOrders < 0) {
            throw usage("--orders must be at least 1 and --warmup-orders not negative");
        }
        if (fixPort < 1 || fixPort > 65_535) {
            throw usage("--fix-port must be a TCP port (1-65535)");
        }
        for (Duration d : List.of(ackTimeout, roundTimeout, setupTimeout, readyTimeout, startTimeout)) {
            if (d.isZero() || d.isNegative()) {
                throw usage("timeouts must be positive");
            }
        }
        return new AckBench.Settings(p, region, clients, orders, warmupOrders, fixPort, ackTimeout, roundTimeout,
                setupTimeout, readyTimeout, out, !noProgress);
    }

    /** Threads and connections (or FIX sessions) the load generator opens at once. */
    static final int MAX_CLIENTS = 2_000;

    @Override
    public Integer call() throws Exception {
        AckBench.Settings settings = settings();
        if (topologyFile != null) {
            if (!Files.isRegularFile(topologyFile)) {
                throw usage("--target " + topologyFile + ": no such file");
            }
            Target target = Target.of(Topology.load(topologyFile), Map.of(), Map.of(), adminToken(), Topics.standard(),
                    "topology " + topologyFile);
            AckBench.run(target, settings, List.of(), Map.of());
            return 0;
        }
        WanMode wanMode = switch (wan.toLowerCase(Locale.ROOT)) {
            case "auto" -> WanMode.AUTO;
            case "on" -> WanMode.ON;
            case "off" -> WanMode.OFF;
            default -> throw usage("--wan must be auto, on or off");
        };
        List<String> jitOptions = switch (jit.toLowerCase(Locale.ROOT)) {
            case "c1-only" -> List.of(DemoCommand.C1_ONLY);
            case "tiered" -> List.of();
            default -> throw usage("--jit must be c1-only or tiered");
        };
        if (brokerHeapMb < 128) {
            throw usage("--broker-heap-mb must be at least 128");
        }
        List<String> brokerOptions = new ArrayList<>(jitOptions);
        brokerOptions.addAll(brokerJvmOptions);
        Path root = DemoCommand.repositoryRoot();
        String addressPrefix = prefix != null ? prefix : System.getenv().getOrDefault("GEOBROKER_STACK_PREFIX", "127.0");
        // The demo's deployment and defaults; its ticker service stays paused: the rounds measure acks.
        Demo.Settings demoSettings = new Demo.Settings(root, workDir != null ? workDir : root.resolve(".demo"),
                addressPrefix, wanMode, 1, 256, jitOptions, brokerHeapMb, brokerOptions, false, startTimeout,
                Optional.of(new Demo.TickerService(256, jitOptions, 42, 10, 0)));
        try (Demo demo = new Demo(demoSettings)) {
            Topology topology = demo.start();
            Target target = Target.of(topology, Map.of(), Map.of(), demo.adminToken(), Topics.standard(),
                    "local stack " + addressPrefix + ".x (" + demo.wanStatus() + ")");
            Map<String, String> conditions = new LinkedHashMap<>();
            conditions.put("deployment", "local stack on this machine: one Cassandra 5.0 node per DC (256 MB heap), one "
                    + "Kafka broker per region, one broker-service per region (" + brokerHeapMb + " MB heap"
                    + (brokerJvmOptions.isEmpty() ? "" : ", " + String.join(" ", brokerJvmOptions)) + "), the ticker "
                    + "service paused; JIT: " + (jitOptions.isEmpty() ? "tiered" : "C1 only in every JVM started"));
            conditions.put("WAN", demo.wanStatus());
            AckBench.run(target, settings, demo.processGroups(), conditions);
        }
        return 0;
    }

    private String adminToken() throws IOException {
        if (adminTokenFile != null) {
            return Files.readString(adminTokenFile, StandardCharsets.UTF_8).trim();
        }
        String env = System.getenv("GEOBROKER_ADMIN_TOKEN");
        if (env == null || env.isBlank()) {
            throw usage("no admin token: pass --admin-token-file or set GEOBROKER_ADMIN_TOKEN");
        }
        return env.trim();
    }

    private CommandLine.ParameterException usage(String message) {
        return new CommandLine.ParameterException(spec.commandLine(), message);
    }
}
