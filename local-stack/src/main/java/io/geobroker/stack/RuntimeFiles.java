package io.geobroker.stack;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/**
 * Where the child JVMs' class paths are: the build writes them to
 * {@code local-stack/runtime-cassandra/target/classpath.txt} and {@code runtime-kafka/...}. The
 * module directory is found from the system property {@code geobroker.root} (the repository root),
 * else from where this class was loaded ({@code local-stack/target/classes} or a jar in
 * {@code local-stack/target}), else from the working directory.
 */
final class RuntimeFiles {

    private final Path moduleDir;

    private RuntimeFiles(Path moduleDir) {
        this.moduleDir = moduleDir;
    }

    static RuntimeFiles locate() {
        String root = System.getProperty("geobroker.root");
        if (root != null && !root.isBlank() && isModule(Path.of(root, "local-stack"))) {
            return new RuntimeFiles(Path.of(root, "local-stack").toAbsolutePath().normalize());
        }
        Optional<Path> fromCode = codeLocation().map(p -> p.getParent()).map(p -> p.getParent());
        if (fromCode.isPresent() && isModule(fromCode.get())) {
            return new RuntimeFiles(fromCode.get());
        }
        for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
            if (isModule(dir.resolve("local-stack"))) {
                return new RuntimeFiles(dir.resolve("local-stack"));
            }
        }
        throw new StackException("cannot find the local-stack module (set -Dgeobroker.root=<repository root>)");
    }

    private static boolean isModule(Path dir) {
        return Files.isRegularFile(dir.resolve("runtime-cassandra").resolve("pom.xml"));
    }

    /** target/classes or the jar this class was loaded from. */
    private static Optional<Path> codeLocation() {
        try {
            var source = RuntimeFiles.class.getProtectionDomain().getCodeSource();
            return source == null ? Optional.empty() : Optional.of(Path.of(source.getLocation().toURI()));
        } catch (URISyntaxException | SecurityException e) {
            return Optional.empty();
        }
    }

    Path moduleDir() {
        return moduleDir;
    }

    List<Path> cassandraClassPath() {
        return classPath("cassandra");
    }

    List<Path> kafkaClassPath() {
        return classPath("kafka");
    }

    /** The self-contained command-line jar, if built. */
    Optional<Path> cliJar() {
        Path jar = moduleDir.resolve("target").resolve("local-stack.jar");
        return Files.isRegularFile(jar) ? Optional.of(jar) : Optional.empty();
    }

    private List<Path> classPath(String runtime) {
        Path file = moduleDir.resolve("runtime-" + runtime).resolve("target").resolve("classpath.txt");
        if (!Files.isRegularFile(file)) {
            throw new StackException("the " + runtime + " class path is not built (" + file
                    + " is missing): run ./mvnw -pl local-stack -am package -DskipTests");
        }
        try {
            List<Path> jars = Arrays.stream(Files.readString(file, StandardCharsets.UTF_8).trim().split(File.pathSeparator))
                    .map(Path::of).toList();
            for (Path jar : jars) {
                if (!Files.isRegularFile(jar)) {
                    throw new StackException(jar + " of the " + runtime + " class path is missing: run ./mvnw -pl local-stack -am package -DskipTests");
                }
            }
            return jars;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * Copies {@link ParentWatch} into {@code dir} (as {@code io/geobroker/stack/ParentWatch.class})
     * and returns the class path entry for it: children get this one class, not the launcher's
     * class path with its own (conflicting) libraries.
     */
    static Path installParentWatch(Path dir) {
        Path target = dir.resolve("io/geobroker/stack/ParentWatch.class");
        try (InputStream in = ParentWatch.class.getResourceAsStream("ParentWatch.class")) {
            Files.createDirectories(target.getParent());
            Files.write(target, in.readAllBytes());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot install the parent watch in " + dir, e);
        }
        return dir;
    }
}
