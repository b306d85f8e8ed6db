package io.geobroker.loadgen;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The project's command line ({@code ./geobroker} at the root) builds the jars it runs when they are
 * missing or older than the sources. Run from a copy of the script beside a stand-in {@code mvnw}
 * that takes three seconds to "build" (it writes the jars the script looks for, as empty files) and
 * records each build and whether another was under way.
 */
class GeobrokerScriptTest {

    private static final String STAND_IN_MAVEN = """
            #!/usr/bin/env bash
            cd "$(dirname "$0")"
            mkdir building 2>/dev/null || touch overlapped
            echo build >> builds
            sleep 3
            mkdir -p loadgen/target broker-service/target ticker-service/target \\
              local-stack/runtime-cassandra/target local-stack/runtime-kafka/target
            touch loadgen/target/loadgen-0.jar broker-service/target/broker-service-0.jar \\
              ticker-service/target/ticker-service-0-exec.jar \\
              local-stack/runtime-cassandra/target/classpath.txt local-stack/runtime-kafka/target/classpath.txt
            rmdir building 2>/dev/null
            exit 0
            """;

    @Test
    void a_command_started_while_another_builds_waits_for_that_build_instead_of_building_too(@TempDir Path root)
            throws Exception {
        Path script = scriptBesideStandInMaven(root);

        Process first = start(script, root.resolve("first.err"));
        await().atMost(Duration.ofSeconds(30)).until(() -> Files.isDirectory(root.resolve("building")));
        Process second = start(script, root.resolve("second.err"));

        assertThat(first.waitFor(60, TimeUnit.SECONDS)).as("first command ended").isTrue();
        assertThat(second.waitFor(60, TimeUnit.SECONDS)).as("second command ended").isTrue();
        assertThat(Files.readAllLines(root.resolve("builds"))).as("builds run").hasSize(1);
        assertThat(root.resolve("overlapped")).as("a build started while another ran").doesNotExist();
        assertThat(Files.readString(root.resolve("first.err"))).contains("geobroker: building");
        assertThat(Files.readString(root.resolve("second.err"))).doesNotContain("geobroker: building");
    }

    @Test
    void nothing_is_built_when_the_jars_are_newer_than_the_sources(@TempDir Path root) throws Exception {
        Path script = scriptBesideStandInMaven(root);

        assertThat(start(script, root.resolve("first.err")).waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(start(script, root.resolve("second.err")).waitFor(60, TimeUnit.SECONDS)).isTrue();

        assertThat(Files.readAllLines(root.resolve("builds"))).hasSize(1);
        assertThat(Files.readString(root.resolve("second.err"))).doesNotContain("geobroker: building");
    }

    /** A copy of the project's script in {@code root}, with the stand-in {@code mvnw} beside it. */
    private static Path scriptBesideStandInMaven(Path root) throws Exception {
        Path script = root.resolve("geobroker");
        Files.copy(Path.of("..", "geobroker"), script);
        Files.writeString(root.resolve("mvnw"), STAND_IN_MAVEN, StandardCharsets.UTF_8);
        for (Path p : List.of(script, root.resolve("mvnw"))) {
            Files.setPosixFilePermissions(p, PosixFilePermissions.fromString("rwxr-xr-x"));
        }
        return script;
    }

    /** The script with {@code --version}: the stand-in jars are empty, so the JVM it ends in exits at once. */
    private static Process start(Path script, Path stderr) throws Exception {
        return new ProcessBuilder(script.toString(), "--version")
                .directory(script.getParent().toFile())
                .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                .redirectError(stderr.toFile())
                .start();
    }
}
