package io.geobroker.loadgen.demo;

import io.geobroker.loadgen.driver.ProcessCpu;
import io.geobroker.stack.Jdk17;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * The FIX floor ({@code io.geobroker.broker.fix.FixFloor} in the broker's jar) as a process of its
 * own, started as the demo starts a broker: the same heap, collector and JVM options, on a free port
 * of {@value #ADDRESS}. Its sessions' file store is under the work directory, emptied at each start.
 * Stopped by its own handle.
 */
public final class FixFloorProcess implements AutoCloseable {

    static final String ADDRESS = "127.0.0.1";
    private static final String LAUNCHER = "org.springframework.boot.loader.launch.PropertiesLauncher";
    private static final String MAIN = "io.geobroker.broker.fix.FixFloor";
    /** The first words the floor prints once it accepts (FixFloor.LISTENING). */
    private static final String LISTENING = "FIX floor listening on";

    private final ServiceProcess process;
    private final int port;

    private FixFloorProcess(ServiceProcess process, int port) {
        this.process = process;
        this.port = port;
    }

    /**
     * Starts the floor from the broker's jar under {@code root} with {@code heapMb} of heap and
     * {@code jvmOptions} (the demo's brokers' JIT and processor options), its store and log under
     * {@code workDir}; returns once it listens, or fails with its log's last lines after {@code timeout}.
     */
    public static FixFloorProcess start(Path root, Path workDir, int heapMb, List<String> jvmOptions, Duration timeout)
            throws IOException, InterruptedException {
        Path jar = Demo.bootJar(root.resolve("broker-service").resolve("target"), "broker-service-");
        Path dir = workDir.resolve("fix-floor");
        Demo.deleteTree(dir.resolve("store"));
        Files.createDirectories(dir);
        int port = freePort();
        ServiceProcess process = ServiceProcess.start("FIX floor",
                new ProcessBuilder(command(Demo.javaBinary(), jar, heapMb, jvmOptions, port, dir.resolve("store"))),
                dir.resolve("fix-floor.log"));
        FixFloorProcess floor = new FixFloorProcess(process, port);
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!floor.listening()) {
            if (!process.alive() || System.nanoTime() > deadline) {
                floor.close();
                throw new IllegalStateException("the FIX floor did not start within " + timeout.toSeconds() + " s; its log "
                        + process.log() + " ends with:" + System.lineSeparator() + process.tail(20));
            }
            Thread.sleep(100);
        }
        return floor;
    }

    /** The floor's command line: the broker's heap, collector and options, then its jar's launcher and main. */
    static List<String> command(String java, Path jar, int heapMb, List<String> jvmOptions, int port, Path store) {
        List<String> command = new ArrayList<>(List.of(java, "-Xms" + heapMb + "m", "-Xmx" + heapMb + "m", Jdk17.GC));
        command.addAll(jvmOptions);
        command.addAll(List.of("-Dloader.main=" + MAIN, "-cp", jar.toString(), LAUNCHER, ADDRESS, String.valueOf(port),
                store.toString()));
        return command;
    }

    private boolean listening() {
        try {
            return Files.isRegularFile(process.log())
                    && Files.readString(process.log(), StandardCharsets.UTF_8).contains(LISTENING);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public String host() {
        return ADDRESS;
    }

    public int port() {
        return port;
    }

    /** The floor's process, for the CPU line of each round. */
    public ProcessCpu.Group cpuGroup() {
        return new ProcessCpu.Group("FIX floor", List.of(process.pid()));
    }

    @Override
    public void close() {
        process.stop();
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }
}
