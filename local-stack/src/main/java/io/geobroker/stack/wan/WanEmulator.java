package io.geobroker.stack.wan;

import com.sun.jna.Native;
import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.StandardProtocolFamily;
import java.net.URISyntaxException;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.Channels;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystemNotFoundException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * An emulated WAN between regions on one Linux machine: each region is a network namespace whose
 * 127.x addresses are reachable from the other regions only through a forwarder that delays every
 * packet by a fixed one-way time (there is no {@code tc netem} on the kernels this runs on), and
 * from the root namespace (where clients and tests run, "in region") without delay.
 *
 * <p>Needs Linux, root, {@code ip} and {@code /dev/net/tun}; {@link #check()} says whether they are
 * there. Everything it creates is named from the regions' address prefix, so stacks with different
 * prefixes do not meet, and is removed by {@link #close()}, by the forwarder when this process dies,
 * or by {@link #cleanup(Path, List)} after a crash. See {@code local-stack/README-wan.md}.
 */
public final class WanEmulator implements AutoCloseable {

    /** A region of the WAN: its name, its network namespace and its {@code 127.P.I.0/24} CIDR. */
    public record WanRegion(String name, String namespace, String cidr) {

        /**
         * Region {@code index} (1-based) of a stack with address prefix {@code prefix}
         * ({@code "127.P"}): namespace {@code gbP-<name>}, CIDR {@code 127.P.<index>.0/24}.
         */
        public static WanRegion of(String prefix, int index, String name) {
            String[] octets = prefix.split("\\.");
            if (octets.length != 2 || !octets[0].equals("127") || !octets[1].matches("\\d{1,3}")
                    || Integer.parseInt(octets[1]) > 255) {
                throw new IllegalArgumentException("address prefix must look like 127.P, got " + prefix);
            }
            if (index < 1 || index > 255) {
                throw new IllegalArgumentException("region index must be 1..255, got " + index);
            }
            String namespace = "gb" + Integer.parseInt(octets[1]) + "-" + name;
            return new WanRegion(name, namespace, prefix + "." + index + ".0/24");
        }
    }

    /** Whether the WAN can run here, and if not, why (one line for the user). */
    public record WanCheck(boolean available, String reason) {}

    private static final String FORWARDER_HEAP = "-Xmx32m";
    private static final long READY_TIMEOUT_SECONDS = 30;
    private static final long STOP_TIMEOUT_SECONDS = 10;
    /** sun_path is 108 bytes including the terminating NUL. */
    private static final int MAX_SOCKET_PATH = 107;

    private final WanPlan plan;
    private final Duration oneWay;
    private final Path stateDir;
    private final Process forwarder;
    private final OutputStream forwarderStdin;
    private final Thread shutdownHook;
    private boolean closed;

    private WanEmulator(WanPlan plan, Duration oneWay, Path stateDir, Process forwarder) {
        this.plan = plan;
        this.oneWay = oneWay;
        this.stateDir = stateDir;
        this.forwarder = forwarder;
        this.forwarderStdin = forwarder.getOutputStream();
        this.shutdownHook = new Thread(this::stop, "wan-shutdown");
        Runtime.getRuntime().addShutdownHook(shutdownHook);
    }

    /** Linux? root? {@code ip}? {@code /dev/net/tun}? May we create a network namespace? */
    public static WanCheck check() {
        if (!System.getProperty("os.name", "").toLowerCase(Locale.ROOT).contains("linux")) {
            return new WanCheck(false, "WAN off: needs Linux network namespaces, this is "
                    + System.getProperty("os.name"));
        }
        if (!isRoot()) {
            return new WanCheck(false, "WAN off: not running as root");
        }
        Command.Result ip = Command.run(List.of("ip", "-V"));
        if (!ip.ok()) {
            return new WanCheck(false, "WAN off: the 'ip' command (iproute2) is not available");
        }
        Path tun = Path.of("/dev/net/tun");
        if (!Files.isReadable(tun) || !Files.isWritable(tun)) {
            return new WanCheck(false, "WAN off: /dev/net/tun is missing or not accessible");
        }
        String probe = "gbchk-" + ProcessHandle.current().pid();
        Command.Result add = Command.run(List.of("ip", "netns", "add", probe));
        Command.run(List.of("ip", "netns", "del", probe));
        if (!add.ok()) {
            return new WanCheck(false, "WAN off: cannot create a network namespace: " + add.output());
        }
        return new WanCheck(true, "WAN on");
    }

    private static boolean isRoot() {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
                if (line.startsWith("Uid:")) {
                    return line.split("\\s+")[2].equals("0");
                }
            }
        } catch (IOException e) {
            return false;
        }
        return false;
    }

    /**
     * Builds the namespaces and starts the forwarder; returns once traffic flows. Leftovers of a
     * crashed run with the same regions and {@code workDir} are removed first.
     *
     * @param oneWay  delay added to every packet between two regions (RTT is twice this)
     * @param workDir this stack's working directory; the WAN keeps its state under {@code wan/}
     */
    public static WanEmulator start(List<WanRegion> regions, Duration oneWay, Path workDir) {
        WanPlan plan = new WanPlan(regions);
        if (oneWay.isNegative()) {
            throw new IllegalArgumentException("one-way delay must not be negative: " + oneWay);
        }
        WanCheck check = check();
        if (!check.available()) {
            throw new IllegalStateException(check.reason());
        }
        Path stateDir = workDir.toAbsolutePath().resolve("wan");
        Path socket = stateDir.resolve("control.sock");
        if (socket.toString().getBytes(StandardCharsets.UTF_8).length > MAX_SOCKET_PATH) {
            throw new IllegalArgumentException("work directory path too long for a control socket: " + socket);
        }
        cleanup(workDir, regions);
        try {
            Files.createDirectories(stateDir);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create " + stateDir, e);
        }
        Process process = null;
        try {
            for (int i = 0; i < plan.size(); i++) {
                for (List<String> c : plan.setupCommands(i)) {
                    Command.require(c);
                }
            }
            process = launchForwarder(plan, oneWay, stateDir, socket);
            return new WanEmulator(plan, oneWay, stateDir, process);
        } catch (RuntimeException e) {
            if (process != null) {
                stopProcess(process);
            }
            teardown(plan);
            throw e;
        }
    }

    private static Process launchForwarder(WanPlan plan, Duration oneWay, Path stateDir, Path socket) {
        List<String> cmd = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xms8m", FORWARDER_HEAP, "-Xss512k", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1",
                "-XX:CICompilerCount=1", "-XX:ReservedCodeCacheSize=16m", "-XX:-UsePerfData",
                "-Djna.tmpdir=" + stateDir.resolve("jna"),
                "-cp", forwarderClassPath(),
                WanForwarder.class.getName(),
                Long.toString(ProcessHandle.current().pid()),
                Long.toString(TimeUnit.NANOSECONDS.toMicros(oneWay.toNanos())),
                socket.toString()));
        for (WanRegion r : plan.regions()) {
            cmd.add(r.name() + "," + r.namespace() + "," + r.cidr());
        }
        Path log = stateDir.resolve("forwarder.log");
        Process process;
        try {
            process = new ProcessBuilder(cmd)
                    .redirectError(ProcessBuilder.Redirect.to(log.toFile()))
                    .start();
            Files.writeString(stateDir.resolve("forwarder.pid"), Long.toString(process.pid()));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start the WAN forwarder", e);
        }
        CompletableFuture<Boolean> ready = CompletableFuture.supplyAsync(() -> {
            try {
                var out = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
                return "READY".equals(out.readLine());
            } catch (IOException e) {
                return false;
            }
        });
        boolean isReady;
        try {
            isReady = ready.get(READY_TIMEOUT_SECONDS, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            isReady = false;
        } catch (ExecutionException | TimeoutException e) {
            isReady = false;
        }
        if (!isReady) {
            stopProcess(process);
            throw new IllegalStateException("the WAN forwarder did not start; its log " + log + ":\n" + tail(log));
        }
        return process;
    }

    private static String forwarderClassPath() {
        Set<String> entries = new LinkedHashSet<>();
        for (Class<?> c : List.of(WanForwarder.class, Native.class)) {
            var source = c.getProtectionDomain().getCodeSource();
            try {
                if (source == null) {
                    throw new URISyntaxException(c.getName(), "no code source");
                }
                entries.add(Path.of(source.getLocation().toURI()).toString());
            } catch (URISyntaxException | IllegalArgumentException | FileSystemNotFoundException e) {
                throw new IllegalStateException("cannot locate the class path of " + c.getName()
                        + " for the WAN forwarder: " + e.getMessage(), e);
            }
        }
        return String.join(File.pathSeparator, entries);
    }

    private static String tail(Path log) {
        try {
            List<String> lines = Files.readAllLines(log);
            return String.join("\n", lines.subList(Math.max(0, lines.size() - 20), lines.size()));
        } catch (IOException e) {
            return "(unreadable: " + e.getMessage() + ")";
        }
    }

    /** Cuts the link between regions {@code a} and {@code b}: packets between them are dropped. */
    public void cut(String a, String b) {
        plan.indexOf(a);
        plan.indexOf(b);
        control(stateDir, "cut " + a + " " + b);
    }

    /** Restores the link between regions {@code a} and {@code b}. */
    public void restore(String a, String b) {
        plan.indexOf(a);
        plan.indexOf(b);
        control(stateDir, "restore " + a + " " + b);
    }

    /**
     * Cuts or restores a link of the WAN running with {@code workDir}, from any process (e.g. a
     * command-line {@code cut} while {@code start} runs in another).
     */
    public static void setLink(Path workDir, String a, String b, boolean up) {
        control(workDir.toAbsolutePath().resolve("wan"), (up ? "restore " : "cut ") + a + " " + b);
    }

    /** The forwarder's view of the links, e.g. {@code sydney-nvirginia=up dropped-to-sydney=0 ...}. */
    public static String status(Path workDir) {
        return control(workDir.toAbsolutePath().resolve("wan"), "status");
    }

    /** Status words {@code carried-<from>-to-<to>=<IP bytes>}. */
    static final String CARRIED = "carried-";
    static final String TO = "-to-";

    /**
     * The IP bytes the WAN running with {@code workDir} has carried so far from each region to each
     * other, keyed {@code from->to} (counted as packets enter the link; a cut link's are not).
     */
    public static Map<String, Long> carried(Path workDir) {
        return carriedIn(status(workDir));
    }

    static Map<String, Long> carriedIn(String status) {
        Map<String, Long> carried = new TreeMap<>();
        for (String word : status.split("\\s+")) {
            int eq = word.indexOf('=');
            if (word.startsWith(CARRIED) && eq > 0) {
                String[] pair = word.substring(CARRIED.length(), eq).split(TO, 2);
                if (pair.length == 2) {
                    carried.put(pair[0] + "->" + pair[1], Long.parseLong(word.substring(eq + 1)));
                }
            }
        }
        return carried;
    }

    private static String control(Path stateDir, String command) {
        Path socket = stateDir.resolve("control.sock");
        try (SocketChannel channel = SocketChannel.open(StandardProtocolFamily.UNIX)) {
            channel.connect(UnixDomainSocketAddress.of(socket));
            channel.write(StandardCharsets.UTF_8.encode(command + "\n"));
            var in = new BufferedReader(new InputStreamReader(Channels.newInputStream(channel), StandardCharsets.UTF_8));
            String reply = in.readLine();
            if (reply == null || !reply.startsWith("ok")) {
                throw new IllegalArgumentException("WAN: " + (reply == null ? "no reply" : reply.substring(6)));
            }
            return reply.substring(2).strip();
        } catch (IOException e) {
            throw new IllegalStateException("the WAN is not running (no forwarder at " + socket + ")", e);
        }
    }

    /** Makes {@code pb} run its command inside {@code region}'s namespace (same pid, via exec). */
    public ProcessBuilder wrap(String region, ProcessBuilder pb) {
        List<String> command = new ArrayList<>(List.of("ip", "netns", "exec", plan.regions().get(plan.indexOf(region)).namespace()));
        command.addAll(pb.command());
        return pb.command(command);
    }

    /** The forwarder process id(s), for a state file from which a later {@code stop} can kill them. */
    public List<Long> pids() {
        return forwarder.isAlive() ? List.of(forwarder.pid()) : List.of();
    }

    public List<WanRegion> regions() {
        return plan.regions();
    }

    public Duration oneWay() {
        return oneWay;
    }

    /**
     * Removes what a previous run with these regions and {@code workDir} left behind: its forwarder
     * (only if it is still that forwarder), namespaces, veths and root-namespace routes. Touches
     * only objects whose exact names derive from {@code regions}; safe to call when nothing is left.
     */
    public static void cleanup(Path workDir, List<WanRegion> regions) {
        WanPlan plan = new WanPlan(regions);
        Path stateDir = workDir.toAbsolutePath().resolve("wan");
        List<ProcessHandle> forwarders = ProcessHandle.allProcesses()
                .filter(h -> isForwarderOf(h, plan) || isForwarderOf(h, stateDir))
                .toList();
        for (ProcessHandle h : forwarders) {
            long owner = ownerOf(h);
            if (owner > 0) {
                throw new IllegalStateException("the WAN of " + plan.regions().stream().map(WanRegion::cidr).toList()
                        + " is in use by a running stack (process " + owner + ", forwarder " + h.pid()
                        + "); stop it or choose another address prefix");
            }
        }
        forwarders.forEach(WanEmulator::stopLeftover);
        try {
            Files.deleteIfExists(stateDir.resolve("forwarder.pid"));
            Files.deleteIfExists(stateDir.resolve("control.sock"));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot clean up the WAN state in " + stateDir, e);
        }
        teardown(plan);
    }

    private static void stopLeftover(ProcessHandle h) {
        h.destroy();
        try {
            h.onExit().get(STOP_TIMEOUT_SECONDS, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (ExecutionException | TimeoutException e) {
            h.destroyForcibly();
        }
    }

    /** The pid of the live process that started forwarder {@code h}, or -1 if it is gone. */
    private static long ownerOf(ProcessHandle h) {
        List<String> args = forwarderArguments(h);
        int i = args.indexOf(WanForwarder.class.getName());
        if (i < 0 || i + 1 >= args.size()) {
            return -1;
        }
        long owner = Long.parseLong(args.get(i + 1));
        boolean ownerIsParent = h.parent().map(ProcessHandle::pid).orElse(-1L) == owner;
        return ownerIsParent && ProcessHandle.of(owner).map(ProcessHandle::isAlive).orElse(false) ? owner : -1;
    }

    private static boolean isForwarderOf(ProcessHandle h, Path stateDir) {
        return forwarderArguments(h).contains(stateDir.resolve("control.sock").toString());
    }

    private static boolean isForwarderOf(ProcessHandle h, WanPlan plan) {
        List<String> args = forwarderArguments(h);
        return plan.regions().stream().anyMatch(r -> args.stream().anyMatch(a -> a.contains("," + r.namespace() + ",")));
    }

    /** The arguments of {@code h} if it is a WAN forwarder, else an empty list. */
    private static List<String> forwarderArguments(ProcessHandle h) {
        if (h.pid() == ProcessHandle.current().pid()) {
            return List.of();
        }
        List<String> args = List.of(h.info().arguments().orElse(new String[0]));
        return args.contains(WanForwarder.class.getName()) ? args : List.of();
    }

    private static void teardown(WanPlan plan) {
        Set<String> namespaces = new LinkedHashSet<>(List.of(Command.run(List.of("ip", "netns", "list")).output().split("\n")));
        for (int i = 0; i < plan.size(); i++) {
            String ns = plan.regions().get(i).namespace();
            boolean present = namespaces.stream().anyMatch(line -> line.equals(ns) || line.startsWith(ns + " "));
            boolean hostVeth = Command.run(List.of("ip", "link", "show", plan.hostVeth(i))).ok();
            if (present || hostVeth) {
                for (List<String> c : plan.teardownCommands(i)) {
                    Command.run(c);
                }
            }
        }
    }

    /** Stops the forwarder and removes the namespaces, veths and routes. Idempotent. */
    @Override
    public void close() {
        stop();
        try {
            Runtime.getRuntime().removeShutdownHook(shutdownHook);
        } catch (IllegalStateException shuttingDown) {
            // the hook is running or has run: nothing to unregister
        }
    }

    private synchronized void stop() {
        if (closed) {
            return;
        }
        closed = true;
        try {
            forwarderStdin.close();
        } catch (IOException ignored) {
            // the forwarder may already be gone
        }
        stopProcess(forwarder);
        teardown(plan);
        try {
            Files.deleteIfExists(stateDir.resolve("forwarder.pid"));
            Files.deleteIfExists(stateDir.resolve("control.sock"));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void stopProcess(Process process) {
        process.destroy();
        try {
            if (!process.waitFor(STOP_TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor(STOP_TIMEOUT_SECONDS, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
    }
}
