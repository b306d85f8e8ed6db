package io.geobroker.broker.config;

import io.geobroker.domain.Region;
import io.geobroker.domain.SymbolDirectory;
import io.geobroker.domain.Topics;
import io.geobroker.domain.Topology;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;

import java.time.Clock;
import java.util.Map;
import java.util.Properties;

/**
 * The deployment topology, read from the same {@code geobroker.topology.*} properties every module
 * uses (imported from {@code GEOBROKER_TOPOLOGY}), and the domain singletons built from it.
 */
@Configuration(proxyBeanMethods = false)
public class TopologyConfiguration {

    @Bean
    public Topology topology(Environment environment) {
        Map<String, String> values = Binder.get(environment)
                .bind("geobroker.topology", Bindable.mapOf(String.class, String.class))
                .orElseThrow(() -> new IllegalStateException(
                        "no topology: set GEOBROKER_TOPOLOGY to a topology.properties file or geobroker.topology.* properties"));
        Properties properties = new Properties();
        values.forEach((key, value) -> properties.setProperty(Topology.PREFIX + key, value));
        return Topology.fromProperties(properties, SymbolDirectory.standard());
    }

    @Bean
    public Topology.RegionEndpoints localRegion(Topology topology, BrokerProperties properties) {
        return topology.region(properties.region()).orElseThrow(() -> new IllegalStateException(
                "geobroker.region '" + properties.region() + "' is not in the topology " + topology.regions().stream()
                        .map(Topology.RegionEndpoints::name).toList()));
    }

    @Bean
    public Region region(Topology.RegionEndpoints localRegion) {
        return localRegion.region();
    }

    @Bean
    public SymbolDirectory symbolDirectory() {
        return SymbolDirectory.standard();
    }

    @Bean
    public Topics topics(BrokerProperties properties) {
        return new Topics(properties.kafka().topicPrefix());
    }

    /** Business time (placement, DAY expiry). Write timestamps use their own monotonic clock. */
    @Bean
    public Clock clock() {
        return Clock.systemUTC();
    }
}
