package io.geobroker.loadgen.demo;

import io.geobroker.domain.SymbolDirectory;
import io.geobroker.domain.Topology;
import io.geobroker.stack.WanMode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Properties;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class DemoTest {

    private static Topology twoRegions() {
        Properties p = new Properties();
        p.setProperty("geobroker.topology.regions", "sydney,nvirginia");
        p.setProperty("geobroker.topology.region.sydney.cassandra", "127.40.1.1:9042");
        p.setProperty("geobroker.topology.region.sydney.kafka", "127.40.1.100:9092");
        p.setProperty("geobroker.topology.region.sydney.broker-url", "http://127.40.1.200:8080");
        p.setProperty("geobroker.topology.region.nvirginia.cassandra", "127.40.2.1:9042");
        p.setProperty("geobroker.topology.region.nvirginia.kafka", "127.40.2.100:9092");
        p.setProperty("geobroker.topology.region.nvirginia.broker-url", "http://127.40.2.200:8080");
        return Topology.fromProperties(p, SymbolDirectory.standard());
    }

    @Test
    void remote_dc_gives_each_broker_the_next_regions_dc() {
        assertThat(Demo.remoteDcRegion(twoRegions(), "sydney", true)).contains("nvirginia");
        assertThat(Demo.remoteDcRegion(twoRegions(), "nvirginia", true)).contains("sydney");
    }

    @Test
    void the_default_scenario_uses_each_brokers_own_dc() {
        assertThat(Demo.remoteDcRegion(twoRegions(), "sydney", false)).isEmpty();
    }

    @Test
    void finds_the_newest_boot_jar_and_explains_a_missing_one(@TempDir Path dir) throws Exception {
        Files.writeString(dir.resolve("broker-service-0.1.0-SNAPSHOT-plain.jar"), "");
        Path jar = Files.writeString(dir.resolve("broker-service-0.1.0-SNAPSHOT.jar"), "");

        assertThat(Demo.bootJar(dir, "broker-service-")).isEqualTo(jar);
        assertThatThrownBy(() -> Demo.bootJar(dir.resolve("none"), "broker-service-"))
                .hasMessageContaining("./geobroker does for you");
    }

    @Test
    void broker_command_puts_the_extra_jvm_options_before_the_jar() {
        Demo.Settings settings = new Demo.Settings(Path.of("."), Path.of(".demo"), "127.40", WanMode.OFF, 1, 384,
                List.of("-XX:TieredStopAtLevel=1", "-Xss512k"), false, Duration.ofSeconds(1));

        assertThat(Demo.brokerCommand("java", settings, Path.of("b.jar")))
                .containsExactly("java", "-Xms384m", "-Xmx384m", "-XX:+UseG1GC", "-XX:TieredStopAtLevel=1", "-Xss512k", "-jar", "b.jar");
    }
}
