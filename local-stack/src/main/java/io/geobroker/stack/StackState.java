package io.geobroker.stack;

import java.io.IOException;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;

/**
 * The state file {@code <workDir>/stack.state}: which process owns the stack, its control socket,
 * the pid of every child process, whether it is ready, and the WAN status. Written atomically.
 */
record StackState(Properties properties) {

    static final String FILE = "stack.state";

    static Path file(Path workDir) {
        return workDir.resolve(FILE);
    }

    static Optional<StackState> read(Path workDir) {
        Path file = file(workDir);
        if (!Files.isRegularFile(file)) {
            return Optional.empty();
        }
        Properties p = new Properties();
        try (Reader reader = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            p.load(reader);
        } catch (IOException e) {
            return Optional.empty();
        }
        return Optional.of(new StackState(p));
    }

    void write(Path workDir) {
        Path file = file(workDir);
        Path tmp = workDir.resolve(FILE + ".tmp");
        try (Writer writer = Files.newBufferedWriter(tmp, StandardCharsets.UTF_8)) {
            properties.store(writer, "geobroker local stack");
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + file, e);
        }
        try {
            Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + file, e);
        }
    }

    long ownerPid() {
        return Long.parseLong(properties.getProperty("owner.pid", "-1"));
    }

    boolean ownerAlive() {
        return ProcessHandle.of(ownerPid()).map(ProcessHandle::isAlive).orElse(false);
    }

    boolean ready() {
        return Boolean.parseBoolean(properties.getProperty("ready", "false"));
    }

    Optional<String> failure() {
        return Optional.ofNullable(properties.getProperty("failure"));
    }

    Path controlSocket() {
        return Path.of(properties.getProperty("control"));
    }

    String wanStatus() {
        return properties.getProperty("wan.status", "WAN off: unknown");
    }

    /** Child process name to pid. */
    Map<String, Long> pids() {
        Map<String, Long> pids = new LinkedHashMap<>();
        properties.stringPropertyNames().stream().filter(k -> k.startsWith("pid.")).sorted()
                .forEach(k -> pids.put(k.substring(4), Long.parseLong(properties.getProperty(k))));
        return pids;
    }

    /** Network namespace per region (only while the WAN is on). */
    Map<String, String> namespaces() {
        Map<String, String> namespaces = new LinkedHashMap<>();
        properties.stringPropertyNames().stream().filter(k -> k.startsWith("netns.")).sorted()
                .forEach(k -> namespaces.put(k.substring(6), properties.getProperty(k)));
        return namespaces;
    }

    String get(String key, String fallback) {
        return properties.getProperty(key, fallback);
    }
}
