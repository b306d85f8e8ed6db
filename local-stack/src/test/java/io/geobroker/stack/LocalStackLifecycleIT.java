package io.geobroker.stack;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
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

            org.assertj.core.api.Assertions.assertThatThrownBy(stack::start)
                    .isInstanceOf(StackException.class)
                    .hasMessage("address " + address + ":9042 is in use (another stack? pick another address prefix, e.g. --prefix 127.9)");
        }
        assertThat(StackState.read(dir)).isEmpty();
    }

    @Test
    void wan_on_without_root_rights_fails_with_one_line() throws Exception {
        boolean root = Files.readString(Path.of("/proc/self/status")).lines()
                .filter(l -> l.startsWith("Uid:")).anyMatch(l -> l.split("\\s+")[2].equals("0"));
        List<String> command = new ArrayList<>();
        if (root) {
            org.junit.jupiter.api.Assumptions.assumeTrue(Files.isExecutable(Path.of("/usr/bin/setpriv")),
                    "needs setpriv to drop root rights");
            command.addAll(List.of("/usr/bin/setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"));
        }
        command.addAll(List.of(Jdk17.find().toString(), "-Dgeobroker.root=" + ROOT,
                "-cp", ROOT.resolve("local-stack/target/local-stack.jar").toString(), LocalStackCli.class.getName(),
                "start", "--foreground", "--wan", "on", "--prefix", PREFIX, "--dir", "/tmp/geobroker-not-root-stack"));
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
        p.waitFor();

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
