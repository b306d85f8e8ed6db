package io.geobroker.loadgen.report;

import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.TreeMap;

/**
 * The traffic between the regions in a run's measured phase, beside the fills of that phase: the
 * write amplification across DCs as measured, not assumed. The emulated WAN counts every IP byte
 * between the regions (Cassandra's replication and gossip, the brokers' calls to each other),
 * headers included; Cassandra's own counters say what each DC's nodes wrote and sent to other DCs.
 */
public final class WanTraffic {

    /** Report condition with the whole figure; {@link #PER_FILL} holds just the number, for {@code calc}. */
    public static final String TRAFFIC = "WAN traffic in the measured phase (IP bytes the emulated link carried)";
    public static final String PER_FILL = "WAN bytes per fill (both ways)";
    public static final String CASSANDRA = "Cassandra in the measured phase (its own counters, per DC)";
    /** Report condition: the bytes the link carried both ways, just the number. */
    public static final String TOTAL = "WAN bytes in the measured phase (both ways)";
    /** Report condition: the Cassandra mutations every region's engine wrote in the phase, just the number. */
    public static final String MUTATIONS = "Cassandra mutations the engines wrote to tables every DC replicates, in the "
            + "measured phase (groups and projections)";
    /** The same count in reports of before the engine log's own keyspace (V014), when every mutation was replicated. */
    static final String MUTATIONS_BEFORE_V014 = "Cassandra mutations the engines wrote in the measured phase (groups and projections)";
    /** Report conditions: the deployment's Cassandra nodes and replicas per DC, just the numbers. */
    public static final String NODES_PER_DC = "Cassandra nodes per DC";
    public static final String REPLICAS_PER_DC = "Cassandra replicas per DC";
    /** Report condition: the measured bytes beside what the cost calculator's replication model predicts. */
    public static final String PREDICTED = "WAN bytes against calc's replication model";
    /** Keys of the WAN's counters among a phase's counters: {@code wan:<from>-><to>}. */
    public static final String WAN_PREFIX = "wan:";

    private WanTraffic() {
    }

    /** What {@code after} counts beyond {@code before}, per direction (a direction only after counts from 0). */
    public static Map<String, Long> between(Map<String, Long> before, Map<String, Long> after) {
        Map<String, Long> carried = new TreeMap<>();
        after.forEach((direction, bytes) -> carried.put(direction, bytes - before.getOrDefault(direction, 0L)));
        return carried;
    }

    /**
     * The report's conditions for {@code carried} bytes each way over a phase with {@code fills}
     * fills; {@code assumedPerTrade} is what the cost calculator assumes without a measurement.
     */
    public static Map<String, String> conditions(Map<String, Long> carried, long fills, long assumedPerTrade) {
        Map<String, String> conditions = new LinkedHashMap<>();
        long total = carried.values().stream().mapToLong(Long::longValue).sum();
        StringBuilder text = new StringBuilder();
        new TreeMap<>(carried).forEach((direction, bytes) -> text.append(text.isEmpty() ? "" : ", ").append(direction).append(' ')
                .append(megabytes(bytes)));
        if (fills > 0) {
            long perFill = Math.round((double) total / fills);
            text.append(String.format(Locale.ROOT, "; %,d bytes per fill both ways together (%,d fills; the cost "
                    + "calculator assumes %,d bytes replicated per trade)", perFill, fills, assumedPerTrade));
            conditions.put(PER_FILL, Long.toString(perFill));
        }
        conditions.put(TRAFFIC, text.toString());
        conditions.put(TOTAL, Long.toString(total));
        return conditions;
    }

    /**
     * The report's conditions that set {@code measured} bytes (both ways) beside the {@code predicted}
     * bytes of the cost calculator's replication model ({@code model}, in words) for a phase of
     * {@code millis} with these counts; {@code mutations} are every region's engines'.
     */
    public static Map<String, String> predicted(long measured, long predicted, String model, long millis, long fills,
                                                long mutations) {
        Map<String, String> conditions = new LinkedHashMap<>();
        if (predicted <= 0 || fills <= 0) {
            return conditions;
        }
        conditions.put(PREDICTED, String.format(Locale.ROOT, "measured %,d bytes per fill, predicted %,d (measured %+.1f %%) "
                        + "from %,d fills and %,d mutations in %.0f s (%s)", Math.round((double) measured / fills),
                Math.round((double) predicted / fills), deviationPercent(measured, predicted), fills, mutations,
                millis / 1000.0, model));
        return conditions;
    }

    /** {@code measured} against {@code predicted}, in percent of the prediction (positive: more was measured). */
    public static double deviationPercent(long measured, long predicted) {
        if (predicted <= 0) {
            throw new IllegalArgumentException("nothing predicted to compare with");
        }
        return (measured - predicted) * 100.0 / predicted;
    }

    /** The measured bytes of a report, both ways together: its total, or (older reports) its bytes per fill times its fills. */
    public static Optional<Long> total(RunReport report, long fills) {
        String total = report.conditions().get(TOTAL);
        if (total != null) {
            return Optional.of(Long.parseLong(total));
        }
        return perFill(report).map(perFill -> perFill * fills);
    }

    /** The engines' mutations of a report, if it has them. */
    public static OptionalLong mutations(RunReport report) {
        OptionalLong mutations = number(report.conditions(), MUTATIONS);
        return mutations.isPresent() ? mutations : number(report.conditions(), MUTATIONS_BEFORE_V014);
    }

    /** The number a report's condition holds, if it has that condition. */
    public static OptionalLong number(Map<String, String> conditions, String key) {
        String value = conditions.get(key);
        return value == null ? OptionalLong.empty() : OptionalLong.of(Long.parseLong(value.trim()));
    }

    /**
     * The line of Cassandra's counters ({@code cassandra-table-writes:<DC>} and
     * {@code cassandra-bytes-to-other-dcs:<DC>}, see the driver's {@code CassandraCounters}) over a
     * phase with {@code fills} fills.
     */
    public static String cassandra(Map<String, Long> counters, String writesPrefix, String sentPrefix, long fills) {
        StringBuilder text = new StringBuilder();
        new TreeMap<>(counters).forEach((key, writes) -> {
            if (!key.startsWith(writesPrefix)) {
                return;
            }
            String dc = key.substring(writesPrefix.length());
            long sent = counters.getOrDefault(sentPrefix + dc, 0L);
            text.append(text.isEmpty() ? "" : "; ").append(dc).append(String.format(Locale.ROOT,
                    ": %,d table writes applied, %s sent to other DCs", writes, megabytes(sent)));
            if (fills > 0) {
                text.append(String.format(Locale.ROOT, " (%.1f writes and %,d bytes per fill)", (double) writes / fills,
                        Math.round((double) sent / fills)));
            }
        });
        return text.toString();
    }

    /** The entries of {@code counters} whose key starts with {@code prefix}, keyed without it. */
    public static Map<String, Long> withPrefix(Map<String, Long> counters, String prefix) {
        Map<String, Long> selected = new TreeMap<>();
        counters.forEach((key, value) -> {
            if (key.startsWith(prefix)) {
                selected.put(key.substring(prefix.length()), value);
            }
        });
        return selected;
    }

    /** The measured bytes per fill of a report, if it has one. */
    public static Optional<Long> perFill(RunReport report) {
        return Optional.ofNullable(report.conditions().get(PER_FILL)).map(Long::parseLong);
    }

    private static String megabytes(long bytes) {
        return String.format(Locale.ROOT, "%.1f MB", bytes / 1e6);
    }
}
