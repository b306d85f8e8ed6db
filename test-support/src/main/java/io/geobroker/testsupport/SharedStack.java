package io.geobroker.testsupport;

import io.geobroker.stack.LocalStack;
import io.geobroker.stack.WanMode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Locale;
import java.util.Optional;

/**
 * The one local stack of a build, in {@code ${geobroker.root}/target/it-stack}: reused while it
 * is healthy, otherwise started in its own owner process that watches the Maven JVM, so it serves
 * every module's integration tests and ends with the build.
 *
 * <p>Settings: work directory from system property {@code geobroker.stack.dir} (e.g. a stack
 * started by hand with {@code local-stack start}, reused as is); address prefix from env {@code GEOBROKER_STACK_PREFIX} or system property
 * {@code geobroker.stack.prefix} (default 127.0); WAN from {@code geobroker.stack.wan}
 * (auto|on|off, default auto); Cassandra's heap from {@code geobroker.stack.cassandra-heap-mb}
 * (default 512); the watched process from {@code geobroker.stack.watch-pid}
 * (default: the Maven JVM that forked this test JVM).
 */
final class SharedStack {

    /**
     * Every test class gets its own keyspace (about fifteen tables each), and a Cassandra node keeps
     * memtables and metadata per table: the keyspaces of a whole build ran a 256 MB heap out of
     * memory, so the build's shared stack gets twice that.
     */
    static final int TEST_CASSANDRA_HEAP_MB = 512;

    private static LocalStack stack;

    private SharedStack() {
    }

    static synchronized LocalStack get() {
        if (stack != null && LocalStack.isRunning(stack.workDir())) {
            return stack;
        }
        String configuredDir = System.getProperty("geobroker.stack.dir");
        Path workDir = configuredDir == null || configuredDir.isBlank()
                ? root().resolve("target").resolve("it-stack")
                : Path.of(configuredDir).toAbsolutePath().normalize();
        String prefix = prefix();
        try {
            Files.createDirectories(workDir.getParent());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        try (FileChannel channel = FileChannel.open(workDir.resolveSibling("it-stack.lock"),
                StandardOpenOption.CREATE, StandardOpenOption.WRITE);
             FileLock ignored = channel.lock()) {
            if (LocalStack.isRunning(workDir)) {
                LocalStack running = LocalStack.attach(workDir);
                if (running.addressPrefix().equals(prefix)) {
                    stack = running;
                    return stack;
                }
                running.close();
            }
            long t0 = System.nanoTime();
            stack = LocalStack.builder()
                    .workDir(workDir)
                    .wipe(true)
                    .addressPrefix(prefix)
                    .wan(WanMode.valueOf(System.getProperty("geobroker.stack.wan", "auto").toUpperCase(Locale.ROOT)))
                    .applySchema(false)
                    // tests SIGKILL Cassandra nodes and expect every acknowledged write after the restart
                    .syncedCommitLog(true)
                    .cassandraHeapMb(Integer.getInteger("geobroker.stack.cassandra-heap-mb", TEST_CASSANDRA_HEAP_MB))
                    .watchParentPid(buildPid())
                    .spawn();
            System.out.printf("local stack for integration tests ready in %.1f s in %s%n%s",
                    (System.nanoTime() - t0) / 1e9, workDir, stack.describe());
            return stack;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot lock " + workDir, e);
        }
    }

    static String prefix() {
        String env = System.getenv("GEOBROKER_STACK_PREFIX");
        if (env != null && !env.isBlank()) {
            return env.trim();
        }
        return System.getProperty("geobroker.stack.prefix", LocalStack.DEFAULT_PREFIX);
    }

    static Path root() {
        String root = System.getProperty("geobroker.root");
        if (root != null && !root.isBlank()) {
            return Path.of(root).toAbsolutePath().normalize();
        }
        for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
            if (Files.isDirectory(dir.resolve("local-stack")) && Files.isRegularFile(dir.resolve("pom.xml"))) {
                return dir;
            }
        }
        throw new IllegalStateException("cannot find the repository root: set -Dgeobroker.root");
    }

    /**
     * The build's JVM: the parent of this test JVM, skipping a shell that the test JVM may have
     * been started through (the stack must outlive this JVM, not the build).
     */
    static long buildPid() {
        String configured = System.getProperty("geobroker.stack.watch-pid");
        if (configured != null && !configured.isBlank()) {
            return Long.parseLong(configured.trim());
        }
        Optional<ProcessHandle> parent = ProcessHandle.current().parent();
        while (parent.isPresent() && isShell(parent.get())) {
            parent = parent.get().parent();
        }
        return parent.map(ProcessHandle::pid).orElse(ProcessHandle.current().pid());
    }

    private static boolean isShell(ProcessHandle p) {
        String command = p.info().command().orElse("");
        return command.endsWith("/sh") || command.endsWith("/bash") || command.endsWith("/dash");
    }
}
