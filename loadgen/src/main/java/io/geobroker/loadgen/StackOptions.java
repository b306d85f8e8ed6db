package io.geobroker.loadgen;

import io.geobroker.domain.Topics;
import io.geobroker.domain.Topology;
import io.geobroker.loadgen.demo.Demo;
import io.geobroker.loadgen.driver.Target;
import io.geobroker.stack.Jdk17;
import io.geobroker.stack.LocalStack;
import io.geobroker.stack.WanMode;
import picocli.CommandLine;
import picocli.CommandLine.Option;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * The options of a command that drives one running deployment ({@code --target} with an admin
 * token) or, without it, starts the demo's local two-region system and stops it afterwards
 * ({@code ack-bench}, {@code workload}).
 */
final class StackOptions {

    @Option(names = "--target", description = "Topology file of a running deployment (as for run); without it the "
            + "local system is started and stopped.")
    Path topologyFile;

    @Option(names = "--admin-token-file", description = "With --target: file holding the brokers' admin token (default: "
            + "environment GEOBROKER_ADMIN_TOKEN).")
    Path adminTokenFile;

    @Option(names = "--ready-timeout", defaultValue = "60s", converter = WorkloadOptions.DurationConverter.class,
            description = "How long to wait for the brokers to be ready (and ack-bench's FIX sessions to log on). "
                    + "Default: ${DEFAULT-VALUE}.")
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

    @Option(names = "--cassandra-heap-mb", defaultValue = "" + LocalStack.DEFAULT_CASSANDRA_HEAP_MB, description = "Without "
            + "--target: heap of each Cassandra node (from 512 on, half of it for memtables), as the demo's. "
            + "Default: ${DEFAULT-VALUE}.")
    int cassandraHeapMb;

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

    /** The running deployment {@code --target} names, with the admin token; empty without {@code --target}. */
    Optional<Target> target(CommandLine.Model.CommandSpec spec) throws IOException {
        if (topologyFile == null) {
            return Optional.empty();
        }
        if (!Files.isRegularFile(topologyFile)) {
            throw usage(spec, "--target " + topologyFile + ": no such file");
        }
        return Optional.of(Target.of(Topology.load(topologyFile), java.util.Map.of(), java.util.Map.of(), adminToken(spec),
                Topics.standard(), "topology " + topologyFile));
    }

    /** The local system's address prefix: {@code --prefix}, else GEOBROKER_STACK_PREFIX, else 127.0. */
    String addressPrefix() {
        return prefix != null ? prefix : System.getenv().getOrDefault("GEOBROKER_STACK_PREFIX", "127.0");
    }

    /**
     * The JIT options of {@code --jit} for every JVM started, the thread priorities ({@link
     * Jdk17#threadPriorities}) and the processor share ({@link Jdk17#processorShare}).
     */
    List<String> jitOptions(CommandLine.Model.CommandSpec spec) {
        return jitOptions(jit, spec);
    }

    /** The emulated WAN of a {@code --wan} value: {@code auto}, {@code on} or {@code off}. */
    static WanMode wanMode(String wan, CommandLine.Model.CommandSpec spec) {
        return switch (wan.toLowerCase(Locale.ROOT)) {
            case "auto" -> WanMode.AUTO;
            case "on" -> WanMode.ON;
            case "off" -> WanMode.OFF;
            default -> throw usage(spec, "--wan must be auto, on or off");
        };
    }

    /** The options of a {@code --jit} value ({@code c1-only} or {@code tiered}) for every JVM of the local system. */
    static List<String> jitOptions(String jit, CommandLine.Model.CommandSpec spec) {
        return switch (jit.toLowerCase(Locale.ROOT)) {
            case "c1-only" -> Jdk17.localSystemOptions(true);
            case "tiered" -> Jdk17.localSystemOptions(false);
            default -> throw usage(spec, "--jit must be c1-only or tiered");
        };
    }

    /** The demo's deployment with these options and the given ticker service (paused until the run sets its rate). */
    Demo.Settings demoSettings(CommandLine.Model.CommandSpec spec, Demo.TickerService ticker) {
        WanMode wanMode = wanMode(wan, spec);
        if (cassandraHeapMb < 128 || brokerHeapMb < 128) {
            throw usage(spec, "--cassandra-heap-mb and --broker-heap-mb must be at least 128");
        }
        List<String> jitOptions = jitOptions(spec);
        List<String> brokerOptions = new ArrayList<>(jitOptions);
        brokerOptions.addAll(brokerJvmOptions);
        Path root = DemoCommand.repositoryRoot();
        return new Demo.Settings(root, workDir != null ? workDir : root.resolve(".demo"), addressPrefix(), wanMode, 1,
                cassandraHeapMb, jitOptions, brokerHeapMb, brokerOptions, false, startTimeout, Optional.of(ticker));
    }

    /** The deployment line of a report, for the local system. */
    String deployment(String tickerService) {
        return "local stack on this machine: one Cassandra 5.0 node per DC (" + cassandraHeapMb + " MB heap), one Kafka "
                + "broker per region, one "
                + "broker-service per region (" + brokerHeapMb + " MB heap"
                + (brokerJvmOptions.isEmpty() ? "" : ", " + String.join(" ", brokerJvmOptions)) + "), " + tickerService
                + "; JIT: " + ("tiered".equalsIgnoreCase(jit) ? "tiered" : "C1 only in every JVM started");
    }

    private String adminToken(CommandLine.Model.CommandSpec spec) throws IOException {
        if (adminTokenFile != null) {
            return Files.readString(adminTokenFile, StandardCharsets.UTF_8).trim();
        }
        String env = System.getenv("GEOBROKER_ADMIN_TOKEN");
        if (env == null || env.isBlank()) {
            throw usage(spec, "no admin token: pass --admin-token-file or set GEOBROKER_ADMIN_TOKEN");
        }
        return env.trim();
    }

    static CommandLine.ParameterException usage(CommandLine.Model.CommandSpec spec, String message) {
        return new CommandLine.ParameterException(spec.commandLine(), message);
    }
}
