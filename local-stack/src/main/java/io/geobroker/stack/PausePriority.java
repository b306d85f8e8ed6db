package io.geobroker.stack;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalInt;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * Runs the threads that hold a JVM stopped, its collector's workers and its VM thread, at nice
 * {@value #NICE}, ahead of the other threads of the machine.
 *
 * <p>While a JVM collects its young generation or runs another safepoint operation, its own threads
 * wait; only the VM thread (which starts and runs the operation) and the collector's workers work.
 * With eight JVMs on two cores those threads are runnable beside ~30 others (load average ~30 at
 * the demo's default load), and the nice -4 that {@link Jdk17#THREAD_PRIORITIES} gives them weighs
 * what 2.4 threads at nice 0 weigh in the kernel's fair share, so a stop that needs a few ms of CPU
 * could last far longer on the clock. At -15 such a thread weighs what 28 threads at 0 do: it runs
 * almost as soon as it is runnable, and since it only runs while its JVM stands still, it takes
 * nothing from the others but the stop's own CPU time. HotSpot's flags cannot ask for it
 * ({@code JavaPriorityN_To_OSPriority} accepts nothing below -1), so the process that starts the
 * JVM sets it with {@code renice}, per thread, as root only (a negative nice needs CAP_SYS_NICE).
 * Measured in docs/results.md.
 *
 * <p>The threads are looked for in the process and its descendants (a child in a region's network
 * namespace runs under a wrapper) a few times in the first minute, since HotSpot may start a
 * collector worker only when it first needs it, then every minute while the process lives.
 */
public final class PausePriority {

    /** The nice value of the threads that run a JVM's stops. */
    static final int NICE = -15;

    /** The waits before each look after the start; after the last, {@link #LOOK_EVERY}. */
    private static final List<Duration> FIRST_LOOKS = List.of(Duration.ofSeconds(1), Duration.ofSeconds(3),
            Duration.ofSeconds(10), Duration.ofSeconds(30));
    private static final Duration LOOK_EVERY = Duration.ofMinutes(1);

    private static final ScheduledExecutorService LOOKS = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "geobroker-pause-priority");
        t.setDaemon(true);
        return t;
    });

    private PausePriority() {
    }

    /**
     * Raises the stop threads of {@code process} and its descendants on the schedule above, for as
     * long as it lives; does nothing unless this process runs as root.
     */
    public static void watch(ProcessHandle process) {
        if (Jdk17.runsAsRoot()) {
            lookAfter(process, 0);
        }
    }

    private static void lookAfter(ProcessHandle process, int looks) {
        Duration wait = looks < FIRST_LOOKS.size() ? FIRST_LOOKS.get(looks) : LOOK_EVERY;
        LOOKS.schedule(() -> {
            if (!process.isAlive()) {
                return;
            }
            try {
                raise(process);
            } catch (IOException | RuntimeException e) {
                // the process ended meanwhile, or there is no renice: the JVM keeps its own priorities
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
            lookAfter(process, looks + 1);
        }, wait.toMillis(), TimeUnit.MILLISECONDS);
    }

    /**
     * Sets {@link #NICE} on each stop thread of {@code process} and its descendants that runs at a
     * higher nice value; returns the ids of the threads it changed.
     */
    static List<Long> raise(ProcessHandle process) throws IOException, InterruptedException {
        List<Long> tids = new ArrayList<>();
        for (ProcessHandle p : Stream.concat(Stream.of(process), process.descendants()).toList()) {
            tids.addAll(stopThreadsAbove(Path.of("/proc", Long.toString(p.pid()), "task"), NICE));
        }
        if (tids.isEmpty()) {
            return tids;
        }
        List<String> command = new ArrayList<>(List.of("renice", "-n", Integer.toString(NICE), "-p"));
        tids.forEach(t -> command.add(Long.toString(t)));
        Process renice = new ProcessBuilder(command).redirectErrorStream(true).start();
        String out = new String(renice.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (renice.waitFor() != 0) {
            throw new IOException("renice failed: " + out.trim());
        }
        return tids;
    }

    /** The ids of the stop threads in {@code taskDir} ({@code /proc/<pid>/task}) whose nice value is above {@code nice}. */
    static List<Long> stopThreadsAbove(Path taskDir, int nice) throws IOException {
        List<Long> tids = new ArrayList<>();
        try (DirectoryStream<Path> tasks = Files.newDirectoryStream(taskDir)) {
            for (Path task : tasks) {
                try {
                    String name = Files.readString(task.resolve("comm"), StandardCharsets.UTF_8).trim();
                    if (!isStopThread(name)) {
                        continue;
                    }
                    OptionalInt current = nice(Files.readString(task.resolve("stat"), StandardCharsets.UTF_8));
                    if (current.isPresent() && current.getAsInt() > nice) {
                        tids.add(Long.parseLong(task.getFileName().toString()));
                    }
                } catch (NoSuchFileException e) {
                    // the thread ended meanwhile
                }
            }
        } catch (NoSuchFileException e) {
            // the process ended meanwhile
        }
        return tids;
    }

    /**
     * Whether a thread of this name runs a HotSpot stop: the collectors' parallel workers
     * ({@code GC Thread#n}) and the VM thread. G1's concurrent threads ({@code G1 Conc#n},
     * {@code G1 Refine#n}) run beside the application and keep their priority.
     */
    static boolean isStopThread(String name) {
        return name.startsWith("GC Thread#") || name.equals("VM Thread");
    }

    /** The nice value of a {@code /proc/<pid>/task/<tid>/stat} line: its 19th field (the name before it may hold spaces). */
    static OptionalInt nice(String stat) {
        int end = stat.lastIndexOf(')');
        if (end < 0) {
            return OptionalInt.empty();
        }
        String[] fields = stat.substring(end + 1).trim().split(" ");
        if (fields.length < 17) {
            return OptionalInt.empty();
        }
        try {
            return OptionalInt.of(Integer.parseInt(fields[16]));
        } catch (NumberFormatException e) {
            return OptionalInt.empty();
        }
    }
}
