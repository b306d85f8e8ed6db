package io.geobroker.loadgen;

import io.geobroker.domain.Topics;
import io.geobroker.domain.Topology;
import io.geobroker.loadgen.chaos.ChaosOptions;
import io.geobroker.loadgen.chaos.ChaosPlan;
import io.geobroker.loadgen.chaos.ChaosRun;
import io.geobroker.loadgen.demo.Demo;
import io.geobroker.loadgen.driver.CompilerCpu;
import io.geobroker.loadgen.driver.Driver;
import io.geobroker.loadgen.driver.ResourceSampler;
import io.geobroker.loadgen.driver.Target;
import io.geobroker.loadgen.driver.TickerRateClient;
import io.geobroker.loadgen.driver.TickerSource;
import io.geobroker.loadgen.report.RunReport;
import io.geobroker.loadgen.report.WanTraffic;
import io.geobroker.stack.Jdk17;
import io.geobroker.stack.LocalStack;
import io.geobroker.stack.WanMode;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

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
import java.util.function.Supplier;

/**
 * {@code loadgen demo}: the main job. Starts the local two-region stack, one broker per region and
 * the ticker service, runs the workload, prints the report, writes the HTML and stops everything it
 * started.
 */
@Command(name = "demo", mixinStandardHelpOptions = true,
        description = "Start the local two-region system (Cassandra, Kafka, the emulated WAN where possible, a broker "
                + "per region, the ticker service), run the load, print the latency report and write it as HTML, JSON "
                + "and CSV; then stop everything it started.")
public final class DemoCommand implements Callable<Integer> {

    @Mixin
    WorkloadOptions options;

    @Mixin
    ChaosOptions chaosOptions;

    @Option(names = "--wan", defaultValue = "auto", description = "auto | on | off: the emulated ~230 ms WAN between the regions. Default: ${DEFAULT-VALUE}.")
    String wan;

    @Option(names = "--nodes-per-dc", defaultValue = "1", description = "Cassandra nodes per region. Default: ${DEFAULT-VALUE}.")
    int nodesPerDc;

    @Option(names = "--cassandra-heap-mb", defaultValue = "" + LocalStack.DEFAULT_CASSANDRA_HEAP_MB, description = "Heap of each Cassandra node (from 512 on, half of it for memtables). Default: ${DEFAULT-VALUE}.")
    int cassandraHeapMb;

    @Option(names = "--synced-commit-log", description = "Each Cassandra node syncs its commit log before it acknowledges "
            + "a write, so a node SIGKILLed by the chaos scenario keeps all it acknowledged, at one node per DC its DC's "
            + "only copy (slower: ticker-to-fill p50 3x at the default load). Default: every 10 s.")
    boolean syncedCommitLog;

    @Option(names = "--broker-heap-mb", defaultValue = "512", description = "Heap of each broker JVM. Default: ${DEFAULT-VALUE}.")
    int brokerHeapMb;

    @Option(names = "--broker-jvm-option", description = "An extra JVM option for each broker (repeatable; "
            + "write --broker-jvm-option=-XX:... ). Default: none.")
    List<String> brokerJvmOptions = new ArrayList<>();

    @Option(names = "--stack-jvm-option", description = "An extra JVM option for each Cassandra node and Kafka broker "
            + "of the local stack, after --jit's (repeatable; write --stack-jvm-option=-XX:... ). Default: none.")
    List<String> stackJvmOptions = new ArrayList<>();

    @Option(names = "--ticker-heap-mb", defaultValue = "256", description = "Heap of the ticker service JVM. Default: ${DEFAULT-VALUE}.")
    int tickerHeapMb;

    @Option(names = "--ticker-linger-ms", description = "How long the ticker service's Kafka producer waits to put "
            + "more tickers in one request: fewer requests for Kafka, the brokers and itself to handle, at up to that "
            + "much more ticker-to-fill latency (0: each ticker at once). Default: " + AUTO_LINGER_MS + ".")
    Integer tickerLingerMs;

    @Option(names = "--ticker-linger-from", description = "The rate of a region's tickers (a second, measured by the "
            + "ticker service every 250 ms) from which they linger; below 80 %% of it each goes at once. 0: at every "
            + "rate. Default: " + AUTO_LINGER_FROM + " without --ticker-linger-ms, else 0.")
    Integer tickerLingerFrom;

    /** The ticker linger the demo uses when none is given (docs/results.md, 2026-12-05). */
    static final int AUTO_LINGER_MS = 8;
    /**
     * The rate of a region's tickers (a second) from which they linger when no linger is given: two
     * per linger. At the default load N. Virginia's tickers (400 a second) linger and Sydney's (200)
     * do not. Without a linger there, ticker-to-fill p50 was 9.1-9.3 ms against 12.9-15.5 ms with it,
     * but a load that comes at once instead of ramping up (the sweep's steps) collapsed at three
     * quarters of the default load (p50 219-268 ms in two sweeps from 500 a second). With the linger
     * from 250 a second no sweep collapsed: in three, p99 stayed within 50 ms up to 1¼ and 1½ times
     * the load in two and above it from a quarter in the third, a slower hour (docs/results.md,
     * 2026-12-06). One ticker per linger (from 125 a second) cost p50 at half the load in the sweeps
     * of 2026-12-05.
     */
    static final int AUTO_LINGER_FROM = 2 * 1000 / AUTO_LINGER_MS;

    /**
     * The ticker service of a run: the linger and the rate it starts from as given; a linger given
     * alone holds at every rate.
     */
    static Demo.TickerService tickerService(int heapMb, List<String> jvmOptions, long seed, int symbolsPerExchange,
                                            Integer lingerMs, Integer lingerFrom) {
        return new Demo.TickerService(heapMb, jvmOptions, seed, symbolsPerExchange,
                lingerMs != null ? lingerMs : AUTO_LINGER_MS,
                lingerFrom != null ? lingerFrom : lingerMs != null ? 0 : AUTO_LINGER_FROM);
    }

    @Option(names = "--ticker-jvm-option", description = "An extra JVM option for the ticker service (repeatable; "
            + "write --ticker-jvm-option=-XX:... ). Default: none.")
    List<String> tickerJvmOptions = new ArrayList<>();

    @Option(names = "--jit", description = "warm-c2 | c1-only | tiered: how the JVMs the demo "
            + "starts (Cassandra, Kafka, the brokers, the ticker service) compile. warm-c2: with C1 and C2 (tiered), and "
            + "before the run, not measured, the run's own workload until their C2 compilers are quiet (60-300 s; not "
            + "in chaos). c1-only (-XX:TieredStopAtLevel=1): C1 only, compiled in seconds. tiered: C1 and C2 without "
            + "that warm-up: eight JVMs on a few cores spend minutes of CPU compiling while the run is measured. "
            + "Default: " + WARM_C2 + ", and c1-only for the chaos scenario (its kills restart JVMs, their compilers "
            + "with them).")
    String jit;

    @Option(names = "--prefix", description = "Loopback address prefix of the stack (default: GEOBROKER_STACK_PREFIX or 127.0).")
    String prefix;

    @Option(names = "--work-dir", description = "Where the stack's data and the services' logs go (default: <repository>/.demo).")
    Path workDir;

    @Option(names = "--start-timeout", defaultValue = "300s", converter = WorkloadOptions.DurationConverter.class,
            description = "Bound on starting the stack and on the brokers and the ticker service becoming healthy. "
                    + "Default: ${DEFAULT-VALUE}.")
    Duration startTimeout;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        options.workload();
        options.resourceInterval();
        WanMode wanMode = StackOptions.wanMode(wan, spec);
        if (nodesPerDc < 1 || cassandraHeapMb < 128 || brokerHeapMb < 128 || tickerHeapMb < 64
                || (tickerLingerMs != null && tickerLingerMs < 0)
                || (tickerLingerFrom != null && tickerLingerFrom < 0)) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--nodes-per-dc must be at least 1, "
                    + "--cassandra-heap-mb and --broker-heap-mb at least 128, --ticker-heap-mb at least 64, --ticker-linger-ms "
                    + "and --ticker-linger-from not negative");
        }
        boolean chaos = options.scenario() == WorkloadOptions.Scenario.CHAOS;
        String jitChosen = jit(this.jit, chaos);
        List<String> jitOptions = jitOptions(jitChosen, spec);
        Optional<ChaosPlan> plan;
        try {
            plan = chaos ? Optional.of(chaosOptions.plan(LocalStack.DEFAULT_REGIONS, options.seed())) : Optional.empty();
        } catch (IllegalArgumentException e) {
            throw new CommandLine.ParameterException(spec.commandLine(), e.getMessage());
        }
        List<String> brokerOptions = concat(jitOptions, brokerJvmOptions);
        List<String> tickerOptions = concat(jitOptions, tickerJvmOptions);
        Path root = repositoryRoot();
        String addressPrefix = prefix != null ? prefix
                : System.getenv().getOrDefault("GEOBROKER_STACK_PREFIX", "127.0");
        boolean remoteDc = options.scenario() == WorkloadOptions.Scenario.REMOTE_DC;
        boolean tickerService = options.tickers() == TickerSource.SERVICE;
        Optional<Demo.TickerService> ticker = tickerService
                ? Optional.of(tickerService(tickerHeapMb, tickerOptions, options.seed(), options.symbolsPerExchange(),
                        tickerLingerMs, tickerLingerFrom))
                : Optional.empty();
        Demo.Settings settings = new Demo.Settings(root, workDir != null ? workDir : root.resolve(".demo"), addressPrefix,
                wanMode, nodesPerDc, cassandraHeapMb, concat(jitOptions, stackJvmOptions), brokerHeapMb, brokerOptions,
                remoteDc, startTimeout, ticker, syncedCommitLog);
        try (Demo demo = new Demo(settings)) {
            Topology topology = demo.start();
            Driver.Tickers tickers = tickerService
                    ? Driver.Tickers.fromService(new TickerRateClient(demo.tickerServiceUrl().orElseThrow(), Duration.ofSeconds(5)))
                    : Driver.Tickers.publishedByLoadgen();
            Target target = Target.of(topology, Map.of(), Map.of(), demo.adminToken(), Topics.standard(),
                    "local stack " + addressPrefix + ".x (" + demo.wanStatus() + ")");
            Map<String, String> conditions = new LinkedHashMap<>();
            conditions.put("deployment", "local stack on this machine: " + nodesPerDc + " Cassandra 5.0 node(s) per DC ("
                    + cassandraHeapMb + " MB heap" + (syncedCommitLog ? ", commit log synced before each acknowledgement" : "")
                    + "), one Kafka 4.3 "
                    + "broker per region, one broker-service per region (" + brokerHeapMb + " MB heap"
                    + (brokerJvmOptions.isEmpty() ? "" : ", " + String.join(" ", brokerJvmOptions)) + ")"
                    + (remoteDc ? ", each broker using the other region's Cassandra DC" : "")
                    + (tickerService ? "; the ticker service in the root namespace (" + tickerHeapMb + " MB heap"
                    + (tickerJvmOptions.isEmpty() ? "" : ", " + String.join(" ", tickerJvmOptions)) + ")" : "")
                    + "; JIT: " + describeJit(jitChosen)
                    + pauseGoals(concat(jitOptions, stackJvmOptions), brokerOptions, tickerOptions)
                    + (Jdk17.threadPriorities().isEmpty() ? "" : "; Java thread priorities as the OS's ("
                    + String.join(" ", Jdk17.threadPriorities()) + ")")
                    + (Jdk17.processorShare().isEmpty() ? "" : "; each of them sized for one core of the machine's "
                    + Runtime.getRuntime().availableProcessors() + " (" + String.join(" ", Jdk17.processorShare()) + ")"));
            conditions.put("WAN", demo.wanStatus());
            conditions.put(WanTraffic.NODES_PER_DC, Integer.toString(nodesPerDc));
            conditions.put(WanTraffic.REPLICAS_PER_DC, Integer.toString(topology.regions().get(0).replicationFactor()));
            Optional<ChaosRun> chaosRun = plan.map(p -> new ChaosRun(demo, p));
            chaosRun.ifPresent(c -> conditions.put("chaos schedule", c.describe()));
            // Processes killed and started again have new pids, and a Cassandra node's counters start
            // again from zero: a chaos run's CPU line is the load generator's own, its counters the WAN's.
            Supplier<Map<String, Long>> counters = chaos ? () -> wanOnly(demo.counters()) : demo::counters;
            // Likewise a chaos run's memory series are the load generator's alone; Cassandra's backlog
            // is read from the nodes that answer.
            ResourceSampler.Sources resources = new ResourceSampler.Sources(chaos ? Map.of() : demo.processes(),
                    demo::cassandraBacklog);
            // A chaos run kills and starts JVMs again, their compilers with them: no warm-up for it.
            Optional<Supplier<Map<String, Double>>> jitCompilers = WARM_C2.equalsIgnoreCase(jitChosen) && !chaos
                    ? Optional.of(compilers(demo)) : Optional.empty();
            RunReport report = LoadRun.execute(target, options, tickers, Duration.ofSeconds(60),
                    options.scenario().name().toLowerCase().replace('_', '-'), conditions,
                    chaos ? List.of() : demo.processGroups(), counters, resources, chaosRun, jitCompilers);
            if (report.chaos() != null && !report.chaos().passed()) {
                System.err.println("chaos: an invariant failed or a fault was not served again (the invariants table above)");
                return 1;
            }
        }
        return 0;
    }

    private static Map<String, Long> wanOnly(Map<String, Long> counters) {
        Map<String, Long> wan = new LinkedHashMap<>();
        counters.forEach((name, value) -> {
            if (name.startsWith(WanTraffic.WAN_PREFIX)) {
                wan.put(name, value);
            }
        });
        return wan;
    }

    /** The JIT option of {@code --jit=c1-only}: no C2 compiler. */
    static final String C1_ONLY = Jdk17.C1_ONLY;

    /** {@code --jit}'s value for C1 and C2 in every JVM the demo starts, warmed before the run ({@link JitWarmup}). */
    static final String WARM_C2 = "warm-c2";

    /**
     * The {@code --jit} of a run: as given, else {@code warm-c2}, and C1 only for the chaos scenario,
     * whose kills restart JVMs (a warm-up would not outlive them, and C2 would compile during the
     * faults) and whose earlier figures are C1's.
     */
    static String jit(String given, boolean chaos) {
        return given != null ? given : chaos ? "c1-only" : WARM_C2;
    }

    /** The options of a {@code --jit} value for every JVM the demo starts: {@code warm-c2} is {@code tiered}'s. */
    static List<String> jitOptions(String jit, CommandLine.Model.CommandSpec spec) {
        String value = jit.toLowerCase(Locale.ROOT);
        if (!List.of(WARM_C2, "c1-only", "tiered").contains(value)) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--jit must be " + WARM_C2 + ", c1-only or tiered");
        }
        return StackOptions.jitOptions(value.equals(WARM_C2) ? "tiered" : value, spec);
    }

    /** The JIT in a report's deployment line. */
    static String describeJit(String jit) {
        return switch (jit.toLowerCase(Locale.ROOT)) {
            case "tiered" -> "tiered, C1 and C2 in every JVM the demo started, compiling while the run is measured "
                    + "(--jit=tiered)";
            case WARM_C2 -> "tiered, C1 and C2 in every JVM the demo started, warmed before the run (--jit=" + WARM_C2 + ")";
            default -> "C1 only in every JVM the demo started (" + C1_ONLY + ")";
        };
    }

    /**
     * Reads the C2 compilers' CPU of the JVMs the demo started and of the load generator's own (the
     * WAN forwarder runs C1 only); a JVM without C2 reads 0.
     */
    private static Supplier<Map<String, Double>> compilers(Demo demo) {
        Map<String, Long> jvms = new LinkedHashMap<>();
        demo.processes().forEach((name, pid) -> {
            if (!name.startsWith("wan-forwarder")) {
                jvms.put(name, pid);
            }
        });
        jvms.put("load generator", ProcessHandle.current().pid());
        return () -> CompilerCpu.seconds(jvms);
    }

    /** The option that sets G1's pause-time goal, up to its value. */
    private static final String PAUSE_GOAL_OPTION = "-XX:MaxGCPauseMillis=";

    /**
     * G1's pause-time goal in the stack's JVMs, the brokers and the ticker service, as their options
     * leave it (HotSpot takes an option's last value): one figure when they agree.
     */
    static String pauseGoals(List<String> stack, List<String> brokers, List<String> ticker) {
        String stackGoal = pauseGoal(stack);
        String brokerGoal = pauseGoal(brokers);
        String tickerGoal = pauseGoal(ticker);
        if (stackGoal.equals(brokerGoal) && brokerGoal.equals(tickerGoal)) {
            return "; G1's pause-time goal " + stackGoal + " in each of them";
        }
        return "; G1's pause-time goal " + stackGoal + " in the stack, " + brokerGoal + " in the brokers, "
                + tickerGoal + " in the ticker service";
    }

    private static String pauseGoal(List<String> options) {
        String goal = "200 ms (G1's default)";
        for (String option : options) {
            if (option.startsWith(PAUSE_GOAL_OPTION)) {
                goal = option.substring(PAUSE_GOAL_OPTION.length()) + " ms";
            }
        }
        return goal;
    }

    /** The demo's own options first, so that the user's can override them. */
    private static List<String> concat(List<String> first, List<String> then) {
        List<String> all = new ArrayList<>(first);
        all.addAll(then);
        return List.copyOf(all);
    }

    static Path repositoryRoot() {
        String property = System.getProperty("geobroker.root");
        if (property != null && !property.isBlank()) {
            return Path.of(property).toAbsolutePath().normalize();
        }
        for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
            if (Files.isDirectory(dir.resolve("broker-service")) && Files.isDirectory(dir.resolve("local-stack"))) {
                return dir;
            }
        }
        throw new IllegalStateException("cannot find the geobroker repository (run from inside it or set -Dgeobroker.root)");
    }
}
