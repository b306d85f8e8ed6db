package io.geobroker.ticker.config;

import io.geobroker.domain.SymbolDirectory;
import io.geobroker.domain.Topology;
import io.geobroker.ticker.TickerApplication;
import org.junit.jupiter.api.Test;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.core.env.MapPropertySource;
import org.springframework.core.env.StandardEnvironment;

import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Bad settings stop the service before it publishes anything, with one message naming every problem. */
class StartupTest {

    @Test
    void an_unknown_exchange_and_a_negative_rate_stop_the_start() {
        SpringApplication app = new SpringApplication(TickerApplication.class);
        app.setWebApplicationType(WebApplicationType.NONE);
        Throwable failure = catchStart(app, "--geobroker.topology.regions=sydney",
                "--geobroker.topology.region.sydney.kafka=127.30.250.1:9092", "--exchanges=ASX,NYSE", "--rate=-3",
                "--GEOBROKER_TOPOLOGY=/nonexistent/topology.properties");
        InvalidConfigurationException cause = rootOfType(failure, InvalidConfigurationException.class);
        assertThat(cause.problems()).containsExactly(
                "unknown exchange 'NYSE': the topology's regions [sydney] run [ASX]",
                "rate must be zero or positive, was -3.0");

        FailureAnalysis analysis = new InvalidConfigurationFailureAnalyzer().analyze(failure);
        assertThat(analysis.getDescription()).isEqualTo("The ticker service cannot start:\n"
                + " - unknown exchange 'NYSE': the topology's regions [sydney] run [ASX]\n"
                + " - rate must be zero or positive, was -3.0");
    }

    @Test
    void a_missing_topology_stops_the_start() {
        SpringApplication app = new SpringApplication(TickerApplication.class);
        app.setWebApplicationType(WebApplicationType.NONE);
        Throwable failure = catchStart(app, "--GEOBROKER_TOPOLOGY=/nonexistent/topology.properties");
        assertThat(rootOfType(failure, InvalidConfigurationException.class).problems()).singleElement()
                .asString().startsWith("no usable topology").contains("GEOBROKER_TOPOLOGY");
    }

    @Test
    void reads_the_topology_from_nested_properties() {
        StandardEnvironment environment = new StandardEnvironment();
        environment.getPropertySources().addFirst(new MapPropertySource("test", Map.of(
                "geobroker.topology.regions", "sydney,nvirginia",
                "geobroker.topology.region.sydney.kafka", "127.30.1.100:9092",
                "geobroker.topology.region.nvirginia.kafka", "127.30.2.100:9092",
                "geobroker.topology.region.nvirginia.exchanges", "NYSE,NASDAQ")));
        Topology topology = new TickerConfiguration().topology(environment, SymbolDirectory.standard());
        assertThat(topology.homeOfExchange("NASDAQ").orElseThrow().kafkaBootstrap()).isEqualTo("127.30.2.100:9092");
        assertThat(topology.homeOfExchange("ASX").orElseThrow().kafkaBootstrap()).isEqualTo("127.30.1.100:9092");
    }

    private static Throwable catchStart(SpringApplication app, String... args) {
        Throwable[] caught = new Throwable[1];
        assertThatThrownBy(() -> {
            try {
                app.run(args).close();
            } catch (Throwable t) {
                caught[0] = t;
                throw t;
            }
        }).isNotNull();
        return caught[0];
    }

    private static <T extends Throwable> T rootOfType(Throwable failure, Class<T> type) {
        for (Throwable t = failure; t != null; t = t.getCause()) {
            if (type.isInstance(t)) {
                return type.cast(t);
            }
        }
        throw new AssertionError("no " + type.getSimpleName() + " in " + failure);
    }
}
