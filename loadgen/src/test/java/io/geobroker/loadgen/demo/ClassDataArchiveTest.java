package io.geobroker.loadgen.demo;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class ClassDataArchiveTest {

    @TempDir
    Path dir;

    @Test
    void one_archive_per_jar_build_and_jdk_beside_the_jar() throws IOException {
        Path jar = Files.writeString(dir.resolve("broker-service-0.1.0.jar"), "first build");
        Files.setLastModifiedTime(jar, FileTime.fromMillis(1_000_000));
        Path first = ClassDataArchive.directory(jar, "17.0.15+6");

        assertThat(first.getParent()).isEqualTo(dir.toAbsolutePath().resolve("cds"));
        assertThat(first.getFileName().toString()).startsWith("broker-service-0.1.0-").contains("jdk17.0.15_6");
        assertThat(ClassDataArchive.directory(jar, "17.0.15+6")).isEqualTo(first);
        assertThat(ClassDataArchive.directory(jar, "17.0.16+8")).as("another JDK").isNotEqualTo(first);
        Files.writeString(jar, "a rebuilt jar");
        assertThat(ClassDataArchive.directory(jar, "17.0.15+6")).as("another build").isNotEqualTo(first);
    }

    @Test
    void a_jar_that_cannot_be_extracted_starts_as_it_is() throws IOException {
        Path jar = Files.writeString(dir.resolve("broker.jar"), "not a Spring Boot jar");
        ByteArrayOutputStream out = new ByteArrayOutputStream();

        ClassDataArchive.Launch launch = ClassDataArchive.prepare("/bin/false", jar, List.of("-Xmx64m"), pb -> pb,
                Duration.ofSeconds(10), new PrintStream(out, true, StandardCharsets.UTF_8));

        assertThat(launch.jar()).isEqualTo(jar);
        assertThat(launch.jvmOptions()).isEmpty();
        assertThat(out.toString(StandardCharsets.UTF_8)).contains("No class-data archive for broker.jar");
    }
}
