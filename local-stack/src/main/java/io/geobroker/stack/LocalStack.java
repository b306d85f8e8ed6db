package io.geobroker.stack;

import com.datastax.oss.driver.api.core.ConsistencyLevel;
import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.config.DefaultDriverOption;
import com.datastax.oss.driver.api.core.cql.SimpleStatement;
import io.geobroker.domain.Region;
import io.geobroker.domain.SymbolDirectory;
import io.geobroker.domain.Topology;
import io.geobroker.schema.SchemaTool;
import io.geobroker.stack.wan.WanEmulator;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.BindException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Properties;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;

/**
 * A real geobroker deployment on one machine: a multi-DC Apache Cassandra cluster (one DC per
 * region, each node its own JVM on its own loopback address), one Kafka broker per region (KRaft)
 * and, where it can run, an emulated WAN between the regions.
 *
 * <pre>
 * try (LocalStack stack = LocalStack.builder().workDir(Path.of(".stack")).build()) {
 *     Topology topology = stack.start();   // blocks until every DC is up and the schema applied
 *     ...
 * }
 * </pre>
 *
 * <p>The process that calls {@link #start()} owns the stack: every child JVM watches its pid and
 * ends when it dies, so a killed owner leaves nothing behind; {@link #close()} (also run on
 * Ctrl-C) stops the children cleanly. {@link Builder#spawn()} starts the stack in a separate owner
 * process instead, and {@link #attach(Path)} connects to a running stack through its work
 * directory.
 */
public final class LocalStack implements AutoCloseable {

    public static final List<String> DEFAULT_REGIONS = List.of("sydney", "nvirginia");
    public static final String DEFAULT_PREFIX = "127.0";
    public static final Duration DEFAULT_ONE_WAY_DELAY = Duration.ofMillis(115);
    /** Each Cassandra node's heap unless told otherwise (from 512 MB on, half of it for memtables: {@link CassandraNode}). */
    public static final int DEFAULT_CASSANDRA_HEAP_MB = 512;
    static final String OWNER_LOG = "owner.log";
    static final String CONTROL_SOCKET = "control.sock";
    private static final String PROBE_KEYSPACE = "local_stack_probe";
    private static final Duration STOP_TIMEOUT = Duration.ofSeconds(30);

    /** A process of the stack, with its resident memory (0 if gone or unknown). */
    public record ProcessInfo(String name, long pid, boolean alive, long rssKb) {
    }

    /** A child process and how it was started, so that it can be started again ({@link #restart}). */
    private record Child(String name, Process process, Path log, String region, List<String> command,
                         long timerSlackNanos) {
    }

    private final StackConfig config;
    private final boolean attached;
    private final List<Child> children = new CopyOnWriteArrayList<>();
    private final AtomicBoolean closing = new AtomicBoolean();
    private final CountDownLatch closed = new CountDownLatch(1);
    private volatile Wan wan = Wan.off("not started");
    private volatile Topology topology;
    private volatile Duration startupTime;
    private Control control;
    private Thread shutdownHook;
    private Consumer<String> progress = message -> { };
    private long startNanos;
    /** Set by the command line: its process ends once the stack is stopped, so a stop may wait for it. */
    boolean ownerExitsOnStop;

    private LocalStack(StackConfig config, boolean attached, Topology topology) {
        this.config = config;
        this.attached = attached;
        this.topology = topology;
    }

    public static Builder builder() {
        return new Builder();
    }

    /**
     * Connects to the stack running in a work directory (started by another process or JVM).
     * {@link #close()} on the result stops that stack.
     *
     * @throws StackException if no ready stack runs there
     */
    public static LocalStack attach(Path workDir) {
        Path dir = workDir.toAbsolutePath().normalize();
        StackState state = StackState.read(dir)
                .filter(StackState::ownerAlive)
                .orElseThrow(() -> new StackException("no local stack is running in " + dir));
        if (!state.ready()) {
            throw new StackException("the local stack in " + dir + " is not ready yet"
                    + state.failure().map(f -> ": " + f).orElse(""));
        }
        StackConfig config = new StackConfig(dir, false,
                List.of(state.get("regions", "").split(",")),
                Integer.parseInt(state.get("nodes-per-dc", "1")), state.get("prefix", DEFAULT_PREFIX),
                WanMode.valueOf(state.get("wan", "AUTO")), Duration.ofMillis(Long.parseLong(state.get("delay-ms", "115"))),
                256, 256, List.of(), state.get("keyspace", SchemaTool.DEFAULT_KEYSPACE), true, OptionalLong.empty(),
                Duration.ofMinutes(5), false);
        return new LocalStack(config, true, Topology.load(dir.resolve("topology.properties")));
    }

    /** Whether a ready stack runs in the work directory (its owner alive, its state file says ready). */
    public static boolean isRunning(Path workDir) {
        return StackState.read(workDir.toAbsolutePath().normalize())
                .filter(StackState::ownerAlive).filter(StackState::ready).isPresent();
    }

    /**
     * Starts the stack and blocks until it is ready: every Cassandra node of every DC up and
     * accepting writes at consistency ALL, schema agreement, each Kafka broker answering, the
     * schema applied (unless disabled). On failure everything started so far is stopped again.
     */
    public synchronized Topology start() {
        if (attached) {
            throw new IllegalStateException("this stack was attached to; it is already running");
        }
        if (startupTime != null || closing.get()) {
            throw new IllegalStateException("a LocalStack starts once");
        }
        long t0 = System.nanoTime();
        startNanos = t0;
        SymbolDirectory directory = SymbolDirectory.standard();
        config.validate(directory);
        Path java = Jdk17.find();
        Path workDir = config.workDir();
        StackState.read(workDir).filter(StackState::ownerAlive).ifPresent(s -> {
            throw new StackException("a local stack is already running in " + workDir + " (owner pid "
                    + s.ownerPid() + "): stop it first");
        });
        Wan chosen = WanSupport.open(config);
        if (chosen.on()) {
            // A stack on these addresses that ended without its stop (a killed owner) can leave its
            // namespaces behind, and their routes make the addresses unusable here. The WAN's start
            // removes them too, but the address check comes first.
            WanSupport.clearLeftovers(config);
        }
        checkAddressesFree();
        RuntimeFiles files = RuntimeFiles.locate();
        List<Path> cassandraClassPath = files.cassandraClassPath();
        List<Path> kafkaClassPath = files.kafkaClassPath();
        prepareWorkDir();
        shutdownHook = new Thread(this::close, "local-stack-shutdown");
        Runtime.getRuntime().addShutdownHook(shutdownHook);
        try {
            wan = WanSupport.start(chosen, config);
            report(wan.status());
            control = Control.open(controlSocket(workDir), this::handle);
            writeState(false, null);
            watchParent();
            launchAndAwait(java, cassandraClassPath, kafkaClassPath, directory);
            topology = buildTopology(directory);
            topology.write(workDir.resolve("topology.properties"));
            startupTime = Duration.ofNanos(System.nanoTime() - t0);
            writeState(true, null);
            return topology;
        } catch (RuntimeException e) {
            try {
                writeState(false, e.getMessage());
            } catch (RuntimeException ignored) {
                // the original failure matters more
            }
            close();
            throw e instanceof StackException ? e : new StackException("the local stack did not start: " + e, e);
        }
    }

    /** The stack's regions and how to reach them (after {@link #start()} or on an attached stack). */
    public Topology topology() {
        if (topology == null) {
            throw new IllegalStateException("the stack is not started");
        }
        return topology;
    }

    /** One line, e.g. {@code WAN on: 115 ms one way} or {@code WAN off: not root}. */
    public String wanStatus() {
        if (attached) {
            return state().wanStatus();
        }
        return wan.status();
    }

    /**
     * The IP bytes the emulated WAN has carried so far from each region to each other, keyed
     * {@code from->to}; empty when the WAN is off. Two readings give the traffic between them.
     */
    public Map<String, Long> wanCarried() {
        if (!wanStatus().startsWith("WAN on")) {
            return Map.of();
        }
        return WanEmulator.carried(config.workDir());
    }

    /** Cuts the emulated link between two regions: their nodes no longer reach each other. */
    public void cutLink(String a, String b) {
        checkRegions(a, b);
        if (attached) {
            Control.send(state().controlSocket(), "cut " + a + " " + b);
        } else {
            wan.cut(a, b);
        }
    }

    /** Restores a link cut by {@link #cutLink}. */
    public void restoreLink(String a, String b) {
        checkRegions(a, b);
        if (attached) {
            Control.send(state().controlSocket(), "restore " + a + " " + b);
        } else {
            wan.restore(a, b);
        }
    }

    /** The loopback address for service {@code n} (0..54) of a region: {@code <prefix>.<i>.(200+n)}. */
    public String serviceAddress(String region, int n) {
        return config.serviceAddress(region, n);
    }

    /**
     * Makes a process run inside the region's network namespace when the WAN is on (so it sees
     * the other regions across the emulated WAN); returns it unchanged when the WAN is off.
     */
    public ProcessBuilder inRegion(String region, ProcessBuilder pb) {
        config.index(region);
        if (!attached) {
            return wan.wrap(region, pb);
        }
        String namespace = state().namespaces().get(region);
        if (namespace != null) {
            List<String> command = new ArrayList<>(List.of("ip", "netns", "exec", namespace));
            command.addAll(pb.command());
            pb.command(command);
        }
        return pb;
    }

    public Path workDir() {
        return config.workDir();
    }

    public List<String> regions() {
        return config.regionNames();
    }

    /** The address prefix of this stack (region {@code i} lives on {@code <prefix>.<i>.x}). */
    public String addressPrefix() {
        return config.addressPrefix();
    }

    /** How long {@link #start()} took, if this process started the stack. */
    public Optional<Duration> startupTime() {
        return Optional.ofNullable(startupTime);
    }

    /** The stack's child processes with their pid and resident memory. */
    public List<ProcessInfo> processes() {
        Map<String, Long> pids = new LinkedHashMap<>();
        if (attached) {
            pids.putAll(state().pids());
        } else {
            children.forEach(c -> pids.put(c.name(), c.process().pid()));
            pids.putAll(forwarderNames(wan.pids()));
        }
        return pids.entrySet().stream().map(e -> new ProcessInfo(e.getKey(), e.getValue(),
                ProcessHandle.of(e.getValue()).map(ProcessHandle::isAlive).orElse(false), rssKb(e.getValue()))).toList();
    }

    /**
     * The WAN forwarders' process names, as {@link #processes()} lists them and the stack's state file
     * keeps them: {@code wan-forwarder}, then {@code wan-forwarder-1}, {@code wan-forwarder-2}, ...
     */
    static Map<String, Long> forwarderNames(List<Long> pids) {
        Map<String, Long> names = new LinkedHashMap<>();
        for (int i = 0; i < pids.size(); i++) {
            names.put("wan-forwarder" + (i == 0 ? "" : "-" + i), pids.get(i));
        }
        return names;
    }

    /**
     * Kills one process of the stack (a Cassandra node or a Kafka broker, by its name in
     * {@link #processes()}) with SIGKILL, as a crash would, and waits until it is gone.
     */
    public void kill(String name) {
        if (attached) {
            Control.send(state().controlSocket(), "kill " + name);
            return;
        }
        Child child = child(name);
        try {
            if (!child.process().destroyForcibly().waitFor(STOP_TIMEOUT.toSeconds(), TimeUnit.SECONDS)) {
                throw new StackException(name + " (pid " + child.process().pid() + ") did not exit after SIGKILL");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new StackException("interrupted while killing " + name, e);
        }
    }

    /**
     * Starts a killed (or exited) process of the stack again with the command it was started with,
     * and waits until it serves: a Cassandra node accepts CQL, a Kafka broker answers. Its data
     * directory is kept: a node replays its commit log, a broker recovers its logs.
     */
    public void restart(String name, Duration timeout) {
        if (attached) {
            Control.send(state().controlSocket(), "restart " + name + " " + timeout.toSeconds());
            return;
        }
        Child old = child(name);
        if (old.process().isAlive()) {
            throw new StackException(name + " is still running (pid " + old.process().pid() + ")");
        }
        Child fresh = start(old.name(), old.region(), old.command(), old.log().getParent(), old.timerSlackNanos());
        children.set(children.indexOf(old), fresh);
        writeState(true, null);
        Deadline deadline = new Deadline(timeout);
        if (name.startsWith("cassandra-")) {
            int n = Integer.parseInt(name.substring(name.lastIndexOf('-') + 1));
            String address = config.nodeAddress(old.region(), n);
            await(name + " to accept CQL on " + address, deadline, () -> accepts(address, StackConfig.CQL_PORT));
        } else if (name.startsWith("kafka-")) {
            KafkaBroker broker = new KafkaBroker(name, old.region(), config.kafkaAddress(old.region()),
                    config.workDir().resolve(name));
            await(name + " to answer on " + broker.bootstrap(), deadline, () -> kafkaAnswers(broker));
        }
        report("restarted " + name + " (pid " + fresh.process().pid() + ")");
    }

    private Child child(String name) {
        return children.stream().filter(c -> c.name().equals(name)).findFirst().orElseThrow(() -> new StackException(
                "no process " + name + " in this stack: " + children.stream().map(Child::name).toList()));
    }

    /** Per-region connection details, for people. */
    public String describe() {
        StringBuilder out = new StringBuilder();
        for (Topology.RegionEndpoints r : topology().regions()) {
            out.append(String.format("%-10s DC %-16s cassandra %s  kafka %s  RF %d%n", r.name(), r.dataCenter(),
                    String.join(",", r.cassandraContactPoints()), r.kafkaBootstrap(), r.replicationFactor()));
        }
        out.append(wanStatus()).append('\n');
        out.append("topology: ").append(config.workDir().resolve("topology.properties")).append('\n');
        return out.toString();
    }

    /** Blocks until the stack has been stopped (by {@link #close()}, a signal, its parent's death or a stop command). */
    public void awaitClosed() throws InterruptedException {
        closed.await();
    }

    /**
     * Stops everything the stack started (Cassandra, Kafka, the WAN emulation), by pid. On an
     * attached stack, asks the owner process to do so and waits for it.
     */
    @Override
    public void close() {
        if (attached) {
            stopAttached(config.workDir());
            return;
        }
        if (!closing.compareAndSet(false, true)) {
            try {
                closed.await(STOP_TIMEOUT.toSeconds() * 2, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return;
        }
        try {
            if (control != null) {
                control.close();
            }
            children.forEach(c -> c.process().destroy());
            for (Child child : children) {
                try {
                    if (!child.process().waitFor(STOP_TIMEOUT.toSeconds(), TimeUnit.SECONDS)) {
                        child.process().destroyForcibly().waitFor(10, TimeUnit.SECONDS);
                    }
                } catch (InterruptedException e) {
                    child.process().destroyForcibly();
                    Thread.currentThread().interrupt();
                }
            }
            wan.close();
            try {
                Files.deleteIfExists(StackState.file(config.workDir()));
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            if (shutdownHook != null && Thread.currentThread() != shutdownHook) {
                try {
                    Runtime.getRuntime().removeShutdownHook(shutdownHook);
                } catch (IllegalStateException shuttingDown) {
                    // the JVM is already exiting; the hook runs this method, which is done
                }
            }
        } finally {
            closed.countDown();
        }
    }

    /** Stops the stack in a work directory, whoever owns it; no-op if none runs there. */
    public static void stop(Path workDir) {
        stopAttached(workDir.toAbsolutePath().normalize());
    }

    private static void stopAttached(Path workDir) {
        Optional<StackState> state = StackState.read(workDir);
        if (state.isEmpty()) {
            return;
        }
        StackState s = state.get();
        if (s.ownerAlive()) {
            try {
                Control.send(s.controlSocket(), "stop");
            } catch (StackException unreachable) {
                ProcessHandle.of(s.ownerPid()).ifPresent(ProcessHandle::destroy);
            }
            long deadline = System.nanoTime() + STOP_TIMEOUT.multipliedBy(2).toNanos();
            while (s.ownerAlive() && Files.exists(StackState.file(workDir)) && System.nanoTime() < deadline) {
                pause(200);
            }
            if (s.ownerAlive() && Files.exists(StackState.file(workDir))) {
                ProcessHandle.of(s.ownerPid()).ifPresent(ProcessHandle::destroyForcibly);
            }
            if (Boolean.parseBoolean(s.get("owner.exits-on-stop", "false"))) {
                ProcessHandle.of(s.ownerPid()).ifPresent(owner -> owner.onExit()
                        .orTimeout(STOP_TIMEOUT.toSeconds(), TimeUnit.SECONDS)
                        .exceptionally(timeout -> {
                            owner.destroyForcibly();
                            return owner;
                        }).join());
            }
        }
        for (long pid : s.pids().values()) {
            ProcessHandle.of(pid).filter(p -> isStackProcess(p, workDir) || isForwarder(p, workDir)).ifPresent(p -> {
                p.destroy();
                p.onExit().orTimeout(STOP_TIMEOUT.toSeconds(), TimeUnit.SECONDS)
                        .exceptionally(timeout -> {
                            p.destroyForcibly();
                            return p;
                        }).join();
            });
        }
        if (!s.namespaces().isEmpty()) {
            WanSupport.cleanup(workDir, s.get("prefix", DEFAULT_PREFIX), List.of(s.get("regions", "").split(",")));
        }
        try {
            Files.deleteIfExists(StackState.file(workDir));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static boolean isForwarder(ProcessHandle p, Path workDir) {
        return Stream.of(p.info().arguments().orElse(new String[0]))
                .anyMatch(a -> a.startsWith(workDir.resolve("wan").toString()));
    }

    /** Guards against pid reuse: a stack process names its node and work directory on its command line. */
    static boolean isStackProcess(ProcessHandle p, Path workDir) {
        String[] args = p.info().arguments().orElse(new String[0]);
        return Stream.of(args).anyMatch(a -> a.startsWith("-Dgeobroker.stack.node="))
                && Stream.of(args).anyMatch(a -> a.contains(workDir.toString()));
    }

    private StackState state() {
        return StackState.read(config.workDir())
                .orElseThrow(() -> new StackException("the local stack in " + config.workDir() + " is gone"));
    }

    private void checkRegions(String a, String b) {
        config.index(a);
        config.index(b);
        if (a.equals(b)) {
            throw new IllegalArgumentException("a link joins two different regions, not " + a + " and itself");
        }
    }

    /** Control commands from attached processes. */
    private String handle(String command) {
        String[] words = command.trim().split("\\s+");
        switch (words[0]) {
            case "status" -> {
                return "ready=" + (startupTime != null) + " " + wan.status();
            }
            case "cut", "restore" -> {
                if (words.length != 3) {
                    throw new IllegalArgumentException("usage: " + words[0] + " <region> <region>");
                }
                if (words[0].equals("cut")) {
                    cutLink(words[1], words[2]);
                } else {
                    restoreLink(words[1], words[2]);
                }
                return "ok";
            }
            case "kill" -> {
                if (words.length != 2) {
                    throw new IllegalArgumentException("usage: kill <process>");
                }
                kill(words[1]);
                return "ok";
            }
            case "restart" -> {
                if (words.length != 3) {
                    throw new IllegalArgumentException("usage: restart <process> <timeout seconds>");
                }
                restart(words[1], Duration.ofSeconds(Long.parseLong(words[2])));
                return "ok";
            }
            case "stop" -> {
                Thread stopper = new Thread(this::close, "local-stack-stop");
                stopper.start();
                return "stopping";
            }
            default -> throw new IllegalArgumentException("unknown command '" + words[0] + "'");
        }
    }

    private void report(String message) {
        progress.accept(String.format("[%5.1f s] %s", (System.nanoTime() - startNanos) / 1e9, message));
    }

    private static Path controlSocket(Path workDir) {
        Path socket = workDir.resolve(CONTROL_SOCKET);
        if (socket.toString().length() < 100) {
            return socket;
        }
        return Path.of(System.getProperty("java.io.tmpdir"),
                "geobroker-stack-" + Integer.toHexString(workDir.toString().hashCode()) + ".sock");
    }

    private void writeState(boolean ready, String failure) {
        Properties p = new Properties();
        p.setProperty("owner.pid", Long.toString(ProcessHandle.current().pid()));
        p.setProperty("control", controlSocket(config.workDir()).toString());
        p.setProperty("ready", Boolean.toString(ready));
        p.setProperty("owner.exits-on-stop", Boolean.toString(ownerExitsOnStop));
        p.setProperty("wan.status", wan.status());
        if (failure != null) {
            p.setProperty("failure", failure);
        }
        if (startupTime != null) {
            p.setProperty("startup-ms", Long.toString(startupTime.toMillis()));
        }
        config.store(p);
        children.forEach(c -> p.setProperty("pid." + c.name(), Long.toString(c.process().pid())));
        wan.namespaces().forEach((region, ns) -> p.setProperty("netns." + region, ns));
        forwarderNames(wan.pids()).forEach((name, pid) -> p.setProperty("pid." + name, Long.toString(pid)));
        new StackState(p).write(config.workDir());
    }

    private void watchParent() {
        config.watchParentPid().ifPresent(pid -> {
            Thread watch = new Thread(() -> {
                while (ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false) && !closing.get()) {
                    pause(500);
                }
                close();
            }, "local-stack-parent-watch");
            watch.setDaemon(true);
            watch.start();
        });
    }

    private void checkAddressesFree() {
        for (String region : config.regionNames()) {
            for (String address : config.nodeAddresses(region)) {
                checkFree(address, StackConfig.STORAGE_PORT);
                checkFree(address, StackConfig.CQL_PORT);
            }
            checkFree(config.kafkaAddress(region), StackConfig.KAFKA_PORT);
            checkFree(config.kafkaAddress(region), StackConfig.CONTROLLER_PORT);
        }
    }

    /** Fails with one message if the address and port cannot be bound. */
    static void checkFree(String address, int port) {
        try (ServerSocket socket = new ServerSocket()) {
            socket.setReuseAddress(true);
            socket.bind(new InetSocketAddress(address, port));
        } catch (BindException e) {
            if (String.valueOf(e.getMessage()).contains("assign requested address")) {
                throw new StackException("address " + address + " is not local here (" + e.getMessage() + "): a network"
                        + " namespace of an earlier stack may still route it (see `ip netns list`); a start with the WAN"
                        + " on removes one left on the same addresses, or pick another address prefix, e.g. --prefix 127.9");
            }
            throw new StackException("address " + address + ":" + port + " is in use (another stack? pick another"
                    + " address prefix, e.g. --prefix 127.9)");
        } catch (IOException e) {
            throw new StackException("cannot use address " + address + ":" + port + ": " + e.getMessage());
        }
    }

    private void prepareWorkDir() {
        Path workDir = config.workDir();
        try {
            Files.createDirectories(workDir);
            if (config.wipe()) {
                try (Stream<Path> entries = Files.list(workDir)) {
                    for (Path entry : entries.toList()) {
                        if (!entry.getFileName().toString().equals(OWNER_LOG)) {
                            deleteRecursively(entry);
                        }
                    }
                }
            }
        } catch (IOException e) {
            throw new StackException("cannot prepare the work directory " + workDir + ": " + e.getMessage(), e);
        }
    }

    private static void deleteRecursively(Path path) throws IOException {
        try (Stream<Path> walk = Files.walk(path)) {
            for (Path p : walk.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        }
    }

    private void launchAndAwait(Path java, List<Path> cassandraClassPath, List<Path> kafkaClassPath,
                                SymbolDirectory directory) {
        Path workDir = config.workDir();
        Path watchDir = RuntimeFiles.installParentWatch(workDir.resolve("parent-watch"));
        long owner = ProcessHandle.current().pid();
        List<String> seeds = config.regionNames().stream()
                .map(r -> config.nodeAddress(r, 1) + ":" + StackConfig.STORAGE_PORT).toList();
        List<String> jvmOptions = Jdk17.stackOptions(config.jvmOptions());
        List<CassandraNode> nodes = new ArrayList<>();
        List<KafkaBroker> brokers = new ArrayList<>();
        for (Region region : config.regions(directory)) {
            for (int n = 1; n <= config.nodesPerDc(); n++) {
                String name = "cassandra-" + region.name() + "-" + n;
                nodes.add(new CassandraNode(name, region.name(), region.dataCenter(), config.nodeAddress(region.name(), n),
                        n == 1, workDir.resolve(name)));
            }
            String name = "kafka-" + region.name();
            brokers.add(new KafkaBroker(name, region.name(), config.kafkaAddress(region.name()), workDir.resolve(name)));
        }
        for (CassandraNode node : nodes) {
            node.configure(seeds, config.cassandraHeapMb(), config.syncedCommitLog());
            // A larger timer slack makes Cassandra's idle pool workers wake less often (see TimerSlack).
            children.add(start(node.name(), node.region(), node.command(java, cassandraClassPath, watchDir, owner,
                    config.cassandraHeapMb(), jvmOptions), node.logDir(), TimerSlack.CASSANDRA_NANOS));
        }
        List<Child> formats = new ArrayList<>();
        for (KafkaBroker broker : brokers) {
            broker.configure();
            if (broker.needsFormat()) {
                formats.add(start(broker.name() + "-format", broker.region(),
                        broker.formatCommand(java, kafkaClassPath, watchDir, owner), broker.logDir()));
            }
        }
        writeState(false, null);
        report("launched " + nodes.size() + " Cassandra node(s) and " + brokers.size() + " Kafka broker(s)");
        Deadline deadline = new Deadline(config.startTimeout());
        for (Child format : formats) {
            await("formatting " + format.name(), deadline, () -> !format.process().isAlive());
            if (format.process().exitValue() != 0) {
                throw new StackException(format.name() + " failed (exit code " + format.process().exitValue()
                        + "); see " + format.log());
            }
        }
        for (KafkaBroker broker : brokers) {
            launch(broker.name(), broker.region(), broker.serverCommand(java, kafkaClassPath, watchDir, owner,
                    config.kafkaHeapMb(), jvmOptions), broker.logDir());
        }
        writeState(false, null);
        for (CassandraNode node : nodes) {
            await(node.name() + " to accept CQL on " + node.address() + ":" + StackConfig.CQL_PORT, deadline,
                    () -> accepts(node.address(), StackConfig.CQL_PORT));
            report(node.name() + " accepts CQL");
        }
        for (KafkaBroker broker : brokers) {
            await(broker.name() + " to answer on " + broker.bootstrap(), deadline, () -> kafkaAnswers(broker));
            report(broker.name() + " answers");
        }
        awaitCassandraReady(directory, deadline);
    }

    /**
     * Every node up from every DC's point of view: a write at consistency ALL to a keyspace
     * replicated to every DC succeeds through each region's coordinator. Then the schema.
     */
    private void awaitCassandraReady(SymbolDirectory directory, Deadline deadline) {
        Map<String, Integer> rf = new LinkedHashMap<>();
        config.regions(directory).forEach(r -> rf.put(r.dataCenter(), config.replicationFactor()));
        List<CqlSession> sessions = new ArrayList<>();
        try {
            for (Region region : config.regions(directory)) {
                CqlSession[] session = new CqlSession[1];
                await("a CQL session in " + region.dataCenter(), deadline, () -> {
                    session[0] = connect(region);
                    return true;
                });
                sessions.add(session[0]);
            }
            CqlSession first = sessions.get(0);
            await("the probe keyspace", deadline, () -> {
                first.execute(SimpleStatement.newInstance("CREATE KEYSPACE IF NOT EXISTS " + PROBE_KEYSPACE
                        + " WITH replication = " + replicationMap(rf)).setTimeout(Duration.ofSeconds(30)));
                first.execute(SimpleStatement.newInstance("CREATE TABLE IF NOT EXISTS " + PROBE_KEYSPACE
                        + ".probe (region text PRIMARY KEY, at timestamp)").setTimeout(Duration.ofSeconds(30)));
                return SchemaTool.schemaAgrees(first);
            });
            for (int i = 0; i < sessions.size(); i++) {
                CqlSession session = sessions.get(i);
                String region = config.regionNames().get(i);
                await("every node to be up as seen from " + region, deadline, () -> {
                    session.execute(SimpleStatement.newInstance("INSERT INTO " + PROBE_KEYSPACE
                                    + ".probe (region, at) VALUES (?, ?)", region, Instant.now())
                            .setConsistencyLevel(ConsistencyLevel.ALL).setTimeout(Duration.ofSeconds(10)));
                    return true;
                });
            }
            report("every node is up as seen from every DC");
            if (config.applySchema()) {
                SchemaTool.apply(first, config.keyspace(), rf);
                report("schema applied to " + config.keyspace());
            }
        } finally {
            sessions.forEach(CqlSession::close);
        }
    }

    private static String replicationMap(Map<String, Integer> rf) {
        StringBuilder map = new StringBuilder("{'class': 'NetworkTopologyStrategy'");
        rf.forEach((dc, n) -> map.append(", '").append(dc).append("': ").append(n));
        return map.append('}').toString();
    }

    private CqlSession connect(Region region) {
        return CqlSession.builder()
                .addContactPoints(config.nodeAddresses(region.name()).stream()
                        .map(a -> new InetSocketAddress(a, StackConfig.CQL_PORT)).toList())
                .withLocalDatacenter(region.dataCenter())
                .withConfigLoader(SchemaTool.ddlSessionConfig()
                        .withDuration(DefaultDriverOption.REQUEST_TIMEOUT, Duration.ofSeconds(10))
                        .withDuration(DefaultDriverOption.CONNECTION_INIT_QUERY_TIMEOUT, Duration.ofSeconds(10))
                        .withDuration(DefaultDriverOption.CONTROL_CONNECTION_TIMEOUT, Duration.ofSeconds(10))
                        .withDuration(DefaultDriverOption.CONTROL_CONNECTION_AGREEMENT_TIMEOUT, Duration.ofSeconds(30))
                        .build())
                .build();
    }

    private boolean kafkaAnswers(KafkaBroker broker) {
        if (!accepts(broker.address(), StackConfig.KAFKA_PORT)) {
            return false;
        }
        Properties p = new Properties();
        p.setProperty(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrap());
        p.setProperty(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, "5000");
        p.setProperty(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, "5000");
        try (Admin admin = Admin.create(p)) {
            return !admin.describeCluster().nodes().get(5, TimeUnit.SECONDS).isEmpty();
        } catch (Exception e) {
            return false;
        }
    }

    private static boolean accepts(String address, int port) {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress(address, port), 500);
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    private void launch(String name, String region, List<String> command, Path logDir) {
        children.add(start(name, region, command, logDir));
    }

    private Child start(String name, String region, List<String> command, Path logDir) {
        return start(name, region, command, logDir, 0);
    }

    /** Starts a child; a positive {@code timerSlackNanos} is the timer slack of all its threads. */
    private Child start(String name, String region, List<String> command, Path logDir, long timerSlackNanos) {
        Path log = logDir.resolve("stdout.log");
        ProcessBuilder pb = wan.wrap(region, new ProcessBuilder(command))
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()));
        try {
            Process process = timerSlackNanos > 0 ? TimerSlack.start(pb, timerSlackNanos) : pb.start();
            PausePriority.watch(process.toHandle());
            return new Child(name, process, log, region, List.copyOf(command), timerSlackNanos);
        } catch (IOException e) {
            throw new StackException("cannot start " + name + ": " + e.getMessage(), e);
        }
    }

    /** Polls until the condition holds, failing fast when a child process died meanwhile. */
    private void await(String what, Deadline deadline, BooleanSupplier condition) {
        Exception last = null;
        while (true) {
            for (Child child : children) {
                if (!child.process().isAlive()) {
                    throw new StackException(child.name() + " exited with code " + child.process().exitValue()
                            + " while starting; see " + child.log().getParent() + lastError(child.log().getParent()));
                }
            }
            try {
                if (condition.getAsBoolean()) {
                    return;
                }
            } catch (RuntimeException e) {
                last = e;
            }
            if (deadline.passed()) {
                throw new StackException("timed out after " + deadline.total().toSeconds() + " s waiting for " + what
                        + (last == null ? "" : " (last error: " + last.getMessage() + ")"));
            }
            pause(250);
        }
    }

    /** The last ERROR line of a node's log, to make a failed start's message useful on its own. */
    private static String lastError(Path logDir) {
        try (Stream<Path> files = Files.list(logDir)) {
            for (Path file : files.toList()) {
                List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
                for (int i = lines.size() - 1; i >= 0; i--) {
                    if (lines.get(i).contains("ERROR") || lines.get(i).contains("Exception")) {
                        return ": " + lines.get(i).strip();
                    }
                }
            }
        } catch (IOException | UncheckedIOException e) {
            return "";
        }
        return "";
    }

    private Topology buildTopology(SymbolDirectory directory) {
        List<Topology.RegionEndpoints> endpoints = new ArrayList<>();
        for (Region region : config.regions(directory)) {
            endpoints.add(new Topology.RegionEndpoints(region, config.replicationFactor(),
                    config.nodeAddresses(region.name()).stream().map(a -> a + ":" + StackConfig.CQL_PORT).toList(),
                    config.kafkaAddress(region.name()) + ":" + StackConfig.KAFKA_PORT,
                    "http://" + config.serviceAddress(region.name(), 0) + ":8080"));
        }
        return new Topology(endpoints);
    }

    static long rssKb(long pid) {
        Path status = Path.of("/proc", Long.toString(pid), "status");
        try {
            for (String line : Files.readAllLines(status, StandardCharsets.UTF_8)) {
                if (line.startsWith("VmRSS:")) {
                    return Long.parseLong(line.replaceAll("[^0-9]", ""));
                }
            }
        } catch (IOException | RuntimeException e) {
            return 0;
        }
        return 0;
    }

    static void pause(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new StackException("interrupted");
        }
    }

    private record Deadline(long endNanos, Duration total) {
        Deadline(Duration total) {
            this(System.nanoTime() + total.toNanos(), total);
        }

        boolean passed() {
            return System.nanoTime() > endNanos;
        }
    }

    /** Settings of a {@link LocalStack}; every one has a default that suits one developer machine. */
    public static final class Builder {
        private Path workDir = Path.of(".stack");
        private boolean wipe;
        private List<String> regions = DEFAULT_REGIONS;
        private int nodesPerDc = 1;
        private String addressPrefix = DEFAULT_PREFIX;
        private WanMode wan = WanMode.AUTO;
        private Duration oneWayDelay = DEFAULT_ONE_WAY_DELAY;
        private int cassandraHeapMb = DEFAULT_CASSANDRA_HEAP_MB;
        private int kafkaHeapMb = 256;
        private List<String> jvmOptions = List.of();
        private String keyspace = SchemaTool.DEFAULT_KEYSPACE;
        private boolean applySchema = true;
        private OptionalLong watchParentPid = OptionalLong.empty();
        private Duration startTimeout = Duration.ofMinutes(5);
        private boolean syncedCommitLog;
        private Consumer<String> progress = message -> { };

        private Builder() {
        }

        /** All data, logs and the state file go under this directory (default {@code .stack}). */
        public Builder workDir(Path workDir) {
            this.workDir = Objects.requireNonNull(workDir);
            return this;
        }

        /** Deletes the data of an earlier run first (default: kept). */
        public Builder wipe(boolean wipe) {
            this.wipe = wipe;
            return this;
        }

        /** Region names from the catalogue, in address-plan order (default sydney, nvirginia). */
        public Builder regions(List<String> regions) {
            this.regions = List.copyOf(regions);
            return this;
        }

        public Builder nodesPerDc(int nodesPerDc) {
            this.nodesPerDc = nodesPerDc;
            return this;
        }

        /** {@code 127.<x>}: region {@code i} lives on {@code <prefix>.<i>.0/24} (default 127.0). */
        public Builder addressPrefix(String addressPrefix) {
            this.addressPrefix = Objects.requireNonNull(addressPrefix);
            return this;
        }

        public Builder wan(WanMode wan) {
            this.wan = Objects.requireNonNull(wan);
            return this;
        }

        /** Delay each way between two regions (default 115 ms, ~Sydney to N. Virginia). */
        public Builder oneWayDelay(Duration oneWayDelay) {
            this.oneWayDelay = Objects.requireNonNull(oneWayDelay);
            return this;
        }

        /** Heap of each Cassandra node (default 256 MB: enough for tests and the demo's load). */
        public Builder cassandraHeapMb(int cassandraHeapMb) {
            this.cassandraHeapMb = cassandraHeapMb;
            return this;
        }

        /** Heap of each Kafka broker (default 256 MB). */
        public Builder kafkaHeapMb(int kafkaHeapMb) {
            this.kafkaHeapMb = kafkaHeapMb;
            return this;
        }

        /**
         * Extra options for every Cassandra node and Kafka broker JVM, after the stack's own (so they
         * can override them: {@link Jdk17#stackDefaults}), e.g. {@code -XX:TieredStopAtLevel=4} for C2
         * as well (default: none).
         */
        public Builder jvmOptions(List<String> jvmOptions) {
            this.jvmOptions = List.copyOf(jvmOptions);
            return this;
        }

        public Builder keyspace(String keyspace) {
            this.keyspace = Objects.requireNonNull(keyspace);
            return this;
        }

        /** Whether {@link #start()} applies the schema to {@link #keyspace} (default true). */
        public Builder applySchema(boolean applySchema) {
            this.applySchema = applySchema;
            return this;
        }

        /** Stops the stack when the process with this pid ends (e.g. the build that started it). */
        public Builder watchParentPid(long pid) {
            this.watchParentPid = OptionalLong.of(pid);
            return this;
        }

        /**
         * Whether each Cassandra node syncs its commit log before it acknowledges a write
         * ({@code commitlog_sync: batch}; default false: every 10 s, Cassandra's default). At one
         * node per DC a write acknowledged at LOCAL_QUORUM has one copy in its DC, and with the
         * periodic sync a SIGKILLed node loses what it acknowledged in about its last 100 ms; tests
         * that kill a node need it synced. It costs the demo's default load dearly (ticker-to-fill
         * p50 36.6 to 118 ms, docs/results.md, 2026-12-05), so the demo does not.
         */
        public Builder syncedCommitLog(boolean syncedCommitLog) {
            this.syncedCommitLog = syncedCommitLog;
            return this;
        }

        public Builder startTimeout(Duration startTimeout) {
            this.startTimeout = Objects.requireNonNull(startTimeout);
            return this;
        }

        StackConfig config() {
            return new StackConfig(workDir, wipe, regions, nodesPerDc, addressPrefix, wan, oneWayDelay,
                    cassandraHeapMb, kafkaHeapMb, jvmOptions, keyspace, applySchema, watchParentPid, startTimeout,
                    syncedCommitLog);
        }

        /** Receives one line per start-up step, with the time since the start (default: none). */
        public Builder progress(Consumer<String> progress) {
            this.progress = Objects.requireNonNull(progress);
            return this;
        }

        /** A stack owned by this process; call {@link LocalStack#start()}. */
        public LocalStack build() {
            LocalStack stack = new LocalStack(config().validate(SymbolDirectory.standard()), false, null);
            stack.progress = progress;
            return stack;
        }

        /**
         * Starts the stack in a separate owner process (the same as {@code local-stack start}) and
         * returns it attached, once ready. The owner lives on when this JVM ends; it stops on
         * {@link LocalStack#close()}, {@code local-stack stop}, or when the process given to
         * {@link #watchParentPid} ends.
         */
        public LocalStack spawn() {
            return Spawner.spawn(config().validate(SymbolDirectory.standard()));
        }
    }
}
