package io.geobroker.loadgen.report;

import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
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
        return conditions;
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
