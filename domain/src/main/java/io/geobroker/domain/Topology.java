package io.geobroker.domain;

import java.io.IOException;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;

/**
 * The regions one deployment runs and how to reach each: the single place where regions, their
 * Cassandra DCs, exchanges, Kafka bootstrap servers, Cassandra contact points and broker URLs are
 * configured. Nothing assumes two regions.
 *
 * <p>Stored as properties under the prefix {@value #PREFIX}, so a Spring Boot service can import
 * the same file ({@code spring.config.import=file:topology.properties}):
 * <pre>
 * geobroker.topology.regions=sydney,nvirginia
 * geobroker.topology.region.sydney.dc=SydneyDC                       (default: the catalogue's)
 * geobroker.topology.region.sydney.exchanges=ASX                     (default: the catalogue's)
 * geobroker.topology.region.sydney.replication-factor=1
 * geobroker.topology.region.sydney.cassandra=127.0.1.1:9042,127.0.1.2:9042
 * geobroker.topology.region.sydney.kafka=127.0.1.100:9092
 * geobroker.topology.region.sydney.broker-url=http://127.0.1.200:8080
 * </pre>
 */
public final class Topology {

    public static final String PREFIX = "geobroker.topology.";

    /** How to reach one region of a deployment. Endpoints may be empty where not (yet) known. */
    public record RegionEndpoints(Region region, int replicationFactor, List<String> cassandraContactPoints,
                                  String kafkaBootstrap, String brokerUrl) {
        public RegionEndpoints {
            cassandraContactPoints = List.copyOf(cassandraContactPoints);
        }

        public String name() {
            return region.name();
        }

        public String dataCenter() {
            return region.dataCenter();
        }
    }

    private final Map<String, RegionEndpoints> regions;

    public Topology(List<RegionEndpoints> regions) {
        if (regions.isEmpty()) {
            throw new IllegalArgumentException("a topology needs at least one region");
        }
        Map<String, RegionEndpoints> byName = new LinkedHashMap<>();
        Map<String, String> exchangeOwner = new LinkedHashMap<>();
        for (RegionEndpoints r : regions) {
            if (byName.put(r.name(), r) != null) {
                throw new IllegalArgumentException("region " + r.name() + " is configured twice");
            }
            for (String exchange : r.region().exchanges()) {
                String previous = exchangeOwner.put(exchange, r.name());
                if (previous != null) {
                    throw new IllegalArgumentException("exchange " + exchange + " is owned by both "
                            + previous + " and " + r.name());
                }
            }
        }
        this.regions = byName;
    }

    public List<RegionEndpoints> regions() {
        return List.copyOf(regions.values());
    }

    public Optional<RegionEndpoints> region(String name) {
        return Optional.ofNullable(regions.get(name));
    }

    /** The region whose broker owns (matches and settles) the given exchange's symbols. */
    public Optional<RegionEndpoints> homeOfExchange(String exchange) {
        return regions.values().stream().filter(r -> r.region().owns(exchange)).findFirst();
    }

    /** Loads a topology file written by the local stack, Terraform or an operator. */
    public static Topology load(Path file) {
        Properties properties = new Properties();
        try (Reader reader = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            properties.load(reader);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read topology file " + file, e);
        }
        return fromProperties(properties, SymbolDirectory.standard());
    }

    public static Topology fromProperties(Properties p, SymbolDirectory directory) {
        String names = p.getProperty(PREFIX + "regions", "").trim();
        if (names.isEmpty()) {
            throw new IllegalArgumentException("no regions configured: set " + PREFIX + "regions");
        }
        List<RegionEndpoints> regions = new ArrayList<>();
        for (String name : names.split("\\s*,\\s*")) {
            String key = PREFIX + "region." + name + ".";
            Optional<Region> known = directory.region(name);
            String dc = p.getProperty(key + "dc", known.map(Region::dataCenter).orElse(null));
            String exchanges = p.getProperty(key + "exchanges",
                    known.map(r -> String.join(",", r.exchanges())).orElse(null));
            if (dc == null || exchanges == null) {
                throw new IllegalArgumentException("unknown region '" + name + "': set " + key + "dc and "
                        + key + "exchanges, or use one of " + directory.regions().stream().map(Region::name).toList());
            }
            List<String> exchangeList = Arrays.asList(exchanges.trim().split("\\s*[,;]\\s*"));
            for (String exchange : exchangeList) {
                if (directory.exchange(exchange).isEmpty()) {
                    throw new IllegalArgumentException("region " + name + " names unknown exchange " + exchange);
                }
            }
            Region region = new Region(name, dc, exchangeList,
                    p.getProperty(key + "cloud-region", known.map(Region::cloudRegion).orElse("")));
            String contactPoints = p.getProperty(key + "cassandra", "").trim();
            regions.add(new RegionEndpoints(region,
                    Integer.parseInt(p.getProperty(key + "replication-factor", "1").trim()),
                    contactPoints.isEmpty() ? List.of() : Arrays.asList(contactPoints.split("\\s*,\\s*")),
                    p.getProperty(key + "kafka", "").trim(),
                    p.getProperty(key + "broker-url", "").trim()));
        }
        return new Topology(regions);
    }

    public Properties toProperties() {
        Properties p = new Properties();
        p.setProperty(PREFIX + "regions", String.join(",", regions.keySet()));
        for (RegionEndpoints r : regions.values()) {
            String key = PREFIX + "region." + r.name() + ".";
            p.setProperty(key + "dc", r.dataCenter());
            p.setProperty(key + "exchanges", String.join(",", r.region().exchanges()));
            p.setProperty(key + "cloud-region", r.region().cloudRegion());
            p.setProperty(key + "replication-factor", Integer.toString(r.replicationFactor()));
            p.setProperty(key + "cassandra", String.join(",", r.cassandraContactPoints()));
            p.setProperty(key + "kafka", r.kafkaBootstrap());
            p.setProperty(key + "broker-url", r.brokerUrl());
        }
        return p;
    }

    public void write(Path file) {
        try (Writer writer = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
            toProperties().store(writer, "geobroker topology");
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write topology file " + file, e);
        }
    }
}
