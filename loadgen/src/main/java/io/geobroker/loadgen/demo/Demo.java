package io.geobroker.loadgen.demo;

import io.geobroker.domain.SymbolInfo;
import io.geobroker.domain.Topics;
import io.geobroker.domain.Topology;
import io.geobroker.loadgen.chaos.FaultTarget;
import io.geobroker.loadgen.driver.CassandraCounters;
import io.geobroker.loadgen.driver.Driver;
import io.geobroker.loadgen.driver.ProcessCpu;
import io.geobroker.loadgen.report.WanTraffic;
import io.geobroker.schema.SchemaTool;
import io.geobroker.stack.Jdk17;
import io.geobroker.stack.LocalStack;
import io.geobroker.stack.WanMode;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The demo's deployment on this machine: the local stack (a Cassandra DC and a Kafka broker per
 * region, the emulated WAN where it can run), the topics, one broker-service JVM per region inside
 * its region and, unless the load generator publishes the tickers itself, one ticker-service JVM.
 * {@link #close()} stops everything it started, in reverse order; it also runs on Ctrl-C.
 */
public final class Demo implements AutoCloseable, FaultTarget {

    /**
     * How the demo's services are set up; no {@code tickerService} when the load generator publishes the
     * tickers; {@code syncedCommitLog}: Cassandra syncs its commit log before it acknowledges a write
     * ({@link LocalStack.Builder#syncedCommitLog}).
     */
    public record Settings(Path root, Path workDir, String addressPrefix, WanMode wan, int nodesPerDc,
                           int cassandraHeapMb, List<String> stackJvmOptions, int brokerHeapMb, List<String> brokerJvmOptions,
                           boolean remoteDc, Duration startTimeout, Optional<TickerService> tickerService,
                           boolean syncedCommitLog) {
        public Settings {
            stackJvmOptions = List.copyOf(stackJvmOptions);
            brokerJvmOptions = List.copyOf(brokerJvmOptions);
        }

        /** With Cassandra's own commit-log sync, every 10 s. */
        public Settings(Path root, Path workDir, String addressPrefix, WanMode wan, int nodesPerDc,
                        int cassandraHeapMb, List<String> stackJvmOptions, int brokerHeapMb, List<String> brokerJvmOptions,
                        boolean remoteDc, Duration startTimeout, Optional<TickerService> tickerService) {
            this(root, workDir, addressPrefix, wan, nodesPerDc, cassandraHeapMb, stackJvmOptions, brokerHeapMb,
                    brokerJvmOptions, remoteDc, startTimeout, tickerService, false);
        }
    }

    /**
     * The demo's ticker service: its heap and extra JVM options, and what it publishes — the symbols the
     * load generator trades (the first {@code symbolsPerExchange} of each exchange) with the run's seed.
     * It starts paused (rate 0); the load generator sets the rate as its run begins.
     */
    public record TickerService(int heapMb, List<String> jvmOptions, long seed, int symbolsPerExchange, int lingerMs,
                                int lingerFrom) {
        public TickerService {
            jvmOptions = List.copyOf(jvmOptions);
        }
    }

    /** The ticker service's HTTP port (its default) on {@link #tickerAddress}. */
    static final int TICKER_PORT = 8081;

    private final Settings settings;
    private final String adminToken;
    private final List<ServiceProcess> services = new ArrayList<>();
    private final List<URI> healthChecks = new ArrayList<>();
    private String tickerServiceUrl;
    private LocalStack stack;
    private Topology topology;
    private CassandraCounters cassandra;
    private Thread shutdownHook;
    private boolean closed;

    public Demo(Settings settings) {
        this.settings = settings;
        byte[] secret = new byte[24];
        new SecureRandom().nextBytes(secret);
        this.adminToken = HexFormat.of().formatHex(secret);
    }

    public String adminToken() {
        return adminToken;
    }

    public Topology topology() {
        return topology;
    }

    /** The base URL of the demo's ticker service, once started; empty when the load generator publishes the tickers. */
    public Optional<String> tickerServiceUrl() {
        return Optional.ofNullable(tickerServiceUrl);
    }

    /**
     * The processes this demo started, by kind: Cassandra nodes, Kafka brokers, the WAN forwarder,
     * the brokers and the ticker service (empty before {@link #start}).
     */
    public List<ProcessCpu.Group> processGroups() {
        Map<String, List<Long>> groups = new LinkedHashMap<>();
        processes().forEach((name, pid) -> groups.computeIfAbsent(groupOf(name), k -> new ArrayList<>()).add(pid));
        return groups.entrySet().stream().map(e -> new ProcessCpu.Group(e.getKey(), e.getValue())).toList();
    }

    /**
     * The processes this demo started, by name ({@code cassandra-sydney-1}, {@code kafka-sydney},
     * {@code wan-forwarder}, {@code broker sydney}, {@code ticker service}) with their pids, in that
     * order (empty before {@link #start}).
     */
    public Map<String, Long> processes() {
        Map<String, Long> processes = new LinkedHashMap<>();
        if (stack != null) {
            stack.processes().forEach(p -> processes.put(p.name(), p.pid()));
        }
        services.forEach(service -> processes.put(service.name(), service.pid()));
        return processes;
    }

    /**
     * Each Cassandra node's backlog of compactions and hints now ({@link CassandraCounters#backlog()});
     * none before {@link #start}.
     */
    public Map<String, CassandraCounters.Backlog> cassandraBacklog() {
        return cassandra == null ? Map.of() : cassandra.backlog();
    }

    /** The group of a stack process ({@code cassandra-sydney-1}, {@code wan-forwarder}) or of a service. */
    static String groupOf(String processName) {
        return processName.startsWith("cassandra-") ? "Cassandra" : processName.startsWith("kafka-") ? "Kafka"
                : processName.startsWith("wan-") ? "WAN forwarder" : processName.startsWith("broker ") ? "brokers"
                : processName;
    }

    public String wanStatus() {
        return stack == null ? "not started" : stack.wanStatus();
    }

    /**
     * Counters of the running system that only grow, for the report to read as the measured phase
     * starts and ends: the IP bytes the emulated WAN has carried each way ({@code wan:<from>-><to>},
     * none without it) and Cassandra's own per DC ({@link CassandraCounters}).
     */
    public Map<String, Long> counters() {
        Map<String, Long> counters = new TreeMap<>();
        if (stack != null) {
            stack.wanCarried().forEach((direction, bytes) -> counters.put(WanTraffic.WAN_PREFIX + direction, bytes));
        }
        if (cassandra != null) {
            counters.putAll(cassandra.read());
        }
        return counters;
    }

    /**
     * Starts the stack, creates the topics, starts the brokers and the ticker service; returns when every
     * one of them is UP.
     */
    public Topology start() throws IOException, InterruptedException {
        Path brokerJar = bootJar(settings.root().resolve("broker-service").resolve("target"), "broker-service-");
        Optional<Path> tickerJar = settings.tickerService().isEmpty() ? Optional.empty()
                : Optional.of(bootJar(settings.root().resolve("ticker-service").resolve("target"), "ticker-service-", "-exec.jar"));
        shutdownHook = new Thread(this::close, "demo-shutdown");
        Runtime.getRuntime().addShutdownHook(shutdownHook);
        System.err.println("Starting the local stack (" + settings.nodesPerDc() + " Cassandra node(s) per DC, prefix "
                + settings.addressPrefix() + ") ...");
        stack = LocalStack.builder().workDir(settings.workDir().resolve("stack")).wipe(true)
                .addressPrefix(settings.addressPrefix()).nodesPerDc(settings.nodesPerDc()).wan(settings.wan())
                .cassandraHeapMb(settings.cassandraHeapMb()).jvmOptions(settings.stackJvmOptions())
                .syncedCommitLog(settings.syncedCommitLog())
                .watchParentPid(ProcessHandle.current().pid()).startTimeout(settings.startTimeout()).build();
        topology = stack.start();
        System.err.println("Local stack ready; " + stack.wanStatus());
        createTopics(topology, Topics.standard());
        Path services = settings.workDir().resolve("services");
        Files.createDirectories(services);
        // The stack was wiped: FIX sessions of an earlier run (their sequence numbers, and the
        // customers whose fills a broker feeds from every region's topic) belong to its data.
        for (Topology.RegionEndpoints region : topology.regions()) {
            deleteTree(services.resolve("fix-store-" + region.name()));
        }
        String peerToken = token();
        ClassDataArchive.Launch launch = null;
        for (Topology.RegionEndpoints region : topology.regions()) {
            Path topologyFile = services.resolve("topology-" + region.name() + ".properties");
            topology.write(topologyFile);
            if (launch == null) {
                // trained as this region's broker would start, then used by every broker's start and restart
                launch = ClassDataArchive.prepare(javaBinary(), brokerJar, brokerJvmOptions(settings),
                        pb -> stack.inRegion(region.name(), brokerProcess(pb, region, topologyFile, services, peerToken)),
                        TRAINING_TIMEOUT, System.err);
            }
            URI url = URI.create(region.brokerUrl());
            ProcessBuilder pb = brokerProcess(new ProcessBuilder(brokerCommand(javaBinary(), settings, launch, url.getHost())),
                    region, topologyFile, services, peerToken);
            ServiceProcess broker = ServiceProcess.start("broker " + region.name(), stack.inRegion(region.name(), pb),
                    services.resolve("broker-" + region.name() + ".log"));
            this.services.add(broker);
            healthChecks.add(URI.create(region.brokerUrl() + "/actuator/health"));
            System.err.println("Started broker " + region.name() + " (pid " + broker.pid() + ", " + settings.brokerHeapMb()
                    + " MB heap) on " + region.brokerUrl() + (settings.remoteDc() ? " using the other region's DC" : ""));
        }
        if (settings.tickerService().isPresent()) {
            startTickerService(settings.tickerService().get(), tickerJar.orElseThrow(), services);
        }
        awaitHealthy();
        for (Topology.RegionEndpoints region : topology.regions()) {
            System.err.println("Page of " + region.name() + ": " + region.brokerUrl() + "/ (Swagger UI: " + region.brokerUrl()
                    + "/swagger-ui.html)");
        }
        cassandra = CassandraCounters.connect(topology, SchemaTool.DEFAULT_KEYSPACE);
        return topology;
    }

    /** A broker's environment and directory: its region, topology, addresses, tokens and engine settings. */
    private ProcessBuilder brokerProcess(ProcessBuilder pb, Topology.RegionEndpoints region, Path topologyFile, Path services,
                                         String peerToken) {
        URI url = URI.create(region.brokerUrl());
        pb.environment().put("GEOBROKER_TOPOLOGY", topologyFile.toString());
        pb.environment().put("GEOBROKER_REGION", region.name());
        pb.environment().put("GEOBROKER_PORT", Integer.toString(url.getPort()));
        pb.environment().put("GEOBROKER_BIND_ADDRESS", url.getHost());
        pb.environment().put("GEOBROKER_ADMIN_TOKEN", adminToken);
        pb.environment().put("GEOBROKER_PEER_TOKEN", peerToken);
        // Each broker's FIX sessions (sequence numbers, sent messages) in a directory of its own.
        pb.environment().put("GEOBROKER_FIX_STORE", services.resolve("fix-store-" + region.name()).toString());
        remoteDcRegion(topology, region.name(), settings.remoteDc())
                .ifPresent(other -> pb.environment().put("GEOBROKER_CASSANDRA_REGION", other));
        // Larger commit groups than the broker's defaults, which fit Cassandra's default
        // batch_size_fail_threshold (50 KiB): the local stack raises that threshold to 4 MiB, and
        // one logged batch per group is the broker's main per-command cost, so bigger groups
        // carry more commands per round trip when the machine is busy. With 256 commands the
        // N. Virginia engine (400 tickers/s plus placements) filled every group and fell
        // seconds behind its tickers at the default load; with 1 024 it kept up there but not at
        // --scale 10 (4 000 tickers/s: 3.7 commits/s of 1 006 commands, tickers waiting 6.6 s
        // and growing). A ticker that fills nothing adds no statement of its own (a symbol's
        // state, with its quote, is written once per group), so the statement bound, not the command
        // bound, is what keeps a batch small: with 4 096 commands it took all 4 000 tickers/s.
        pb.environment().putIfAbsent("GEOBROKER_GROUP_COMMANDS", "4096");
        pb.environment().putIfAbsent("GEOBROKER_GROUP_STATEMENTS", "6000");
        pb.environment().putIfAbsent("GEOBROKER_MAX_BATCH_BYTES", "3145728");
        pb.directory(services.toFile());
        return pb;
    }

    /**
     * Starts the ticker service in the root namespace, which reaches every region's Kafka without the
     * emulated WAN's delay — as the load generator's own publishing did, and as an exchange's feed sits
     * next to its region — so that the WAN never counts in ticker-to-fill.
     */
    static void deleteTree(Path dir) throws IOException {
        if (!Files.exists(dir)) {
            return;
        }
        try (var paths = Files.walk(dir)) {
            for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        }
    }

    private void startTickerService(TickerService ticker, Path jar, Path services) throws IOException {
        Path topologyFile = services.resolve("topology-ticker-service.properties");
        topology.write(topologyFile);
        String address = tickerAddress(settings.addressPrefix());
        List<SymbolInfo> symbols = Driver.symbols(topology.regions().stream().map(Topology.RegionEndpoints::region).toList(),
                ticker.symbolsPerExchange());
        ProcessBuilder pb = new ProcessBuilder(tickerCommand(javaBinary(), ticker, jar, address, TICKER_PORT, symbols));
        pb.environment().put("GEOBROKER_TOPOLOGY", topologyFile.toString());
        pb.directory(services.toFile());
        ServiceProcess process = ServiceProcess.start("ticker service", pb, services.resolve("ticker-service.log"));
        this.services.add(process);
        tickerServiceUrl = "http://" + address + ":" + TICKER_PORT;
        healthChecks.add(URI.create(tickerServiceUrl + "/actuator/health"));
        System.err.println("Started the ticker service (pid " + process.pid() + ", " + ticker.heapMb() + " MB heap) on "
                + tickerServiceUrl + ", paused until the load starts; " + symbols.size() + " symbols, seed " + ticker.seed());
    }

    /** The ticker service's address: {@code <prefix>.0.200}, in the root namespace's part of the stack's prefix. */
    static String tickerAddress(String addressPrefix) {
        return addressPrefix + ".0.200";
    }

    /**
     * The ticker service's command line: heap, the serial collector ({@link Jdk17#GC}), the extra JVM options, the jar, then its settings —
     * its HTTP address, paused (rate 0), the run's seed and symbols, and the producer linger of the run and the rate
     * (tickers a second per region) it starts from.
     */
    static List<String> tickerCommand(String java, TickerService ticker, Path jar, String address, int port,
                                      List<SymbolInfo> symbols) {
        List<String> command = new ArrayList<>(List.of(java, "-Xms" + ticker.heapMb() + "m", "-Xmx" + ticker.heapMb() + "m",
                Jdk17.GC));
        command.addAll(ticker.jvmOptions());
        command.addAll(List.of("-jar", jar.toString(),
                "--server.address=" + address,
                "--server.port=" + port,
                "--rate=0",
                "--seed=" + ticker.seed(),
                "--symbols=" + String.join(",", symbols.stream().map(SymbolInfo::symbol).toList()),
                "--geobroker.ticker.producer.linger-ms=" + ticker.lingerMs(),
                "--geobroker.ticker.producer.linger-from=" + ticker.lingerFrom()));
        return command;
    }

    /**
     * The broker's application context from the bean definitions its build worked out ahead of time
     * (Spring's AOT processing, {@code process-aot} in its pom) instead of from scanning and parsing its
     * configuration classes at every start: a sixth less CPU to readiness.
     */
    static final String AOT = "-Dspring.aot.enabled=true";

    /** How long a broker's class-data training start may take (it connects to Cassandra and Kafka). */
    static final Duration TRAINING_TIMEOUT = Duration.ofSeconds(180);

    /**
     * A broker JVM's options before the jar: heap, the collector ({@link Jdk17#GC}), the application context
     * built at build time ({@link #AOT}), then the extra options in order.
     */
    static List<String> brokerJvmOptions(Settings settings) {
        List<String> options = new ArrayList<>(List.of("-Xms" + settings.brokerHeapMb() + "m",
                "-Xmx" + settings.brokerHeapMb() + "m", Jdk17.GC, AOT));
        options.addAll(settings.brokerJvmOptions());
        return options;
    }

    /**
     * The broker's command line: {@link #brokerJvmOptions}, its address as its JMX host
     * ({@link Jdk17#rmiHostname}), the class-data archive's options, then the jar (extracted with it).
     */
    static List<String> brokerCommand(String java, Settings settings, ClassDataArchive.Launch launch, String address) {
        List<String> command = new ArrayList<>(List.of(java));
        command.addAll(brokerJvmOptions(settings));
        command.add(Jdk17.rmiHostname(address));
        command.addAll(launch.jvmOptions());
        command.add("-jar");
        command.add(launch.jar().toString());
        return command;
    }

    /**
     * In remote-DC mode, the region whose Cassandra DC a broker uses instead of its own (the next
     * region of the topology), like the prototype's experiment where the broker used a DC across the
     * WAN; empty otherwise. The broker gets it as {@code GEOBROKER_CASSANDRA_REGION}.
     */
    static Optional<String> remoteDcRegion(Topology topology, String regionName, boolean remoteDc) {
        if (!remoteDc) {
            return Optional.empty();
        }
        List<Topology.RegionEndpoints> regions = topology.regions();
        if (regions.size() < 2) {
            throw new IllegalArgumentException("remote-dc needs at least two regions");
        }
        for (int i = 0; i < regions.size(); i++) {
            if (regions.get(i).name().equals(regionName)) {
                return Optional.of(regions.get((i + 1) % regions.size()).name());
            }
        }
        throw new IllegalArgumentException("no region " + regionName + " in the topology");
    }

    /**
     * Waits until every service started answers UP, checking all of them in each round, so that one
     * that dies (a bad option, a port in use) is reported at once rather than after the others are up.
     */
    private void awaitHealthy() throws InterruptedException {
        HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
        long deadline = System.nanoTime() + settings.startTimeout().toNanos();
        List<Integer> waiting = new ArrayList<>();
        for (int i = 0; i < services.size(); i++) {
            waiting.add(i);
        }
        while (!waiting.isEmpty()) {
            for (Iterator<Integer> it = waiting.iterator(); it.hasNext(); ) {
                int i = it.next();
                ServiceProcess service = services.get(i);
                if (!service.alive()) {
                    throw new IllegalStateException(service.name() + " ended during start-up; last lines of " + service.log()
                            + ":\n" + service.tail(15));
                }
                try {
                    HttpResponse<String> r = http.send(HttpRequest.newBuilder(healthChecks.get(i)).timeout(Duration.ofSeconds(2))
                            .GET().build(), HttpResponse.BodyHandlers.ofString());
                    if (r.statusCode() == 200 && r.body().contains("\"UP\"")) {
                        System.err.println(service.name() + " is UP");
                        it.remove();
                    }
                } catch (IOException e) {
                    // not listening yet
                }
            }
            if (waiting.isEmpty()) {
                return;
            }
            if (System.nanoTime() > deadline) {
                ServiceProcess late = services.get(waiting.get(0));
                throw new IllegalStateException(late.name() + " was not healthy after " + settings.startTimeout().toSeconds()
                        + " s; last lines of " + late.log() + ":\n" + late.tail(15));
            }
            Thread.sleep(500);
        }
    }

    /** Creates each region's fills, order events and ticker topics up front, so no consumer waits for auto-creation. */
    static void createTopics(Topology topology, Topics topics) {
        for (Topology.RegionEndpoints r : topology.regions()) {
            Set<String> names = new TreeSet<>();
            names.add(topics.fills());
            names.add(topics.orderEvents());
            names.add(topics.tickersDeadLetter());
            for (String exchange : r.region().exchanges()) {
                names.add(topics.tickers(exchange));
            }
            Properties p = new Properties();
            p.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, r.kafkaBootstrap());
            p.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, 10_000);
            p.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, 15_000);
            try (Admin admin = Admin.create(p)) {
                Set<String> existing = admin.listTopics().names().get(15, TimeUnit.SECONDS);
                List<NewTopic> missing = names.stream().filter(n -> !existing.contains(n))
                        .map(n -> new NewTopic(n, 1, (short) 1)).toList();
                if (!missing.isEmpty()) {
                    admin.createTopics(missing).all().get(15, TimeUnit.SECONDS);
                }
            } catch (ExecutionException | TimeoutException e) {
                throw new IllegalStateException("cannot create the topics on " + r.name() + "'s Kafka (" + r.kafkaBootstrap() + "): "
                        + (e.getCause() == null ? e : e.getCause()).getMessage());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while creating topics");
            }
        }
    }

    /** The newest Spring Boot jar of a module ({@code <prefix>*.jar}, not the plain one). */
    static Path bootJar(Path targetDir, String prefix) throws IOException {
        return bootJar(targetDir, prefix, ".jar");
    }

    /** The newest Spring Boot jar of a module named {@code <prefix>*<suffix>} (e.g. {@code -exec.jar}), not the plain one. */
    static Path bootJar(Path targetDir, String prefix, String suffix) throws IOException {
        Path newest = null;
        if (Files.isDirectory(targetDir)) {
            try (DirectoryStream<Path> jars = Files.newDirectoryStream(targetDir, prefix + "*" + suffix)) {
                for (Path jar : jars) {
                    String name = jar.getFileName().toString();
                    if (name.endsWith("-plain.jar") || name.endsWith("-sources.jar") || name.endsWith("-tests.jar")) {
                        continue;
                    }
                    if (newest == null || Files.getLastModifiedTime(jar).compareTo(Files.getLastModifiedTime(newest)) > 0) {
                        newest = jar;
                    }
                }
            }
        }
        if (newest == null) {
            throw new IllegalStateException("no " + prefix + "*" + suffix + " in " + targetDir
                    + ": build it first (./mvnw -q -B -ntp -DskipTests package, which ./geobroker does for you)");
        }
        return newest;
    }

    static String javaBinary() {
        return Path.of(System.getProperty("java.home"), "bin", "java").toString();
    }

    private static String token() {
        byte[] secret = new byte[24];
        new SecureRandom().nextBytes(secret);
        return HexFormat.of().formatHex(secret);
    }

    @Override
    public List<String> regions() {
        return topology.regions().stream().map(Topology.RegionEndpoints::name).toList();
    }

    @Override
    public List<String> stackProcesses() {
        return stack.processes().stream().map(LocalStack.ProcessInfo::name).toList();
    }

    @Override
    public void killStackProcess(String name) {
        stack.kill(name);
    }

    @Override
    public void restartStackProcess(String name, Duration timeout) {
        stack.restart(name, timeout);
    }

    @Override
    public void killBroker(String region) throws InterruptedException {
        broker(region).kill();
    }

    @Override
    public void restartBroker(String region) throws IOException {
        broker(region).restart();
    }

    @Override
    public String brokerUrl(String region) {
        return topology.region(region).orElseThrow(() -> new IllegalArgumentException("no region " + region)).brokerUrl();
    }

    @Override
    public boolean wanOn() {
        return stack != null && stack.wanStatus().startsWith("WAN on");
    }

    @Override
    public void cutLink(String a, String b) {
        stack.cutLink(a, b);
    }

    @Override
    public void restoreLink(String a, String b) {
        stack.restoreLink(a, b);
    }

    private ServiceProcess broker(String region) {
        return services.stream().filter(s -> s.name().equals("broker " + region)).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("no broker of region " + region + " was started"));
    }

    /** Stops the brokers, then the stack; safe to call more than once and from the shutdown hook. */
    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        if (cassandra != null) {
            cassandra.close();
        }
        for (int i = services.size() - 1; i >= 0; i--) {
            services.get(i).stop();
        }
        if (stack != null) {
            System.err.println("Stopping the local stack ...");
            stack.close();
        }
        if (shutdownHook != null && Thread.currentThread() != shutdownHook) {
            try {
                Runtime.getRuntime().removeShutdownHook(shutdownHook);
            } catch (IllegalStateException e) {
                // already shutting down: the hook is running this
            }
        }
    }
}
