package io.geobroker.stack;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Finds the JDK 17 the child JVMs run on. Cassandra 5.0 supports Java 11 and 17 only and fails on
 * newer JDKs, so the JVM running the launcher (which may be newer) is not used blindly.
 */
public final class Jdk17 {

    /**
     * The collector of every JVM the local stack and the demo start (Cassandra, Kafka, the brokers,
     * the ticker service): G1. The serial collector used 5 % fewer cores at a quarter of the demo's
     * load, but at the default load, with eight JVMs on two cores, its single-threaded young
     * collections paused each JVM for 80-200 ms and ticker-to-fill p99 doubled (docs/results.md).
     */
    public static final String GC = "-XX:+UseG1GC";

    /**
     * G1's pause-time goal for every JVM of the local system the demo and {@code up} start: 20 ms
     * instead of G1's default 200 ms (the {@code geobroker} script gives the load generator's own JVM
     * the same). At the demo's default load each JVM collected its young generation every 10-30 s in
     * pauses of 45-130 ms; the JVMs on a ticker's path (the ticker service, its region's Kafka, broker
     * and Cassandra node) stood paused ~1.3 % of the time, so about one ticker in a hundred waited out
     * a whole pause and the pauses set ticker-to-fill p99. With this goal G1 keeps the young generation
     * small enough for pauses of 12-44 ms, three to four times as many; the total time paused and the
     * cores stay about the same, and p99 was lower in each of six interleaved pairs (docs/results.md).
     */
    public static final String PAUSE_GOAL = "-XX:MaxGCPauseMillis=20";

    /**
     * HotSpot's option that gives Java thread priorities to the OS (on Linux as nice values): each
     * JVM's collector, VM and compiler threads then run at nice -4, Cassandra's compaction threads
     * (minimum priority) at +4 and the broker's engine thread (maximum) at -5, where by default
     * every thread of every JVM is at 0. With eight JVMs on two cores, a young collection's workers
     * and the engine's one thread otherwise wait their turn behind dozens of runnable request
     * threads (docs/results.md). Only root may raise a priority; elsewhere the JVM would only warn.
     */
    static final String THREAD_PRIORITIES = "-XX:ThreadPriorityPolicy=1";

    /**
     * The JVMs of the local system on one machine: a Cassandra node and a Kafka broker per region, a
     * broker per region, the ticker service and the load generator.
     */
    static final int LOCAL_JVMS = 8;

    /** Sizes a JVM as if it had one core of its own ({@link #processorShare}). */
    static final String ONE_PROCESSOR = "-XX:ActiveProcessorCount=1";

    /**
     * {@link #ONE_PROCESSOR} where the machine has fewer cores than the local system has JVMs, else
     * nothing. A JVM sizes itself by the cores it sees: its collector's threads, Netty's event loops
     * (the Cassandra driver's, Cassandra's own), Cassandra's and the JDK's pools, and whether
     * java.util.concurrent spins before it parks (it does not on one core). Eight JVMs that each size
     * themselves for the whole of two cores run more threads and more spins than the cores serve. As
     * one-core JVMs, in three interleaved pairs at a quarter of the demo's load the machine used
     * 1.57-1.71 cores instead of 1.72-1.79 and ticker-to-fill p50 was 12-20 ms instead of 18-27; no
     * difference at a tenth (docs/results.md). Options given after it (the demo's
     * {@code --stack-jvm-option} and the like) override it.
     */
    public static List<String> processorShare() {
        return processorShare(Runtime.getRuntime().availableProcessors());
    }

    static List<String> processorShare(int cores) {
        return cores < LOCAL_JVMS ? List.of(ONE_PROCESSOR) : List.of();
    }

    /**
     * Compiles with C1 only. With C2 as well (tiered, HotSpot's default) a JVM spends seconds of CPU
     * on its second compiler while it starts and while a load first runs; eight JVMs on two cores
     * spend minutes (docs/results.md). The demo's {@code --jit} chooses it for the JVMs it starts.
     */
    public static final String C1_ONLY = "-XX:TieredStopAtLevel=1";

    /**
     * C1 and C2 (tiered, HotSpot's default), given explicitly because the local stack's Cassandra and
     * Kafka JVMs otherwise start with {@link #C1_ONLY} ({@link #stackDefaults}).
     */
    public static final String TIERED = "-XX:TieredStopAtLevel=4";

    /**
     * The options of every JVM of the local system the demo and {@code up} start (Cassandra, Kafka,
     * the brokers, the ticker service), before any the user adds: the JIT ({@link #C1_ONLY}, or
     * {@link #TIERED}), the {@link #PAUSE_GOAL}, the {@link #threadPriorities} and the
     * {@link #processorShare}.
     */
    public static List<String> localSystemOptions(boolean c1Only) {
        List<String> options = new ArrayList<>();
        options.add(c1Only ? C1_ONLY : TIERED);
        options.add(PAUSE_GOAL);
        options.addAll(threadPriorities());
        options.addAll(processorShare());
        return List.copyOf(options);
    }

    /**
     * The options every Cassandra node and Kafka broker of the local stack starts with, before the
     * ones its caller gives (a later option wins): {@link #C1_ONLY} and the {@link #processorShare}.
     * With both, a three-region stack (three Cassandra nodes joining one after the other, three Kafka
     * brokers) was ready in 61-65 s instead of 93-97 s on a 2-core machine (70.7 s with C1 only,
     * 87.9 s with the processor share only); the test suite starts a dozen such stacks and restarts
     * nodes in them.
     */
    public static List<String> stackDefaults() {
        List<String> options = new ArrayList<>();
        options.add(C1_ONLY);
        options.addAll(processorShare());
        return List.copyOf(options);
    }

    /**
     * A stack JVM's options: {@link #stackDefaults} and then the caller's, each once, where it last
     * appears (HotSpot takes the last of two values of an option, so the caller's win).
     */
    static List<String> stackOptions(List<String> callerOptions) {
        List<String> all = Stream.concat(stackDefaults().stream(), callerOptions.stream()).toList();
        List<String> options = new ArrayList<>();
        for (int i = 0; i < all.size(); i++) {
            if (all.lastIndexOf(all.get(i)) == i) {
                options.add(all.get(i));
            }
        }
        return List.copyOf(options);
    }

    /** {@link #THREAD_PRIORITIES} when this process runs as root (the JVMs it starts do too), else nothing. */
    public static List<String> threadPriorities() {
        return runsAsRoot() ? List.of(THREAD_PRIORITIES) : List.of();
    }

    static boolean runsAsRoot() {
        try {
            return Integer.valueOf(0).equals(Files.getAttribute(Path.of("/proc/self"), "unix:uid"));
        } catch (IOException | UnsupportedOperationException | IllegalArgumentException e) {
            return false;
        }
    }

    /**
     * The option that makes a JVM's JMX agent (the local one the JDK's attach API starts, as the load
     * generator's resources series does) name {@code address} as its host rather than 127.0.0.1:
     * with the emulated WAN the JVM runs in its region's network namespace, whose 127.0.0.1 is not
     * the root namespace's, while its own address is reached from there.
     */
    public static String rmiHostname(String address) {
        return "-Djava.rmi.server.hostname=" + address;
    }

    private static final Pattern VERSION = Pattern.compile("^JAVA_VERSION=\"([^\"]*)\"", Pattern.MULTILINE);
    static final Path JVM_DIRECTORY = Path.of("/usr/lib/jvm");

    private Jdk17() {
    }

    /** The {@code java} executable of a JDK 17: {@code JAVA_HOME} if it is one, else {@code /usr/lib/jvm/*17*}. */
    public static Path find() {
        return find(Optional.ofNullable(System.getenv("JAVA_HOME")).filter(s -> !s.isBlank()).map(Path::of),
                JVM_DIRECTORY);
    }

    static Path find(Optional<Path> javaHome, Path jvmDirectory) {
        List<String> tried = new ArrayList<>();
        if (javaHome.isPresent()) {
            Optional<String> version = version(javaHome.get());
            if (version.filter(Jdk17::is17).isPresent() && Files.isExecutable(java(javaHome.get()))) {
                return java(javaHome.get());
            }
            tried.add("JAVA_HOME=" + javaHome.get() + " is " + version.map(v -> "Java " + v).orElse("not a JDK"));
        }
        List<Path> candidates = new ArrayList<>();
        if (Files.isDirectory(jvmDirectory)) {
            try (DirectoryStream<Path> dirs = Files.newDirectoryStream(jvmDirectory, "*17*")) {
                dirs.forEach(candidates::add);
            } catch (IOException e) {
                tried.add("cannot list " + jvmDirectory + ": " + e.getMessage());
            }
        }
        candidates.sort(null);
        for (Path candidate : candidates) {
            Path real = candidate.toAbsolutePath();
            if (Files.isExecutable(java(real)) && version(real).map(Jdk17::is17).orElse(true)) {
                return java(real);
            }
        }
        tried.add("nothing usable matches " + jvmDirectory + "/*17*");
        throw new StackException("no JDK 17 found: " + String.join("; ", tried)
                + " (install openjdk-17-jdk-headless or set JAVA_HOME to a JDK 17)");
    }

    private static boolean is17(String version) {
        return version.equals("17") || version.startsWith("17.");
    }

    private static Path java(Path home) {
        return home.resolve("bin").resolve("java");
    }

    /** The version in the JDK's {@code release} file. */
    private static Optional<String> version(Path home) {
        Path release = home.resolve("release");
        if (!Files.isRegularFile(release)) {
            return Optional.empty();
        }
        try {
            Matcher m = VERSION.matcher(Files.readString(release, StandardCharsets.UTF_8));
            return m.find() ? Optional.of(m.group(1)) : Optional.empty();
        } catch (IOException e) {
            return Optional.empty();
        }
    }
}
