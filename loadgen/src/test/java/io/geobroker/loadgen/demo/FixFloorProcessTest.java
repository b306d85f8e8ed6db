package io.geobroker.loadgen.demo;

import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class FixFloorProcessTest {

    @Test
    void starts_the_floor_from_the_brokers_jar_with_the_brokers_heap_collector_and_options() {
        List<String> command = FixFloorProcess.command("/jdk/bin/java", Path.of("/repo/broker.jar"), 512,
                List.of("-XX:TieredStopAtLevel=1", "-XX:ActiveProcessorCount=1"), 40123, Path.of("/work/fix-floor/store"));

        assertThat(command).containsExactly("/jdk/bin/java", "-Xms512m", "-Xmx512m", "-XX:+UseG1GC",
                "-XX:TieredStopAtLevel=1", "-XX:ActiveProcessorCount=1",
                "-Dloader.main=io.geobroker.broker.fix.FixFloor", "-cp", "/repo/broker.jar",
                "org.springframework.boot.loader.launch.PropertiesLauncher", "127.0.0.1", "40123", "/work/fix-floor/store");
    }
}
