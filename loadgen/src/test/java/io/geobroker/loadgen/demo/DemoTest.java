package io.geobroker.loadgen.demo;

import io.geobroker.domain.SymbolDirectory;
import io.geobroker.domain.SymbolInfo;
import io.geobroker.domain.Topology;
import io.geobroker.loadgen.driver.Driver;
import io.geobroker.stack.WanMode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
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
    void groups_the_processes_it_started_by_kind_for_their_cpu() {
        assertThat(List.of("cassandra-sydney-1", "cassandra-nvirginia-2", "kafka-sydney", "wan-forwarder",
                "broker sydney", "broker nvirginia", "ticker service").stream().map(Demo::groupOf).distinct())
                .containsExactly("Cassandra", "Kafka", "WAN forwarder", "brokers", "ticker service");
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
    void the_ticker_services_runnable_jar_is_the_exec_one(@TempDir Path dir) throws Exception {
        Files.writeString(dir.resolve("ticker-service-0.1.0-SNAPSHOT.jar"), "");
        Path exec = Files.writeString(dir.resolve("ticker-service-0.1.0-SNAPSHOT-exec.jar"), "");

        assertThat(Demo.bootJar(dir, "ticker-service-", "-exec.jar")).isEqualTo(exec);
        assertThatThrownBy(() -> Demo.bootJar(dir.resolve("none"), "ticker-service-", "-exec.jar"))
                .hasMessageContaining("no ticker-service-*-exec.jar in");
    }

    @Test
    void ticker_command_starts_the_service_paused_with_the_runs_seed_and_symbols_on_its_own_address() {
        Demo.TickerService ticker = new Demo.TickerService(256, List.of("-XX:TieredStopAtLevel=1"), 7, 2, 3, 125);
        List<SymbolInfo> symbols = Driver.symbols(twoRegions().regions().stream().map(Topology.RegionEndpoints::region).toList(), 2);
        String expectedSymbols = String.join(",", symbols.stream().map(SymbolInfo::symbol).toList());

        assertThat(symbols).hasSize(6);
        assertThat(Demo.tickerAddress("127.40")).isEqualTo("127.40.0.200");
        assertThat(Demo.tickerCommand("java", ticker, Path.of("t.jar"), "127.40.0.200", 8081, symbols)).containsExactly(
                "java", "-Xms256m", "-Xmx256m", "-XX:+UseG1GC", "-XX:TieredStopAtLevel=1", "-jar", "t.jar",
                "--server.address=127.40.0.200", "--server.port=8081", "--rate=0", "--seed=7",
                "--symbols=" + expectedSymbols, "--geobroker.ticker.producer.linger-ms=3",
                "--geobroker.ticker.producer.linger-from=125");
        assertThat(expectedSymbols.split(",")).startsWith(
                SymbolDirectory.standard().symbolsOf("ASX").get(0).symbol(), SymbolDirectory.standard().symbolsOf("ASX").get(1).symbol(),
                SymbolDirectory.standard().symbolsOf("NYSE").get(0).symbol());
    }

    @Test
    void broker_command_puts_the_extra_jvm_options_before_the_jar() {
        Demo.Settings settings = new Demo.Settings(Path.of("."), Path.of(".demo"), "127.40", WanMode.OFF, 1, 256, List.of(), 384,
                List.of("-XX:TieredStopAtLevel=1", "-Xss512k"), false, Duration.ofSeconds(1), Optional.empty());

        assertThat(Demo.brokerCommand("java", settings, new ClassDataArchive.Launch(Path.of("b.jar"), List.of()),
                "127.40.1.200"))
                .containsExactly("java", "-Xms384m", "-Xmx384m", "-XX:+UseG1GC", "-Dspring.aot.enabled=true",
                        "-XX:TieredStopAtLevel=1", "-Xss512k",
                        "-Djava.rmi.server.hostname=127.40.1.200", "-jar", "b.jar");
        assertThat(Demo.brokerCommand("java", settings, ClassDataArchive.launch(Path.of("cds/app/b.jar"),
                Path.of("cds/classes.jsa")), "127.40.1.200"))
                .as("with a class-data archive: the extracted jar, the archive mapped")
                .endsWith("-XX:SharedArchiveFile=cds/classes.jsa", "-Xshare:auto", "-jar", "cds/app/b.jar");
    }
}
