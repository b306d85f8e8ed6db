package io.geobroker.stack;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/**
 * Starts a child process with a larger Linux timer slack than the default 50 µs.
 *
 * <p>The timer slack is how late the kernel may end a thread's timed sleep so it can serve several
 * timers with one wake-up (prctl(2), {@code PR_SET_TIMERSLACK}). A new thread inherits it from the
 * thread that creates it, and it is kept across {@code execve}, so a process started from a thread
 * whose slack was raised runs every one of its threads with that slack.
 *
 * <p>Why: Cassandra's shared executor pool keeps an idle worker polling for work with timed parks of
 * 10 µs to 1 ms. With the default slack each park ends after ~60 µs, thousands of wake-ups a second
 * per node; on the local stack's two cores that polling was half of Cassandra's CPU at a tenth of the
 * demo's load. With 500 µs the parks end less often; a request that arrives meanwhile waits at most
 * that long for the poller (or is served by a worker already awake). Wake-ups for arriving data
 * (sockets, a queue's signal) are not timed sleeps and are not delayed. Measured in docs/results.md.
 *
 * <p>Only the calling thread's own slack is changed, for the moment of the start, and restored after;
 * where {@code /proc/thread-self} is missing (not Linux) the process starts unchanged.
 */
public final class TimerSlack {

    /** The slack the local stack gives Cassandra nodes. */
    public static final long CASSANDRA_NANOS = 500_000;

    private TimerSlack() {
    }

    /** Starts {@code builder}'s process with {@code nanos} of timer slack (0 = the kernel's default). */
    public static Process start(ProcessBuilder builder, long nanos) throws IOException {
        Optional<Path> own = ownSlackFile();
        if (own.isEmpty()) {
            return builder.start();
        }
        Path file = own.get();
        String before = Files.readString(file, StandardCharsets.US_ASCII).trim();
        Files.writeString(file, Long.toString(nanos), StandardCharsets.US_ASCII);
        try {
            return builder.start();
        } finally {
            Files.writeString(file, before, StandardCharsets.US_ASCII);
        }
    }

    /** The calling thread's current timer slack in nanoseconds, if this system exposes it. */
    public static Optional<Long> current() {
        return ownSlackFile().map(file -> {
            try {
                return Long.parseLong(Files.readString(file, StandardCharsets.US_ASCII).trim());
            } catch (IOException | NumberFormatException e) {
                return null;
            }
        });
    }

    /**
     * {@code /proc/<tid>/timerslack_ns} of the calling thread. {@code /proc/thread-self} reads as
     * {@code <pid>/task/<tid>} for whichever thread reads it; a thread may always set its own slack.
     */
    private static Optional<Path> ownSlackFile() {
        try {
            Path link = Files.readSymbolicLink(Path.of("/proc/thread-self"));
            Path file = Path.of("/proc", link.getFileName().toString(), "timerslack_ns");
            return Files.isWritable(file) ? Optional.of(file) : Optional.empty();
        } catch (IOException | UnsupportedOperationException | SecurityException e) {
            return Optional.empty();
        }
    }
}
