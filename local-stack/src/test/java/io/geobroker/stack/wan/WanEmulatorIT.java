package io.geobroker.stack.wan;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assumptions.assumeThat;

import io.geobroker.stack.wan.WanEmulator.WanCheck;
import io.geobroker.stack.wan.WanEmulator.WanRegion;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The WAN on its own, without Cassandra or Kafka: two regions of the stack's address prefix
 * ({@code GEOBROKER_STACK_PREFIX}, default {@code 127.60}) at region indexes 201 and 202, so a stack
 * of the same prefix (regions 1, 2, ...) can run at the same time.
 */
class WanEmulatorIT {

    private static final String PREFIX = Objects.requireNonNullElse(System.getenv("GEOBROKER_STACK_PREFIX"), "127.60");
    private static final int PORT = 7070;
    private static final Duration ONE_WAY = Duration.ofMillis(115);
    private static final long PHYSICS_FLOOR_MICROS = 200_000;
    private static final int CONNECT_TIMEOUT_MILLIS = 2000;

    private final List<Process> probes = new ArrayList<>();

    @AfterEach
    void stopProbes() {
        probes.forEach(Process::destroyForcibly);
    }

    @Test
    void delays_traffic_between_regions_but_not_to_the_root_and_can_cut_the_link() throws Exception {
        WanCheck check = WanEmulator.check();
        assumeThat(check.available()).as(check.reason()).isTrue();
        WanRegion west = WanRegion.of(PREFIX, 201, "wanit-west");
        WanRegion east = WanRegion.of(PREFIX, 202, "wanit-east");
        List<WanRegion> regions = List.of(west, east);
        Path workDir = Path.of("target", "wan-it");
        String westAddress = PREFIX + ".201.1";
        String eastAddress = PREFIX + ".202.1";

        WanEmulator wan = WanEmulator.start(regions, ONE_WAY, workDir);
        long forwarderPid = wan.pids().get(0);
        try {
            startProbe(wan, west.name(), westAddress);
            startProbe(wan, east.name(), eastAddress);

            long inRegion = echoRoundTripMicros(westAddress);
            long across = probe(westAddress, eastAddress);
            System.out.printf("WAN %s: root->west echo %d us, west->east echo %d us%n", PREFIX, inRegion, across);
            assertThat(inRegion).isLessThan(PHYSICS_FLOOR_MICROS);
            assertThat(across).isGreaterThanOrEqualTo(PHYSICS_FLOOR_MICROS);
            assertThat(echoRoundTripMicros(eastAddress)).as("root->east").isLessThan(PHYSICS_FLOOR_MICROS);

            assertThatThrownBy(() -> WanEmulator.start(regions, ONE_WAY, Path.of("target", "wan-it-other")))
                    .hasMessageContaining("in use by a running stack");

            Map<String, Long> carried = WanEmulator.carried(workDir);
            assertThat(carried.get("wanit-west->wanit-east")).as("the probe's packets west to east").isPositive();
            assertThat(carried.get("wanit-east->wanit-west")).as("and its answers").isPositive();

            wan.cut(west.name(), east.name());
            long carriedWhenCut = WanEmulator.carried(workDir).get("wanit-west->wanit-east");
            assertThat(ask(westAddress, probeCommand(eastAddress))).startsWith("fail");
            assertThat(WanEmulator.carried(workDir).get("wanit-west->wanit-east"))
                    .as("what a cut link drops is not carried").isEqualTo(carriedWhenCut);
            assertThat(WanEmulator.status(workDir)).contains("wanit-west-wanit-east=cut");
            assertThat(echoRoundTripMicros(westAddress)).as("root->west while cut").isLessThan(PHYSICS_FLOOR_MICROS);

            wan.restore(east.name(), west.name());
            assertThat(probe(westAddress, eastAddress)).isGreaterThanOrEqualTo(PHYSICS_FLOOR_MICROS);
        } finally {
            stopProbes();
            wan.close();
        }

        assertThat(ProcessHandle.of(forwarderPid).map(ProcessHandle::isAlive).orElse(false))
                .as("forwarder alive after close").isFalse();
        String namespaces = Command.require(List.of("ip", "netns", "list"));
        assertThat(namespaces).doesNotContain(west.namespace()).doesNotContain(east.namespace());
        assertThat(Command.run(List.of("ip", "link", "show", "gb" + PREFIX.split("\\.")[1] + "h201")).ok())
                .as("root veth left").isFalse();
        assertThat(Command.require(List.of("ip", "route", "show", "table", "local")))
                .doesNotContain(PREFIX + ".201.0/24").doesNotContain(PREFIX + ".202.0/24");
    }

    private void startProbe(WanEmulator wan, String region, String address) throws IOException, URISyntaxException {
        String classes = Path.of(WanProbe.class.getProtectionDomain().getCodeSource().getLocation().toURI()).toString();
        ProcessBuilder pb = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx16m", "-XX:TieredStopAtLevel=1", "-cp", classes, WanProbe.class.getName(), address,
                Integer.toString(PORT));
        pb.redirectError(ProcessBuilder.Redirect.INHERIT);
        Process p = wan.wrap(region, pb).start();
        probes.add(p);
        String first = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8)).readLine();
        assertThat(first).as("probe in " + region).isEqualTo("LISTENING");
    }

    private static String probeCommand(String target) {
        return "probe " + target + " " + PORT + " " + CONNECT_TIMEOUT_MILLIS;
    }

    /** Round trip from the {@code from} probe to the {@code to} probe, measured inside {@code from}. */
    private static long probe(String from, String to) throws IOException {
        String reply = ask(from, probeCommand(to));
        assertThat(reply).startsWith("ok ");
        return Long.parseLong(reply.substring(3));
    }

    private static long echoRoundTripMicros(String address) throws IOException {
        try (Socket s = new Socket()) {
            s.connect(new InetSocketAddress(address, PORT), CONNECT_TIMEOUT_MILLIS);
            s.setTcpNoDelay(true);
            s.setSoTimeout(CONNECT_TIMEOUT_MILLIS);
            var in = new BufferedReader(new InputStreamReader(s.getInputStream(), StandardCharsets.UTF_8));
            long start = System.nanoTime();
            new PrintWriter(s.getOutputStream(), true, StandardCharsets.UTF_8).println("echo");
            assertThat(in.readLine()).isEqualTo("echo");
            return (System.nanoTime() - start) / 1000;
        }
    }

    private static String ask(String address, String command) throws IOException {
        try (Socket s = new Socket()) {
            s.connect(new InetSocketAddress(address, PORT), CONNECT_TIMEOUT_MILLIS);
            s.setSoTimeout(4 * CONNECT_TIMEOUT_MILLIS);
            var in = new BufferedReader(new InputStreamReader(s.getInputStream(), StandardCharsets.UTF_8));
            new PrintWriter(s.getOutputStream(), true, StandardCharsets.UTF_8).println(command);
            return in.readLine();
        }
    }
}
