package io.geobroker.loadgen.demo;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A service JVM the demo started (a broker or the ticker service), with its log file. Stopped by
 * its own handle: SIGTERM, then a forced kill if it has not ended in time.
 */
final class ServiceProcess {

    private final String name;
    private final Process process;
    private final Path log;

    private ServiceProcess(String name, Process process, Path log) {
        this.name = name;
        this.process = process;
        this.log = log;
    }

    static ServiceProcess start(String name, ProcessBuilder builder, Path log) throws IOException {
        Files.createDirectories(log.getParent());
        builder.redirectErrorStream(true).redirectOutput(log.toFile());
        return new ServiceProcess(name, builder.start(), log);
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
