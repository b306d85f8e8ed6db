package io.geobroker.loadgen.demo;

import io.geobroker.stack.PausePriority;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A service JVM the demo started (a broker or the ticker service), with its log file. Stopped by
 * its own handle: SIGTERM, then a forced kill if it has not ended in time. The chaos scenario kills
 * it with SIGKILL ({@link #kill}) and starts it again with the same command ({@link #restart}).
 */
final class ServiceProcess {

    private final String name;
    private final ProcessBuilder builder;
    private final Path log;
    private volatile Process process;

    private ServiceProcess(String name, ProcessBuilder builder, Process process, Path log) {
        this.name = name;
        this.builder = builder;
        this.process = process;
        this.log = log;
    }

    static ServiceProcess start(String name, ProcessBuilder builder, Path log) throws IOException {
        Files.createDirectories(log.getParent());
        builder.redirectErrorStream(true).redirectOutput(log.toFile());
        Process process = builder.start();
        PausePriority.watch(process.toHandle());
        return new ServiceProcess(name, builder, process, log);
    }

    /** SIGKILL, as a crash would, and waits until the process is gone. */
    void kill() throws InterruptedException {
        Process p = process;
        if (!p.destroyForcibly().waitFor(30, TimeUnit.SECONDS)) {
            throw new IllegalStateException(name + " (pid " + p.pid() + ") did not exit after SIGKILL");
        }
    }

    /** Starts the killed process again with its command, its log continued. */
    void restart() throws IOException {
        if (process.isAlive()) {
            throw new IllegalStateException(name + " is still running (pid " + process.pid() + ")");
        }
        builder.redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()));
        process = builder.start();
        PausePriority.watch(process.toHandle());
    }

    String name() {
        return name;
    }

    long pid() {
        return process.pid();
    }

    boolean alive() {
        return process.isAlive();
    }

    /** The last lines of the service's log, to explain a failed start. */
    String tail(int lines) {
        try {
            List<String> all = Files.readAllLines(log, StandardCharsets.UTF_8);
            return String.join(System.lineSeparator(), all.subList(Math.max(0, all.size() - lines), all.size()));
        } catch (IOException e) {
            return "(no log at " + log + ")";
        }
    }

    Path log() {
        return log;
    }

    void stop() {
        if (!process.isAlive()) {
            return;
        }
        process.destroy();
        try {
            if (!process.waitFor(20, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                process.waitFor(5, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
    }
}
