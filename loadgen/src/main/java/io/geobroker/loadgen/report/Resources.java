package io.geobroker.loadgen.report;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.OptionalDouble;

/**
 * What the run's processes and Cassandra nodes held over the measured phase, sampled every
 * {@code intervalMillis}: one series per quantity and source (a process, a broker, a node), each
 * point {@code [milliseconds into the measured phase, value]}. A sample that failed is a missing
 * point, not a zero. It answers whether anything grows without bound in a long run.
 */
public record Resources(long intervalMillis, List<Series> series) {

    /** One quantity of one source over time; {@code quantity} is a {@link Quantity#key()}. */
    public record Series(String quantity, String source, List<long[]> points) {
        public Series {
            points = List.copyOf(points);
        }
    }

    /** The quantities sampled, with how a reader sees them. */
    public enum Quantity {
        RSS("rss-bytes", "Resident memory (VmRSS) per process", "MB", 1024 * 1024),
        HEAP_AFTER_GC("heap-after-gc-bytes", "Heap used after the last GC per JVM", "MB", 1024 * 1024),
        LIVE_HEAP("live-heap-bytes", "Live heap per JVM (after a full GC asked for before and after the phase)", "MB",
                1024 * 1024),
        CONSUMER_LAG("consumer-lag-records", "Consumer lag per broker (records-lag-max of its consumers)", "records", 1),
        PENDING_COMPACTIONS("pending-compactions", "Pending compactions per Cassandra node (CompactionExecutor queue)",
                "tasks", 1),
        PENDING_HINTS("pending-hint-files", "Pending hints per Cassandra node (hint files for other nodes)", "files", 1);

        private final String key;
        private final String title;
        private final String unit;
        private final long divisor;

        Quantity(String key, String title, String unit, long divisor) {
            this.key = key;
            this.title = title;
            this.unit = unit;
            this.divisor = divisor;
        }

        public String key() {
            return key;
        }

        /** The quantity of a series' {@code quantity} key; empty for one this version does not know. */
        public static Optional<Quantity> of(String key) {
            return Arrays.stream(values()).filter(q -> q.key.equals(key)).findFirst();
        }

        public String title() {
            return title;
        }

        public String unit() {
            return unit;
        }

        /** A raw value in the unit the report shows. */
        public double shown(double raw) {
            return raw / divisor;
        }
    }

    /** The window whose median the summary compares at the start and at the end of a phase. */
    static final long SUMMARY_WINDOW_MILLIS = 5 * 60_000;

    /** A series' median in the first and in the last window of the phase (empty where a window has no sample). */
    public record Change(Series series, OptionalDouble first, OptionalDouble last, long windowMillis) {
    }

    public Resources {
        series = List.copyOf(series);
    }

    /** The series of one quantity, in the order they were sampled. */
    public List<Series> of(Quantity quantity) {
        return series.stream().filter(s -> s.quantity().equals(quantity.key())).toList();
    }

    /**
     * Each series' median over the first and the last five minutes of a phase of
     * {@code measuredMillis}, or over its first and last half when it is shorter than ten minutes.
     */
    public List<Change> changes(long measuredMillis) {
        long window = Math.max(1, Math.min(SUMMARY_WINDOW_MILLIS, measuredMillis / 2));
        List<Change> changes = new ArrayList<>();
        for (Series s : series) {
            changes.add(new Change(s, median(s.points(), 0, window), median(s.points(), measuredMillis - window,
                    Long.MAX_VALUE), window));
        }
        return changes;
    }

    /** The median value of the points whose time is in {@code [from, until)}, or at or after {@code from} without bound. */
    static OptionalDouble median(List<long[]> points, long from, long until) {
        long[] values = points.stream().filter(p -> p[0] >= from && p[0] < until).mapToLong(p -> p[1]).sorted().toArray();
        if (values.length == 0) {
            return OptionalDouble.empty();
        }
        int mid = values.length / 2;
        return OptionalDouble.of(values.length % 2 == 1 ? values[mid] : (values[mid - 1] + values[mid]) / 2.0);
    }

    /**
     * The series as chart lines, in the quantity's unit, seconds on x; a gap of more than one and a
     * half intervals between samples (failed ones) is a NaN point, which breaks the line.
     */
    public List<Svg.Series> lines(Quantity quantity) {
        List<Svg.Series> lines = new ArrayList<>();
        for (Series s : of(quantity)) {
            List<double[]> points = new ArrayList<>();
            long previous = Long.MIN_VALUE;
            for (long[] p : s.points()) {
                // the live heap is read twice, at the phase's edges: a line between them, not a gap
                if (quantity != Quantity.LIVE_HEAP && previous != Long.MIN_VALUE && p[0] - previous > intervalMillis * 3 / 2) {
                    points.add(new double[] {(previous + p[0]) / 2000.0, Double.NaN});
                }
                points.add(new double[] {p[0] / 1000.0, quantity.shown(p[1])});
                previous = p[0];
            }
            if (!points.isEmpty()) {
                lines.add(new Svg.Series(s.source(), points.stream().mapToDouble(p -> p[0]).toArray(),
                        points.stream().mapToDouble(p -> p[1]).toArray()));
            }
        }
        return lines;
    }

    /** One summary line per quantity: each source's first and last window medians, e.g. {@code broker sydney 629 → 723}. */
    public List<String> summary(long measuredMillis) {
        List<String> lines = new ArrayList<>();
        List<Change> changes = changes(measuredMillis);
        for (Quantity q : Quantity.values()) {
            List<String> parts = new ArrayList<>();
            long window = 0;
            for (Change c : changes) {
                if (c.series().quantity().equals(q.key())) {
                    parts.add(c.series().source() + " " + shown(q, c.first()) + " → " + shown(q, c.last()));
                    window = c.windowMillis();
                }
            }
            if (!parts.isEmpty()) {
                lines.add(String.format(Locale.ROOT, "%s (%s), median of the first → last %s: %s", q.title(), q.unit(),
                        duration(window), String.join(", ", parts)));
            }
        }
        return lines;
    }

    static String shown(Quantity q, OptionalDouble raw) {
        if (raw.isEmpty()) {
            return "—";
        }
        double v = q.shown(raw.getAsDouble());
        return Math.abs(v) >= 100 || v == Math.rint(v) ? String.format(Locale.ROOT, "%,.0f", v)
                : String.format(Locale.ROOT, "%.1f", v);
    }

    private static String duration(long millis) {
        return millis % 60_000 == 0 ? millis / 60_000 + " min" : String.format(Locale.ROOT, "%.0f s", millis / 1000.0);
    }
}
