package io.geobroker.loadgen.driver;

import io.geobroker.domain.Region;
import io.geobroker.domain.Topics;
import io.geobroker.domain.Topology;

import java.util.List;
import java.util.Optional;

/**
 * The deployment a run drives: per region, its broker URL and Kafka bootstrap servers; the admin
 * token for creating customers; the topic names. Built from a topology file (the local stack's, or
 * an operator's) with optional per-region overrides.
 */
public record Target(List<RegionTarget> regions, String adminToken, Topics topics, String description) {

    /** One region to drive. */
    public record RegionTarget(Region region, String brokerUrl, String kafkaBootstrap) {
        public String name() {
            return region.name();
        }
    }

    public Target {
        regions = List.copyOf(regions);
        if (regions.isEmpty()) {
            throw new IllegalArgumentException("the target has no regions");
        }
        if (adminToken == null || adminToken.isBlank()) {
            throw new IllegalArgumentException("no admin token: pass --admin-token-file or set GEOBROKER_ADMIN_TOKEN");
        }
        for (RegionTarget r : regions) {
            if (r.brokerUrl() == null || r.brokerUrl().isBlank()) {
                throw new IllegalArgumentException("region " + r.name() + " has no broker URL (set broker-url in the topology or --broker "
                        + r.name() + "=http://host:port)");
            }
            if (r.kafkaBootstrap() == null || r.kafkaBootstrap().isBlank()) {
                throw new IllegalArgumentException("region " + r.name() + " has no Kafka bootstrap servers (set kafka in the topology or --kafka "
                        + r.name() + "=host:port)");
            }
        }
    }

    public static Target of(Topology topology, java.util.Map<String, String> brokerOverrides,
                            java.util.Map<String, String> kafkaOverrides, String adminToken, Topics topics, String description) {
        for (String name : brokerOverrides.keySet()) {
            if (topology.region(name).isEmpty()) {
                throw new IllegalArgumentException("--broker names unknown region " + name);
            }
        }
        for (String name : kafkaOverrides.keySet()) {
            if (topology.region(name).isEmpty()) {
                throw new IllegalArgumentException("--kafka names unknown region " + name);
            }
        }
        List<RegionTarget> regions = topology.regions().stream().map(r -> new RegionTarget(r.region(),
                brokerOverrides.getOrDefault(r.name(), r.brokerUrl()),
                kafkaOverrides.getOrDefault(r.name(), r.kafkaBootstrap()))).toList();
        return new Target(regions, adminToken, topics, description);
    }

    /** The region whose broker owns the exchange. */
    public Optional<RegionTarget> homeOf(String exchange) {
        return regions.stream().filter(r -> r.region().owns(exchange)).findFirst();
    }

    @Override
    public String toString() {
        return description;
    }
}
