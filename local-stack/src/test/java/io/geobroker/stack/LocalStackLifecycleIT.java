package io.geobroker.stack;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.geobroker.stack.wan.WanEmulator;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Starting and ending whole stacks: nothing may outlive a stop or a killed owner. Uses its own
 * address prefix (the shared test stack's second octet + 128, e.g. 127.128) and work directories,
 * so it can run next to the build's shared stack.
 */
class LocalStackLifecycleIT {

    private static final Path ROOT = Path.of(System.getProperty("geobroker.root", "..")).toAbsolutePath().normalize();
    private static final String PREFIX = lifecyclePrefix();
    private static final WanMode WAN = WanMode.valueOf(System.getProperty("geobroker.stack.wan", "auto").toUpperCase(Locale.ROOT));

    @Test
    void stop_leaves_no_process_and_no_namespace() throws Exception {
        Path dir = ROOT.resolve("target/lifecycle-stop");
        LocalStack.builder().workDir(dir).wipe(true).addressPrefix(PREFIX).wan(WAN).applySchema(false).spawn();
        StackState state = StackState.read(dir).orElseThrow();
        Map<String, Long> pids = state.pids();
        Collection<String> namespaces = state.namespaces().values();
        assertThat(pids).containsKeys("cassandra-sydney-1", "cassandra-nvirginia-1", "kafka-sydney", "kafka-nvirginia");
        assertThat(alive(pids.values())).containsExactlyInAnyOrderElementsOf(pids.values());
        for (String name : List.of("cassandra-sydney-1", "kafka-nvirginia")) {
            String cmdline = Files.readString(Path.of("/proc", Long.toString(pids.get(name)), "cmdline"));
            assertThat(List.of(cmdline.split("\u0000"))).as("%s starts with the stack's own options", name)
                    .containsAll(Jdk17.stackDefaults());
        }

        LocalStack.stop(dir);

        assertThat(alive(pids.values())).isEmpty();
        assertThat(alive(List.of(state.ownerPid()))).isEmpty();
        assertThat(netnsList()).doesNotContainAnyElementsOf(namespaces);
        assertThat(StackState.read(dir)).isEmpty();
    }

    @Test
    void a_sigkilled_owner_leaves_no_process_and_no_namespace() throws IOException {
        Path dir = ROOT.resolve("target/lifecycle-kill");
        LocalStack.stop(dir);
        StackConfig config = LocalStack.builder().workDir(dir).wipe(true).addressPrefix(PREFIX).wan(WAN)
                .applySchema(false).config();
        List<String> command = new ArrayList<>(List.of(Jdk17.find().toString(), "-Xmx128m",
                "-Dgeobroker.root=" + ROOT, "-cp", ROOT.resolve("local-stack/target/local-stack.jar").toString(),
                LocalStackCli.class.getName(), "start", "--foreground"));
        command.addAll(config.toArguments());
        Files.createDirectories(dir);
        Process owner = new ProcessBuilder(command).redirectErrorStream(true)
                .redirectOutput(dir.resolveSibling("lifecycle-kill-owner.log").toFile()).start();
        try {
            await().atMost(Duration.ofMinutes(6)).pollInterval(Duration.ofSeconds(1)).until(() ->
                    !owner.isAlive() || StackState.read(dir).map(StackState::ready).orElse(false));
            assertThat(owner.isAlive()).as("owner started the stack").isTrue();
        } finally {
            if (!owner.isAlive() || !StackState.read(dir).map(StackState::ready).orElse(false)) {
                owner.destroy();
            }
        }
        StackState state = StackState.read(dir).orElseThrow();
        Collection<Long> pids = state.pids().values();
        Collection<String> namespaces = state.namespaces().values();
        assertThat(alive(pids)).hasSize(pids.size());

        owner.destroyForcibly();

        await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(500)).untilAsserted(() -> {
            assertThat(alive(pids)).isEmpty();
            assertThat(netnsList()).doesNotContainAnyElementsOf(namespaces);
        });
        LocalStack.stop(dir);
    }

    @Test
    void a_busy_address_stops_the_start_before_anything_runs() throws IOException {
        Path dir = ROOT.resolve("target/lifecycle-busy");
        String address = PREFIX + ".2.1";
        try (ServerSocket taken = new ServerSocket()) {
            taken.bind(new InetSocketAddress(address, StackConfig.CQL_PORT));
            LocalStack stack = LocalStack.builder().workDir(dir).addressPrefix(PREFIX).wan(WanMode.OFF).build();

            assertThatThrownBy(stack::start)
                    .isInstanceOf(StackException.class)
                    .hasMessage("address " + address + ":9042 is in use (another stack? pick another address prefix, e.g. --prefix 127.9)");
        }
        assertThat(StackState.read(dir)).isEmpty();
    }

    @Test
    void a_start_removes_the_namespaces_an_earlier_stack_left_on_its_addresses() throws Exception {
        WanEmulator.WanCheck wan = WanEmulator.check();
        assumeTrue(wan.available(), "leftover namespaces exist only where the WAN runs: "
                + wan.reason());
        Path dir = ROOT.resolve("target/lifecycle-leftover");
        StackConfig config = LocalStack.builder().workDir(dir).wipe(true).addressPrefix(PREFIX).wan(WanMode.ON)
                .applySchema(false).config();
        List<String> regions = config.regionNames();
        String lastRegion = regions.get(regions.size() - 1);
        String node = config.nodeAddresses(regions.get(0)).get(0);
        List<List<String>> teardown = new ArrayList<>();
        // Bound before the leftovers route the region's addresses away: the start then stops at this
        // address, the last one it checks, after it has dealt with the leftovers.
        try (ServerSocket taken = new ServerSocket()) {
            taken.bind(new InetSocketAddress(config.kafkaAddress(lastRegion), StackConfig.CONTROLLER_PORT));
            for (int i = 0; i < regions.size(); i++) {
                teardown.addAll(leaveNamespace(WanEmulator.WanRegion.of(PREFIX, i + 1, regions.get(i)), i + 1));
            }
            assertThatThrownBy(() -> LocalStack.checkFree(node, StackConfig.STORAGE_PORT))
                    .hasMessageStartingWith("address " + node + " is not local here");
            List<String> namespaces = regions.stream()
                    .map(r -> WanEmulator.WanRegion.of(PREFIX, regions.indexOf(r) + 1, r).namespace()).toList();
            assertThat(netnsList()).containsAll(namespaces);

            assertThatThrownBy(LocalStack.builder().workDir(dir).wipe(true)
                            .addressPrefix(PREFIX).wan(WanMode.ON).applySchema(false).build()::start)
                    .isInstanceOf(StackException.class)
                    .hasMessage("address " + config.kafkaAddress(lastRegion) + ":" + StackConfig.CONTROLLER_PORT
                            + " is in use (another stack? pick another address prefix, e.g. --prefix 127.9)");

            assertThat(netnsList()).doesNotContainAnyElementsOf(namespaces);
            LocalStack.checkFree(node, StackConfig.STORAGE_PORT);
        } finally {
            teardown.forEach(LocalStackLifecycleIT::run);
        }
    }

    /**
     * What a stack killed with its WAN on can leave: region {@code index}'s namespace, with the
     * region's addresses, and the veth and local-table route that send them there from the root.
     * Returns the commands that remove it.
     */
    private static List<List<String>> leaveNamespace(WanEmulator.WanRegion region, int index) {
        String octet = PREFIX.split("\\.")[1];
        String host = "gb" + octet + "h" + index;
        String address = region.cidr().replace(".0/24", ".1/24");
        for (List<String> command : List.of(
                List.of("ip", "netns", "add", region.namespace()),
                List.of("ip", "-n", region.namespace(), "addr", "add", address, "dev", "lo"),
                List.of("ip", "link", "add", host, "type", "veth", "peer", "name", "gb" + octet + "n" + index,
                        "netns", region.namespace()),
                List.of("ip", "link", "set", host, "up"),
                List.of("ip", "route", "add", region.cidr(), "dev", host, "table", "local", "src", "127." + octet + ".0.1"))) {
            assertThat(run(command)).as("%s", command).isZero();
        }
        return List.of(List.of("ip", "link", "del", host), List.of("ip", "route", "del", region.cidr(), "table", "local"),
                List.of("ip", "netns", "del", region.namespace()));
    }

    private static int run(List<String> command) {
        try {
            Process p = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD)
                    .start();
            return p.waitFor();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    @Test
    void wan_on_without_root_rights_fails_with_one_line() throws Exception {
        boolean root = Files.readString(Path.of("/proc/self/status")).lines()
                .filter(l -> l.startsWith("Uid:")).anyMatch(l -> l.split("\\s+")[2].equals("0"));
        List<String> command = new ArrayList<>();
        if (root) {
            assumeTrue(Files.isExecutable(Path.of("/usr/bin/setpriv")),
                    "needs setpriv to drop root rights");
            command.addAll(List.of("/usr/bin/setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"));
        }
        // The jar is run from a copy any user may read: the checkout itself may sit in a private directory.
        Path readable = Files.createTempDirectory("geobroker-not-root");
        Path jar = readable.resolve("local-stack.jar");
        String output;
        Process p;
        try {
            Files.copy(ROOT.resolve("local-stack/target/local-stack.jar"), jar);
            Files.setPosixFilePermissions(readable, PosixFilePermissions.fromString("rwxr-xr-x"));
            Files.setPosixFilePermissions(jar, PosixFilePermissions.fromString("rw-r--r--"));
            command.addAll(List.of(Jdk17.find().toString(), "-Dgeobroker.root=" + ROOT, "-cp", jar.toString(),
                    LocalStackCli.class.getName(), "start", "--foreground", "--wan", "on", "--prefix", PREFIX,
                    "--dir", "/tmp/geobroker-not-root-stack"));
            p = new ProcessBuilder(command).redirectErrorStream(true).start();
            output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
            p.waitFor();
        } finally {
            Files.deleteIfExists(jar);
            Files.deleteIfExists(readable);
        }

        assertThat(p.exitValue()).isEqualTo(1);
        assertThat(output.lines().filter(l -> !l.startsWith("SLF4J"))).containsExactly(
                "local-stack: WAN requested (--wan on) but it cannot run: not running as root");
    }

    private static List<Long> alive(Collection<Long> pids) {
        return pids.stream().filter(pid -> ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false)).toList();
    }

    private static List<String> netnsList() throws IOException, InterruptedException {
        Process p = new ProcessBuilder("ip", "netns", "list").redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        p.waitFor();
        return out.lines().map(l -> l.split("\\s+")[0]).toList();
    }

    /** The shared test stack's prefix with 128 added to its second octet: never the same addresses. */
    static String lifecyclePrefix() {
        String shared = System.getenv("GEOBROKER_STACK_PREFIX");
        if (shared == null || shared.isBlank()) {
            shared = System.getProperty("geobroker.stack.prefix", LocalStack.DEFAULT_PREFIX);
        }
        int octet = Integer.parseInt(shared.trim().split("\\.")[1]);
        return "127." + ((octet + 128) % 256);
    }
}
