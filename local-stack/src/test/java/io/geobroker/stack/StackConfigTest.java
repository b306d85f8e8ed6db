package io.geobroker.stack;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.geobroker.domain.SymbolDirectory;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.List;
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
}
