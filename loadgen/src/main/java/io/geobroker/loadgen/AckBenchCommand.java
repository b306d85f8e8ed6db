package io.geobroker.loadgen;

import io.geobroker.domain.Topics;
import io.geobroker.domain.Topology;
import io.geobroker.loadgen.ackbench.AckBench;
import io.geobroker.loadgen.demo.Demo;
import io.geobroker.loadgen.demo.FixFloorProcess;
import io.geobroker.loadgen.driver.Target;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.nio.file.Path;
import java.time.Duration;
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

    @Option(names = "--floor", negatable = false, description = "FIX only: instead of the system, the FIX floor: the "
            + "broker's FIX acceptor alone (its QuickFIX/J settings, file store and log, a process started as a broker "
            + "is) answering each order at once, with nothing matched or written to Cassandra. What the protocol costs "
            + "on this machine, beside the broker's rounds.")
    boolean floor;

    @CommandLine.Mixin
    StackOptions stack;

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
        for (Duration d : List.of(ackTimeout, roundTimeout, setupTimeout, stack.readyTimeout, stack.startTimeout)) {
            if (d.isZero() || d.isNegative()) {
                throw usage("timeouts must be positive");
            }
        }
        return new AckBench.Settings(p, region, clients, orders, warmupOrders, fixPort, ackTimeout, roundTimeout,
                setupTimeout, stack.readyTimeout, out, !noProgress);
    }

    /** Threads and connections (or FIX sessions) the load generator opens at once. */
    static final int MAX_CLIENTS = 2_000;

    @Override
    public Integer call() throws Exception {
        AckBench.Settings settings = settings();
        if (floor) {
            return runFloor(settings);
        }
        Optional<Target> running = stack.target(spec);
        if (running.isPresent()) {
            AckBench.run(running.get(), settings, List.of(), Map.of());
            return 0;
        }
        try (Demo demo = new Demo(localSystem())) {
            Topology topology = demo.start();
            Target target = Target.of(topology, Map.of(), Map.of(), demo.adminToken(), Topics.standard(),
                    "local stack " + stack.addressPrefix() + ".x (" + demo.wanStatus() + ")");
            Map<String, String> conditions = new LinkedHashMap<>();
            conditions.put("deployment", stack.deployment("the ticker service paused"));
            conditions.put("WAN", demo.wanStatus());
            AckBench.run(target, settings, demo.processGroups(), conditions);
        }
        return 0;
    }

    /** The rounds against the FIX floor, started from the broker's jar as the demo starts a broker, then stopped. */
    private int runFloor(AckBench.Settings settings) throws Exception {
        if (settings.protocol() != AckBench.Protocol.FIX) {
            throw usage("--floor is the FIX acceptor alone: use it with --protocol fix");
        }
        if (stack.topologyFile != null) {
            throw usage("--floor starts the floor on this machine: it takes no --target");
        }
        Demo.Settings d = localSystem();
        try (FixFloorProcess fixFloor = FixFloorProcess.start(d.root(), d.workDir(), d.brokerHeapMb(), d.brokerJvmOptions(),
                stack.startTimeout)) {
            Map<String, String> conditions = new LinkedHashMap<>();
            conditions.put("deployment", "the FIX floor alone on this machine, started as a broker is ("
                    + d.brokerHeapMb() + " MB heap, " + String.join(" ", d.brokerJvmOptions()) + "); no Cassandra, Kafka "
                    + "or ticker service");
            AckBench.runFloor(fixFloor.host(), fixFloor.port(), settings, List.of(fixFloor.cpuGroup()), conditions);
        }
        return 0;
    }

    /**
     * The demo's deployment and defaults (the brokers' heap and JVM options also start the floor);
     * its ticker service stays paused: the rounds measure acks.
     */
    private Demo.Settings localSystem() {
        return stack.demoSettings(spec, new Demo.TickerService(256, stack.jitOptions(spec), 42, 10, 0, 0));
    }

    private CommandLine.ParameterException usage(String message) {
        return StackOptions.usage(spec, message);
    }
}
