package io.geobroker.stack;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.entry;

import io.geobroker.domain.SymbolDirectory;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.junit.jupiter.api.Test;

class StackConfigTest {

    @Test
    void an_unknown_region_is_refused_with_the_known_ones() {
        assertThatThrownBy(() -> LocalStack.builder().regions(List.of("sydney", "atlantis")).build())
                .isInstanceOf(StackException.class)
                .hasMessage("unknown region 'atlantis': known regions are sydney, nvirginia, frankfurt");
    }

    @Test
    void the_command_line_prints_one_line_for_an_unknown_region() {
        StringWriter err = new StringWriter();

        int exit = LocalStackCli.run(new PrintWriter(err, true), "start", "--foreground", "--regions", "sydney,atlantis",
                "--dir", Path.of("target", "unused-stack").toString());

        assertThat(exit).isEqualTo(1);
        assertThat(err.toString().strip().lines()).containsExactly(
                "local-stack: unknown region 'atlantis': known regions are sydney, nvirginia, frankfurt");
    }

    @Test
    void every_wan_forwarder_keeps_a_name_of_its_own_in_the_process_list_and_the_state_file() {
        Map<String, Long> names = LocalStack.forwarderNames(List.of(4101L, 4102L, 4103L));

        assertThat(names).containsExactly(entry("wan-forwarder", 4101L), entry("wan-forwarder-1", 4102L),
                entry("wan-forwarder-2", 4103L));
        Properties state = new Properties();
        names.forEach((name, pid) -> state.setProperty("pid." + name, Long.toString(pid)));
        assertThat(new StackState(state).pids()).isEqualTo(names);
    }

    @Test
    void refuses_bad_prefixes_and_sizes() {
        assertThatThrownBy(() -> LocalStack.builder().addressPrefix("10.0").build())
                .hasMessageContaining("address prefix must look like 127.<0-255>");
        assertThatThrownBy(() -> LocalStack.builder().nodesPerDc(0).build()).hasMessageContaining("between 1 and 9");
        assertThatThrownBy(() -> LocalStack.builder().regions(List.of("sydney", "sydney")).build())
                .hasMessageContaining("listed twice");
    }

    @Test
    void lays_out_addresses_per_region() {
        StackConfig config = LocalStack.builder().addressPrefix("127.7").nodesPerDc(3).config()
                .validate(SymbolDirectory.standard());

        assertThat(config.nodeAddresses("nvirginia")).containsExactly("127.7.2.1", "127.7.2.2", "127.7.2.3");
        assertThat(config.kafkaAddress("sydney")).isEqualTo("127.7.1.100");
        assertThat(config.serviceAddress("nvirginia", 3)).isEqualTo("127.7.2.203");
        assertThat(config.cidr("sydney")).isEqualTo("127.7.1.0/24");
        assertThat(config.replicationFactor()).isEqualTo(3);
    }

    @Test
    void extra_jvm_options_go_to_every_cassandra_and_kafka_command_after_the_stacks_own() {
        StackConfig config = LocalStack.builder().jvmOptions(List.of("-XX:TieredStopAtLevel=1", "-XX:+AlwaysPreTouch"))
                .config().validate(SymbolDirectory.standard());
        Path java = Path.of("/jdk/bin/java");
        List<Path> classPath = List.of(Path.of("/lib/jamm-0.4.0.jar"), Path.of("/lib/cassandra.jar"));
        CassandraNode node = new CassandraNode("cassandra-sydney-1", "sydney", "SydneyDC", "127.0.1.1", true,
                Path.of("/stack/cassandra-sydney-1"));
        KafkaBroker broker = new KafkaBroker("kafka-sydney", "sydney", "127.0.1.100", Path.of("/stack/kafka-sydney"));

        List<String> cassandra = node.command(java, classPath, Path.of("/watch"), 1, 256, config.jvmOptions());
        List<String> kafka = broker.serverCommand(java, classPath, Path.of("/watch"), 1, 256, config.jvmOptions());

        for (List<String> command : List.of(cassandra, kafka)) {
            int ownGc = command.indexOf("-XX:+UseG1GC");
            int extra = command.indexOf("-XX:TieredStopAtLevel=1");
            assertThat(ownGc).isNotNegative();
            assertThat(extra).isGreaterThan(ownGc);
            assertThat(command.get(extra + 1)).isEqualTo("-XX:+AlwaysPreTouch");
            assertThat(extra).isLessThan(command.indexOf("-cp"));
        }
        // each names its own address as its JMX host: reachable from the root namespace when the WAN puts it in another
        assertThat(cassandra).contains("-Djava.rmi.server.hostname=127.0.1.1");
        assertThat(kafka).contains("-Djava.rmi.server.hostname=127.0.1.100");
        assertThat(config.toArguments()).contains("--jvm-option=-XX:TieredStopAtLevel=1", "--jvm-option=-XX:+AlwaysPreTouch");
        assertThat(LocalStack.builder().config().toArguments()).noneMatch(a -> a.startsWith("--jvm-option"));
    }

    @Test
    void a_synced_commit_log_reaches_the_owner_process() {
        assertThat(LocalStack.builder().syncedCommitLog(true).config().toArguments()).contains("--synced-commit-log");
        assertThat(LocalStack.builder().config().toArguments()).doesNotContain("--synced-commit-log");
    }

    @Test
    void a_jvm_option_must_be_one_word_starting_with_a_dash() {
        assertThatThrownBy(() -> LocalStack.builder().jvmOptions(List.of("XX:TieredStopAtLevel=1")).build())
                .isInstanceOf(StackException.class)
                .hasMessage("a JVM option is one word starting with '-', not 'XX:TieredStopAtLevel=1'");
        assertThatThrownBy(() -> LocalStack.builder().jvmOptions(List.of("-Xmx1g -Xms1g")).build())
                .hasMessageContaining("one word");
    }
}
