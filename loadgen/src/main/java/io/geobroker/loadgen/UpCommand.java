package io.geobroker.loadgen;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.geobroker.domain.SymbolDirectory;
import io.geobroker.domain.SymbolInfo;
import io.geobroker.domain.Topology;
import io.geobroker.loadgen.demo.Demo;
import io.geobroker.loadgen.driver.TickerRateClient;
import io.geobroker.stack.Jdk17;
import io.geobroker.stack.LocalStack;
import io.geobroker.stack.WanMode;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.io.File;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;

/**
 * {@code loadgen up}: the local two-region system left running for a person — the stack, a broker
 * per region and the ticker service publishing at a gentle rate — with a customer who has cash in
 * every region's currency and some shares, and the page, Swagger UI and the customer's token
 * printed. By default it runs in the background (its output in {@code <work-dir>/up.log}) and returns
 * once everything is up; {@code loadgen down} stops it. {@code --foreground} keeps it in the terminal
 * until Ctrl-C.
 */
@Command(name = "up", mixinStandardHelpOptions = true,
        description = "Start the local two-region system (as the demo does) with a customer, print each region's page, "
                + "Swagger UI and the customer's token, and leave it running until `down` (or Ctrl-C with --foreground).")
public final class UpCommand implements Callable<Integer> {

    /** Written once everything is up: what to open and the customer's token (readable by its owner only). */
    static final String SUMMARY = "up.txt";
    static final String PID = "up.pid";
    static final String LOG = "up.log";
    static final String CUSTOMER = "trader-1";

    @Option(names = "--prefix", description = "Loopback address prefix of the stack (default: GEOBROKER_STACK_PREFIX or 127.0).")
    String prefix;

    @Option(names = "--work-dir", description = "Where the stack's data, the services' logs and up.txt go (default: <repository>/.up).")
    Path workDir;

    @Option(names = "--wan", defaultValue = "auto", description = "auto | on | off: the emulated ~230 ms WAN. Default: ${DEFAULT-VALUE}.")
    String wan;

    @Option(names = "--tickers-per-second", defaultValue = "20", description = "Tickers the ticker service publishes per "
            + "second over all symbols. Default: ${DEFAULT-VALUE}.")
    double tickersPerSecond;

    @Option(names = "--cassandra-heap-mb", defaultValue = "" + LocalStack.DEFAULT_CASSANDRA_HEAP_MB, description = "Heap of "
            + "each Cassandra node (from 512 on, half of it for memtables), as the demo's. Default: ${DEFAULT-VALUE}.")
    int cassandraHeapMb;

    @Option(names = "--broker-heap-mb", defaultValue = "512", description = "Heap of each broker JVM. Default: ${DEFAULT-VALUE}.")
    int brokerHeapMb;

    @Option(names = "--foreground", description = "Stay in the terminal until Ctrl-C instead of running in the background.")
    boolean foreground;

    /** Set by {@link #detach} on the process it starts: whose output is a log file, where no token belongs. */
    @Option(names = "--detached", hidden = true)
    boolean detached;

    @Option(names = "--start-timeout", defaultValue = "300s", converter = WorkloadOptions.DurationConverter.class,
            description = "Bound on starting everything. Default: ${DEFAULT-VALUE}.")
    Duration startTimeout;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        WanMode wanMode = StackOptions.wanMode(wan, spec);
        if (tickersPerSecond < 0 || cassandraHeapMb < 128 || brokerHeapMb < 128) {
            throw new CommandLine.ParameterException(spec.commandLine(),
                    "--tickers-per-second must not be negative, --cassandra-heap-mb and --broker-heap-mb at least 128");
        }
        Path root = DemoCommand.repositoryRoot();
        Path dir = (workDir != null ? workDir : root.resolve(".up")).toAbsolutePath();
        Optional<ProcessHandle> running = runningUp(dir);
        if (running.isPresent()) {
            throw new IllegalStateException("already up (pid " + running.get().pid() + "); `./geobroker down"
                    + (workDir != null ? " --work-dir " + dir : "") + "` stops it. What to open: " + dir.resolve(SUMMARY));
        }
        if (!foreground) {
            return detach(dir);
        }
        String addressPrefix = prefix != null ? prefix : System.getenv().getOrDefault("GEOBROKER_STACK_PREFIX", "127.0");
        Files.createDirectories(dir);
        Files.deleteIfExists(dir.resolve(SUMMARY));
        Files.writeString(dir.resolve(PID), Long.toString(ProcessHandle.current().pid()));
        // The demo's JVM options: C1 only, Java thread priorities as the OS's where that is allowed, and
        // each JVM sized for one core where the machine has fewer cores than the system has JVMs.
        List<String> jvmOptions = Jdk17.localSystemOptions(true);
        Demo.Settings settings = new Demo.Settings(root, dir, addressPrefix, wanMode, 1, cassandraHeapMb, jvmOptions, brokerHeapMb,
                jvmOptions, false, startTimeout,
                Optional.of(new Demo.TickerService(256, jvmOptions, 42, Integer.MAX_VALUE, DemoCommand.AUTO_LINGER_MS,
                        DemoCommand.AUTO_LINGER_FROM)));
        Demo demo = new Demo(settings);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            try {
                Files.deleteIfExists(dir.resolve(SUMMARY));
                Files.deleteIfExists(dir.resolve(PID));
            } catch (IOException e) {
                // the files only say what is running; a stale pid is checked before use
            }
        }, "up-files"));
        Topology topology = demo.start();
        new TickerRateClient(demo.tickerServiceUrl().orElseThrow(), Duration.ofSeconds(5)).set(tickersPerSecond);
        String token = customer(topology, demo.adminToken());
        String summary = summary(topology, token, demo.wanStatus());
        Path file = dir.resolve(SUMMARY);
        Files.writeString(file, "");
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-------"));
        Files.writeString(file, summary);
        if (!detached) {
            System.out.print(summary);
            System.out.flush();
        } else {
            System.out.println("Up; what to open, with the customer's token, is in " + file + " (readable by its owner only).");
        }
        new CountDownLatch(1).await();
        return 0;
    }

    /**
     * Starts this command again with {@code --foreground} as its own process (in a new session, so
     * closing the terminal does not stop it), and returns once it has written what to open, or has
     * ended (the last lines of its log say why).
     */
    private int detach(Path dir) throws IOException, InterruptedException {
        Files.createDirectories(dir);
        Files.deleteIfExists(dir.resolve(SUMMARY));
        List<String> command = new ArrayList<>();
        if (new File("/usr/bin/setsid").canExecute()) {
            command.add("/usr/bin/setsid");
        }
        ProcessHandle.Info self = ProcessHandle.current().info();
        command.add(self.command().orElseThrow(() -> new IllegalStateException("cannot tell this JVM's command")));
        command.addAll(List.of(self.arguments().orElseThrow(() -> new IllegalStateException("cannot tell this JVM's arguments"))));
        command.add("--foreground");
        command.add("--detached");
        if (workDir == null) {
            command.add("--work-dir=" + dir);
        }
        Path log = dir.resolve(LOG);
        Process child = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile())
                .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null"))).start();
        System.err.println("Starting in the background (pid " + child.pid() + ", log " + log + ") ...");
        long deadline = System.nanoTime() + startTimeout.plusSeconds(60).toNanos();
        while (System.nanoTime() < deadline) {
            if (Files.exists(dir.resolve(SUMMARY)) && Files.size(dir.resolve(SUMMARY)) > 0) {
                System.out.print(Files.readString(dir.resolve(SUMMARY)));
                return 0;
            }
            if (!child.isAlive()) {
                List<String> lines = Files.readAllLines(log, StandardCharsets.UTF_8);
                System.err.println("It ended during start-up; last lines of " + log + ":");
                lines.subList(Math.max(0, lines.size() - 20), lines.size()).forEach(System.err::println);
                return 1;
            }
            Thread.sleep(500);
        }
        System.err.println("Not up after " + startTimeout.plusSeconds(60).toSeconds() + " s; stopping it (see " + log + ")");
        child.destroy();
        return 1;
    }

    /** The process of a running {@code up} in this work directory, if its pid file names one. */
    static Optional<ProcessHandle> runningUp(Path dir) throws IOException {
        Path pid = dir.resolve(PID);
        if (!Files.exists(pid)) {
            return Optional.empty();
        }
        try {
            // A pid the system gave to another program since is not ours.
            return ProcessHandle.of(Long.parseLong(Files.readString(pid).trim())).filter(ProcessHandle::isAlive)
                    .filter(p -> p.info().commandLine().map(c -> c.contains("loadgen")).orElse(true));
        } catch (NumberFormatException e) {
            return Optional.empty();
        }
    }

    /**
     * Creates the customer with 100,000.00 in each region's currency (deposited through the region
     * that owns it) and 100 shares of each exchange's first symbol; returns the customer's token.
     */
    private static String customer(Topology topology, String adminToken) throws IOException, InterruptedException {
        Topology.RegionEndpoints first = topology.regions().get(0);
        JsonNode created = call(first.brokerUrl(), "POST", "/admin/v1/customers", adminToken,
                Map.of("customerId", CUSTOMER, "displayName", "Trader One"), 201);
        String token = created.path("token").asText();
        SymbolDirectory directory = SymbolDirectory.standard();
        for (Topology.RegionEndpoints region : topology.regions()) {
            for (String exchange : region.region().exchanges()) {
                String currency = directory.exchange(exchange).orElseThrow().currency();
                // The customer row is written in the first region's DC; the others see it once replicated.
                callWithRetry(region.brokerUrl(), "POST", "/api/v1/account/deposits", token,
                        Map.of("currency", currency, "amount", 10_000_000), 201);
                SymbolInfo symbol = directory.symbolsOf(exchange).get(0);
                callWithRetry(region.brokerUrl(), "POST", "/admin/v1/customers/" + CUSTOMER + "/holdings", adminToken,
                        Map.of("symbol", symbol.symbol(), "quantity", 100), 201);
            }
        }
        return token;
    }

    private static String summary(Topology topology, String token, String wanStatus) {
        StringBuilder s = new StringBuilder();
        s.append("\ngeobroker is up: two regions on this machine (").append(wanStatus).append(").\n\n");
        for (Topology.RegionEndpoints r : topology.regions()) {
            s.append(String.format("  %-10s page        %s/%n", r.name(), r.brokerUrl()));
            s.append(String.format("  %-10s Swagger UI  %s/swagger-ui.html%n", "", r.brokerUrl()));
        }
        s.append("\n  customer   ").append(CUSTOMER).append(" (cash in every currency, 100 shares of each exchange's first symbol)\n");
        s.append("  token      ").append(token).append("\n\n");
        s.append("Paste the token into a page (or Swagger UI's Authorize). Stop everything with ./geobroker down.\n");
        return s.toString();
    }

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    /** Calls until one of the wanted statuses comes back (the customer may not have replicated yet), for up to 30 s. */
    private static JsonNode callWithRetry(String base, String method, String path, String token, Object body,
                                          int... wanted) throws IOException, InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        while (true) {
            try {
                return call(base, method, path, token, body, wanted);
            } catch (IllegalStateException e) {
                if (System.nanoTime() > deadline) {
                    throw e;
                }
                Thread.sleep(500);
            }
        }
    }

    private static JsonNode call(String base, String method, String path, String token, Object body, int... wanted)
            throws IOException, InterruptedException {
        HttpRequest request = HttpRequest.newBuilder(URI.create(base + path)).timeout(Duration.ofSeconds(10))
                .header("Authorization", "Bearer " + token).header("Content-Type", "application/json")
                .method(method, HttpRequest.BodyPublishers.ofString(JSON.writeValueAsString(body))).build();
        HttpResponse<String> response = HTTP.send(request, HttpResponse.BodyHandlers.ofString());
        for (int status : wanted) {
            if (response.statusCode() == status) {
                return response.body().isEmpty() ? JSON.createObjectNode() : JSON.readTree(response.body());
            }
        }
        throw new IllegalStateException(method + " " + path + " on " + base + " answered " + response.statusCode()
                + ": " + response.body());
    }
}
