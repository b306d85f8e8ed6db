package io.geobroker.loadgen.demo;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.UnaryOperator;

/**
 * Class-data sharing for a Spring Boot jar's JVMs: the classes a started application loads, parsed
 * and verified once into an archive that every later start maps instead of loading them one by
 * one from nested jars. A broker SIGKILLed by the chaos scenario is back sooner, and every demo
 * starts its brokers sooner.
 *
 * <p>The archive needs the classes on a plain class path, so the jar is first extracted
 * ({@code -Djarmode=tools extract}: the application jar with a {@code lib/} directory beside it).
 * One training start then records what it loaded ({@code -XX:ArchiveClassesAtExit}) while its
 * application context is refreshed and left at once ({@code spring.context.exit=onRefresh}):
 * every bean created, so Cassandra and Kafka must be reachable, but nothing started — no port
 * bound, no consumer, no engine. Both are kept next to the jar, under {@code cds/}, keyed by the
 * jar's size and time and the JDK's version, so a build trains once. Anything that fails leaves
 * the jar as it is, started without an archive: slower, not wrong.
 */
final class ClassDataArchive {

    /** How to start the jar's JVMs: the jar to run and the options that map the archive. */
    record Launch(Path jar, List<String> jvmOptions) {
        Launch {
            jvmOptions = List.copyOf(jvmOptions);
        }
    }

    private static final Duration EXTRACT_TIMEOUT = Duration.ofSeconds(60);
    private static final String ARCHIVE = "classes.jsa";

    private ClassDataArchive() {
    }

    /**
     * The launch of {@code bootJar} with its archive, extracting and training first if this jar has
     * none yet, or the jar as it is if either fails.
     *
     * @param training the training start's command is {@code java}, the given JVM options, the archive
     *                 options and {@code -jar}; this sets up the rest (environment, directory, network
     *                 namespace) as for a real start
     */
    static Launch prepare(String java, Path bootJar, List<String> jvmOptions, UnaryOperator<ProcessBuilder> training,
                          Duration trainingTimeout, PrintStream out) {
        Path dir = directory(bootJar, Runtime.version().toString());
        Path jar = dir.resolve("app").resolve(bootJar.getFileName());
        Path archive = dir.resolve(ARCHIVE);
        try {
            if (Files.isRegularFile(archive) && Files.isRegularFile(jar)) {
                return launch(jar, archive);
            }
            Files.createDirectories(dir);
            if (!Files.isRegularFile(jar)) {
                extract(java, bootJar, dir);
            }
            long started = System.nanoTime();
            Path partial = dir.resolve(ARCHIVE + "." + ProcessHandle.current().pid() + ".tmp");
            List<String> command = new ArrayList<>(List.of(java));
            command.addAll(jvmOptions);
            command.addAll(List.of("-XX:ArchiveClassesAtExit=" + partial, "-Dspring.context.exit=onRefresh",
                    "-jar", jar.toString()));
            ProcessBuilder pb = training.apply(new ProcessBuilder(command));
            pb.redirectErrorStream(true).redirectOutput(dir.resolve("training.log").toFile());
            if (run(pb, trainingTimeout) != 0 || !Files.isRegularFile(partial)) {
                Files.deleteIfExists(partial);
                out.println("No class-data archive for " + bootJar.getFileName() + " (its training start failed: "
                        + dir.resolve("training.log") + "); its JVMs start without one");
                return new Launch(bootJar, List.of());
            }
            moveInPlace(partial, archive);
            out.printf("Class-data archive of %s made in %.1f s (%d MB): %s%n", bootJar.getFileName(),
                    (System.nanoTime() - started) / 1e9, Files.size(archive) >> 20, archive);
            return launch(jar, archive);
        } catch (IOException e) {
            out.println("No class-data archive for " + bootJar.getFileName() + " (" + e.getMessage()
                    + "); its JVMs start without one");
            return new Launch(bootJar, List.of());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return new Launch(bootJar, List.of());
        }
    }

    /** Where the extracted jar and its archive live: beside the jar, one directory per jar build and JDK. */
    static Path directory(Path bootJar, String jdkVersion) {
        try {
            String name = bootJar.getFileName().toString().replaceFirst("\\.jar$", "");
            String key = name + "-" + Files.size(bootJar) + "-" + Files.getLastModifiedTime(bootJar).toMillis() + "-jdk"
                    + jdkVersion.replaceAll("[^0-9A-Za-z.]", "_");
            return bootJar.toAbsolutePath().getParent().resolve("cds").resolve(key);
        } catch (IOException e) {
            throw new IllegalStateException("cannot read " + bootJar, e);
        }
    }

    /** The options of a start that maps the archive ({@code -Xshare:auto}: without it, if it does not fit, rather than failing). */
    static Launch launch(Path jar, Path archive) {
        return new Launch(jar, List.of("-XX:SharedArchiveFile=" + archive, "-Xshare:auto"));
    }

    private static void extract(String java, Path bootJar, Path dir) throws IOException, InterruptedException {
        Path partial = dir.resolve("app." + ProcessHandle.current().pid() + ".tmp");
        Demo.deleteTree(partial);
        ProcessBuilder pb = new ProcessBuilder(java, "-Djarmode=tools", "-jar", bootJar.toString(), "extract",
                "--destination", partial.toString());
        pb.redirectErrorStream(true).redirectOutput(dir.resolve("extract.log").toFile());
        if (run(pb, EXTRACT_TIMEOUT) != 0) {
            Demo.deleteTree(partial);
            throw new IOException("extracting the jar failed: " + dir.resolve("extract.log"));
        }
        try {
            Files.move(partial, dir.resolve("app"), StandardCopyOption.ATOMIC_MOVE);
        } catch (FileAlreadyExistsException | java.nio.file.DirectoryNotEmptyException e) {
            Demo.deleteTree(partial); // another demo extracted it meanwhile
        }
    }

    private static int run(ProcessBuilder pb, Duration timeout) throws IOException, InterruptedException {
        Process process = pb.start();
        if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
            process.destroyForcibly();
            process.waitFor(10, TimeUnit.SECONDS);
            return -1;
        }
        return process.exitValue();
    }

    private static void moveInPlace(Path from, Path to) throws IOException {
        try {
            Files.move(from, to, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } catch (AtomicMoveNotSupportedException e) {
            Files.move(from, to, StandardCopyOption.REPLACE_EXISTING);
        }
    }
}
