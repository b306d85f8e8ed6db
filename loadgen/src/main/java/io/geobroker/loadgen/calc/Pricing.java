package io.geobroker.loadgen.calc;

import java.io.IOException;
import java.io.InputStream;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;

/**
 * The calculator's price list and load coefficients ({@code geobroker/pricing.properties}, which
 * documents every figure and where it comes from). Dollar amounts are held as integer
 * micro-dollars, read from exact decimals.
 */
public record Pricing(long hoursPerMonth, List<String> regionOrder, Map<String, RegionPrices> regions,
                      Map<String, Integer> vcpus, Deployment defaults, long bytesReplicatedPerTrade,
                      CpuModel cpu, ReplicationModel replication) {

    /** One cloud region's prices in micro-dollars. */
    public record RegionPrices(String id, String name, long transferOutMicrosPerGb, long storageMicrosPerGbMonth,
                               Map<String, Long> instanceMicrosPerHour) {
        public long instanceHourly(String type) {
            Long price = instanceMicrosPerHour.get(type);
            if (price == null) {
                throw new IllegalArgumentException("no price for instance type " + type + " in " + id
                        + "; known: " + instanceMicrosPerHour.keySet());
            }
            return price;
        }
    }

    /**
     * CPU cost of Cassandra work per DC, in percent of one node at the reference load (operations per
     * second per DC): local reads, local writes, and writes replicated from each other DC.
     */
    public record CpuModel(int localReadPercent, int localWritePercent, int replicatedWritePercentPerDc,
                           long referenceReadsPerSecond, long referenceWritesPerSecond) {
    }

    private static final String RESOURCE = "geobroker/pricing.properties";

    public Pricing {
        regionOrder = List.copyOf(regionOrder);
        regions = Map.copyOf(regions);
        vcpus = Map.copyOf(vcpus);
    }

    /** The price list shipped with loadgen. */
    public static Pricing standard() {
        try (InputStream in = Pricing.class.getClassLoader().getResourceAsStream(RESOURCE)) {
            if (in == null) {
                throw new IllegalStateException(RESOURCE + " is missing from the class path");
            }
            Properties p = new Properties();
            p.load(new java.io.InputStreamReader(in, StandardCharsets.UTF_8));
            return from(p);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public static Pricing load(Path file) {
        Properties p = new Properties();
        try (Reader reader = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            p.load(reader);
        } catch (IOException e) {
            throw new IllegalArgumentException("cannot read pricing file " + file + ": " + e.getMessage());
        }
        return from(p);
    }

    public static Pricing from(Properties p) {
        List<String> order = list(p, "regions");
        Map<String, RegionPrices> regions = new LinkedHashMap<>();
        for (String id : order) {
            String key = "region." + id + ".";
            Map<String, Long> instances = new LinkedHashMap<>();
            for (String name : p.stringPropertyNames().stream().sorted().toList()) {
                if (name.startsWith(key + "instance.")) {
                    instances.put(name.substring((key + "instance.").length()), micros(p, name));
                }
            }
            regions.put(id, new RegionPrices(id, p.getProperty(key + "name", id),
                    micros(p, key + "transfer-out-per-gb"), micros(p, key + "ebs-gp3-per-gb-month"), instances));
        }
        Map<String, Integer> vcpus = new LinkedHashMap<>();
        for (String name : p.stringPropertyNames()) {
            if (name.startsWith("vcpus.")) {
                vcpus.put(name.substring("vcpus.".length()), (int) number(p, name));
            }
        }
        long bytesPerTrade = number(p, "bytes-replicated-per-trade");
        Deployment defaults = new Deployment(order.subList(0, Math.min(2, order.size())),
                (int) number(p, "default.nodes-per-dc"), (int) number(p, "default.replication-factor"),
                text(p, "default.cassandra-instance"), (int) number(p, "default.cassandra-volume-gb"),
                text(p, "default.broker-instance"), (int) number(p, "default.brokers-per-dc"),
                (int) number(p, "default.broker-volume-gb"), number(p, "default.trades-per-month"),
                bytesPerTrade, List.of());
        CpuModel cpu = new CpuModel((int) number(p, "cpu.local-read-percent"),
                (int) number(p, "cpu.local-write-percent"), (int) number(p, "cpu.replicated-write-percent-per-dc"),
                number(p, "cpu.reference-reads-per-second"), number(p, "cpu.reference-writes-per-second"));
        ReplicationModel replication = new ReplicationModel(number(p, "replication.bytes-per-node-second"),
                number(p, "replication.bytes-per-fill"), number(p, "replication.bytes-per-mutation"),
                number(p, "replication.bytes-per-answer"));
        return new Pricing(number(p, "hours-per-month"), order, regions, vcpus, defaults, bytesPerTrade, cpu, replication);
    }

    public RegionPrices region(String id) {
        RegionPrices prices = regions.get(id);
        if (prices == null) {
            throw new IllegalArgumentException("no prices for region " + id + "; known: " + regionOrder);
        }
        return prices;
    }

    /** The first {@code n} regions of the price list: where the calculator puts n DCs. */
    public List<String> firstRegions(int n) {
        if (n < 1 || n > regionOrder.size()) {
            throw new IllegalArgumentException("the price list has " + regionOrder.size()
                    + " regions; choose 1.." + regionOrder.size() + " DCs, not " + n);
        }
        return regionOrder.subList(0, n);
    }

    public int vcpusOf(String instanceType) {
        Integer n = vcpus.get(instanceType);
        if (n == null) {
            throw new IllegalArgumentException("no vCPU count for instance type " + instanceType + "; known: " + vcpus.keySet());
        }
        return n;
    }

    /** Parses an exact decimal dollar amount into micro-dollars ({@code 0.0208} → 20800). */
    static long toMicros(String dollars) {
        try {
            return new BigDecimal(dollars.trim()).movePointRight(6).longValueExact();
        } catch (ArithmeticException | NumberFormatException e) {
            throw new IllegalArgumentException("not a dollar amount with at most 6 decimals: " + dollars);
        }
    }

    private static long micros(Properties p, String key) {
        return toMicros(text(p, key));
    }

    private static long number(Properties p, String key) {
        String value = text(p, key);
        try {
            return Long.parseLong(value);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("pricing key " + key + " must be a whole number, was " + value);
        }
    }

    private static String text(Properties p, String key) {
        String value = p.getProperty(key);
        if (value == null || value.isBlank()) {
            throw new IllegalArgumentException("pricing file lacks " + key);
        }
        return value.trim();
    }

    private static List<String> list(Properties p, String key) {
        return Arrays.stream(text(p, key).split("\\s*,\\s*")).filter(s -> !s.isEmpty()).toList();
    }
}
