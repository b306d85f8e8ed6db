package io.geobroker.stack;

import io.geobroker.domain.Region;
import io.geobroker.domain.SymbolDirectory;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.OptionalLong;
import java.util.Properties;
import java.util.regex.Pattern;

/**
 * Everything a local stack is started with, and the address plan derived from it: region
 * {@code i} (1-based, in the configured order) lives on {@code <prefix>.<i>.x} — Cassandra node
 * {@code n} on {@code .n}, Kafka on {@code .100} (9092 broker, 9093 controller), services from
 * {@code .200}.
 */
record StackConfig(Path workDir, boolean wipe, List<String> regionNames, int nodesPerDc, String addressPrefix,
                   WanMode wan, Duration oneWayDelay, int cassandraHeapMb, int kafkaHeapMb, List<String> jvmOptions,
                   String keyspace, boolean applySchema, OptionalLong watchParentPid, Duration startTimeout,
                   boolean syncedCommitLog) {

    static final int STORAGE_PORT = 7000;
    static final int CQL_PORT = 9042;
    static final int KAFKA_PORT = 9092;
    static final int CONTROLLER_PORT = 9093;
    static final int KAFKA_HOST = 100;
    static final int FIRST_SERVICE_HOST = 200;
    private static final Pattern PREFIX = Pattern.compile("127\\.(\\d{1,3})");
    private static final Pattern KEYSPACE = Pattern.compile("[A-Za-z][A-Za-z0-9_]{0,47}");

    StackConfig {
        regionNames = List.copyOf(regionNames);
        jvmOptions = List.copyOf(jvmOptions);
        workDir = workDir.toAbsolutePath().normalize();
    }

    /**
     * Checks the settings without touching the machine; the first problem found is thrown as one
     * message a user can act on.
     */
    StackConfig validate(SymbolDirectory directory) {
        if (regionNames.isEmpty()) {
            throw new StackException("no regions given");
        }
        if (regionNames.size() > 99) {
            throw new StackException("at most 99 regions fit the address plan, not " + regionNames.size());
        }
        if (new HashSet<>(regionNames).size() != regionNames.size()) {
            throw new StackException("a region is listed twice: " + String.join(",", regionNames));
        }
        for (String name : regionNames) {
            if (directory.region(name).isEmpty()) {
                throw new StackException("unknown region '" + name + "': known regions are "
                        + String.join(", ", directory.regions().stream().map(Region::name).toList()));
            }
        }
        if (nodesPerDc < 1 || nodesPerDc > 9) {
            throw new StackException("nodes per DC must be between 1 and 9, not " + nodesPerDc);
        }
        var m = PREFIX.matcher(addressPrefix);
        if (!m.matches() || Integer.parseInt(m.group(1)) > 255) {
            throw new StackException("address prefix must look like 127.<0-255> (e.g. 127.0), not '" + addressPrefix + "'");
        }
        if (oneWayDelay.isNegative() || oneWayDelay.compareTo(Duration.ofSeconds(5)) > 0) {
            throw new StackException("one-way delay must be between 0 and 5000 ms, not " + oneWayDelay.toMillis() + " ms");
        }
        if (cassandraHeapMb < 128) {
            throw new StackException("Cassandra heap must be at least 128 MB, not " + cassandraHeapMb);
        }
        if (kafkaHeapMb < 128) {
            throw new StackException("Kafka heap must be at least 128 MB, not " + kafkaHeapMb);
        }
        if (!KEYSPACE.matcher(keyspace).matches()) {
            throw new StackException("invalid keyspace name '" + keyspace + "'");
        }
        for (String option : jvmOptions) {
            if (!option.startsWith("-") || option.isBlank() || option.chars().anyMatch(Character::isWhitespace)) {
                throw new StackException("a JVM option is one word starting with '-', not '" + option + "'");
            }
        }
        return this;
    }

    List<Region> regions(SymbolDirectory directory) {
        return regionNames.stream().map(name -> directory.region(name).orElseThrow()).toList();
    }

    /** 1-based position of a region in the address plan. */
    int index(String region) {
        int i = regionNames.indexOf(region);
        if (i < 0) {
            throw new IllegalArgumentException("region '" + region + "' is not part of this stack (it has "
                    + String.join(", ", regionNames) + ")");
        }
        return i + 1;
    }

    String nodeAddress(String region, int node) {
        return addressPrefix + "." + index(region) + "." + node;
    }

    List<String> nodeAddresses(String region) {
        List<String> addresses = new ArrayList<>();
        for (int n = 1; n <= nodesPerDc; n++) {
            addresses.add(nodeAddress(region, n));
        }
        return addresses;
    }

    String kafkaAddress(String region) {
        return addressPrefix + "." + index(region) + "." + KAFKA_HOST;
    }

    String serviceAddress(String region, int n) {
        if (n < 0 || n > 54) {
            throw new IllegalArgumentException("service number must be between 0 and 54, not " + n);
        }
        return addressPrefix + "." + index(region) + "." + (FIRST_SERVICE_HOST + n);
    }

    String cidr(String region) {
        return addressPrefix + "." + index(region) + ".0/24";
    }

    int replicationFactor() {
        return Math.min(3, nodesPerDc);
    }

    /** The command-line options that start the same stack (used to start a detached owner). */
    List<String> toArguments() {
        List<String> args = new ArrayList<>(List.of(
                "--dir", workDir.toString(),
                "--regions", String.join(",", regionNames),
                "--nodes-per-dc", Integer.toString(nodesPerDc),
                "--prefix", addressPrefix,
                "--wan", wan.name().toLowerCase(),
                "--delay-ms", Long.toString(oneWayDelay.toMillis()),
                "--cassandra-heap-mb", Integer.toString(cassandraHeapMb),
                "--kafka-heap-mb", Integer.toString(kafkaHeapMb),
                "--keyspace", keyspace,
                "--start-timeout-s", Long.toString(startTimeout.toSeconds())));
        if (wipe) {
            args.add("--wipe");
        }
        if (!applySchema) {
            args.add("--no-schema");
        }
        if (syncedCommitLog) {
            args.add("--synced-commit-log");
        }
        jvmOptions.forEach(option -> args.add("--jvm-option=" + option));
        watchParentPid.ifPresent(pid -> args.addAll(List.of("--watch-parent-pid", Long.toString(pid))));
        return args;
    }

    void store(Properties p) {
        p.setProperty("regions", String.join(",", regionNames));
        p.setProperty("nodes-per-dc", Integer.toString(nodesPerDc));
        p.setProperty("prefix", addressPrefix);
        p.setProperty("wan", wan.name());
        p.setProperty("delay-ms", Long.toString(oneWayDelay.toMillis()));
        p.setProperty("keyspace", keyspace);
    }
}
