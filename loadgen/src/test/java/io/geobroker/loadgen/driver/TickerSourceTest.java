package io.geobroker.loadgen.driver;

import io.geobroker.loadgen.WorkloadOptions;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class TickerSourceTest {

    @picocli.CommandLine.Command(name = "t")
    static final class Options {
        @CommandLine.Mixin
        WorkloadOptions workload;
    }

    private static WorkloadOptions parse(String... args) {
        Options options = new Options();
        new CommandLine(options).parseArgs(args);
        return options.workload;
    }

    @Test
    void the_ticker_service_publishes_unless_the_load_generator_is_asked_to() {
        assertThat(parse().tickers()).isEqualTo(TickerSource.SERVICE);
        assertThat(parse("--tickers=loadgen").tickers()).isEqualTo(TickerSource.LOADGEN);
        assertThat(parse("--tickers", "Service").tickers()).isEqualTo(TickerSource.SERVICE);
    }

    @Test
    void anything_else_is_refused_with_the_choices() {
        assertThatThrownBy(() -> parse("--tickers=both")).isInstanceOf(CommandLine.ParameterException.class)
                .hasMessageContaining("'both' is not a ticker source: service or loadgen");
    }

    @Test
    void the_rate_request_is_the_total_rate_in_the_services_json() {
        assertThat(TickerRateClient.body(187.5)).isEqualTo("{\"tickersPerSecond\": 187.500}");
    }
}
