package io.geobroker.loadgen.report;

import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * The traffic the emulated WAN carried between the regions in a run's measured phase, beside the
 * fills of that phase: the write amplification across DCs as measured, not assumed. The figure
 * counts every IP byte between the regions (Cassandra's replication and gossip, the brokers' calls
 * to each other), headers included.
 */
public final class WanTraffic {

    /** Report condition with the whole figure; {@link #PER_FILL} holds just the number, for {@code calc}. */
    public static final String TRAFFIC = "WAN traffic in the measured phase (IP bytes the emulated link carried)";
    public static final String PER_FILL = "WAN bytes per fill (both ways)";

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
        carried.forEach((direction, bytes) -> text.append(text.isEmpty() ? "" : ", ").append(direction).append(' ')
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

    /** The measured bytes per fill of a report, if it has one. */
    public static Optional<Long> perFill(RunReport report) {
        return Optional.ofNullable(report.conditions().get(PER_FILL)).map(Long::parseLong);
    }

    private static String megabytes(long bytes) {
        return String.format(Locale.ROOT, "%.1f MB", bytes / 1e6);
    }
}
