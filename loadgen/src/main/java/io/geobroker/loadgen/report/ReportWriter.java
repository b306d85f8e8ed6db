package io.geobroker.loadgen.report;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import io.geobroker.loadgen.metrics.LatencySeries;
import io.geobroker.loadgen.metrics.Metrics;
import io.geobroker.loadgen.metrics.SeriesKey;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * Renders a {@link RunReport}: a console summary, {@code report.json}, {@code report.csv} /
 * {@code timeline.csv} and a self-contained {@code report.html} (inline SVG, no scripts, no network).
 */
public final class ReportWriter {

    private static final ObjectMapper JSON = new ObjectMapper()
            .enable(SerializationFeature.INDENT_OUTPUT)
            .configure(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, false);

    private ReportWriter() {
    }

    /** The files a report was written to. */
    public record Written(Path html, Path json, Path csv, Path timelineCsv) {
    }

    public static Written writeAll(RunReport report, Path directory) throws IOException {
        Files.createDirectories(directory);
        Written files = new Written(directory.resolve("report.html"), directory.resolve("report.json"),
                directory.resolve("report.csv"), directory.resolve("timeline.csv"));
        Files.writeString(files.html(), html(report), StandardCharsets.UTF_8);
        Files.writeString(files.json(), json(report), StandardCharsets.UTF_8);
        Files.writeString(files.csv(), csv(report), StandardCharsets.UTF_8);
        Files.writeString(files.timelineCsv(), timelineCsv(report), StandardCharsets.UTF_8);
        if (report.chaos() != null) {
            Files.writeString(directory.resolve("chaos.md"), ChaosRender.markdown(report.chaos()), StandardCharsets.UTF_8);
        }
        return files;
    }

    public static String json(RunReport report) {
        try {
            return JSON.writeValueAsString(report);
        } catch (IOException e) {
            throw new IllegalStateException("cannot encode the report", e);
        }
    }

    public static RunReport readJson(Path file) {
        try {
            JsonNode tree = JSON.readTree(file.toFile());
            String schema = tree == null || tree.get("schema") == null ? null : tree.get("schema").asText();
            if (!RunReport.SCHEMA.equals(schema)) {
                throw new IllegalArgumentException(file + " is not a loadgen report (schema " + schema + ")");
            }
            return JSON.treeToValue(tree, RunReport.class);
        } catch (IOException e) {
            throw new IllegalArgumentException("cannot read load report " + file + ": " + e.getMessage());
        }
    }

    public static String console(RunReport report) {
        StringBuilder out = new StringBuilder();
        out.append(String.format(Locale.ROOT, "%n%s — scenario %s, measured %.1f s%n", report.title(), report.scenario(),
                report.measuredMillis() / 1000.0));
        out.append(String.format(Locale.ROOT, "%-44s %8s %8s %8s %8s %8s %8s %9s %8s %7s%n", "latency (ms)", "count",
                "per s", "p50", "p90", "p99", "p99.9", "max", "avg", "errors"));
        for (RunReport.SeriesSummary s : ordered(report)) {
            out.append(String.format(Locale.ROOT, "%-44s %8d %8.1f %8s %8s %8s %8s %9s %8s %7d%n", s.name(), s.count(),
                    s.throughputPerSecond(), ms(s.p50Micros()), ms(s.p90Micros()), ms(s.p99Micros()),
                    ms(s.p999Micros()), ms(s.maxMicros()), ms(Math.round(s.meanMicros())), s.errors()));
        }
        out.append(String.format(Locale.ROOT, "%-12s %10s %10s %10s %8s %10s %10s%n", "region", "orders", "accepted",
                "rejected", "errors", "fills", "tickers"));
        for (RunReport.RegionSummary r : report.regions()) {
            out.append(String.format(Locale.ROOT, "%-12s %10d %10d %10d %8d %10d %10d%n", r.region(), r.ordersSent(),
                    r.ordersAccepted(), r.ordersRejected(), r.errors(), r.fills(), r.tickers()));
        }
        Map<String, Long> causes = totals(report, RunReport.ORDER_ERROR_CAUSE);
        if (!causes.isEmpty()) {
            out.append("order errors by cause and region: ").append(causes).append(System.lineSeparator());
        }
        Map<String, Long> reasons = totals(report, RunReport.ORDER_REJECT_REASON);
        if (!reasons.isEmpty()) {
            out.append("orders rejected by reason and region: ").append(reasons).append(System.lineSeparator());
        }
        report.conditions().entrySet().stream().sorted(Map.Entry.comparingByKey())
                .forEach(e -> out.append(e.getKey()).append(": ").append(e.getValue()).append(System.lineSeparator()));
        if (report.resources() != null) {
            report.resources().summary(report.measuredMillis())
                    .forEach(line -> out.append("resources: ").append(line).append(System.lineSeparator()));
        }
        for (RunReport.SweepStep step : report.sweep()) {
            out.append(String.format(Locale.ROOT, "sweep: %7.0f orders/s %7.0f tickers/s -> %7.1f fills/s, ticker-to-fill p50 %s p99 %s max %s ms, errors %d%n",
                    step.offeredOrdersPerSecond(), step.offeredTickersPerSecond(), step.fillsPerSecond(),
                    ms(step.p50Micros()), ms(step.p99Micros()), ms(step.maxMicros()), step.errors()));
        }
        if (report.chaos() != null) {
            out.append(ChaosRender.markdown(report.chaos()));
        }
        return out.toString();
    }

    /** The measured totals of the counters named {@code <prefix><what>/<region>}, by {@code <what>/<region>}. */
    static Map<String, Long> totals(RunReport report, String prefix) {
        Map<String, Long> totals = new java.util.TreeMap<>();
        report.throughput().forEach((name, points) -> {
            if (name.startsWith(prefix)) {
                totals.merge(name.substring(prefix.length()), points.stream().mapToLong(p -> p[1]).sum(), Long::sum);
            }
        });
        return totals;
    }

    public static String csv(RunReport report) {
        StringBuilder out = new StringBuilder(
                "series,kind,region,order_type,count,errors,per_second,p50_us,p90_us,p99_us,p999_us,max_us,mean_us\n");
        for (RunReport.SeriesSummary s : ordered(report)) {
            out.append(String.format(Locale.ROOT, "%s,%s,%s,%s,%d,%d,%.3f,%d,%d,%d,%d,%d,%.1f%n", s.name(), s.kind(),
                    s.region(), s.orderType(), s.count(), s.errors(), s.throughputPerSecond(), s.p50Micros(),
                    s.p90Micros(), s.p99Micros(), s.p999Micros(), s.maxMicros(), s.meanMicros()));
        }
        return out.toString();
    }

    public static String timelineCsv(RunReport report) {
        StringBuilder out = new StringBuilder("series,interval_start_ms,count,p50_us,p99_us,max_us\n");
        for (RunReport.SeriesSummary s : ordered(report)) {
            for (LatencySeries.Interval i : s.timeline()) {
                out.append(String.format(Locale.ROOT, "%s,%d,%d,%d,%d,%d%n", s.name(), i.startMillis(), i.count(),
                        i.p50Micros(), i.p99Micros(), i.maxMicros()));
            }
        }
        for (Map.Entry<String, List<long[]>> counter : report.throughput().entrySet()) {
            for (long[] point : counter.getValue()) {
                out.append(String.format(Locale.ROOT, "%s,%d,%d,,,%n", counter.getKey(), point[0], point[1]));
            }
        }
        return out.toString();
    }

    public static String html(RunReport report) {
        StringBuilder body = new StringBuilder();
        body.append("<h1>").append(Html.escape(report.title())).append("</h1>\n");
        body.append("<p class='note'>Scenario <b>").append(Html.escape(report.scenario())).append("</b>, started ")
                .append(Html.escape(report.startedAt())).append(String.format(Locale.ROOT, ", measured %.1f s after warm-up.",
                        report.measuredMillis() / 1000.0)).append("</p>\n");
        body.append("<h2>Summary (milliseconds)</h2>\n<table class='summary'><tr><th class='l'>series</th><th>count</th><th>per s</th>"
                + "<th>p50</th><th>p90</th><th>p99</th><th>p99.9</th><th>max</th><th>avg</th><th>errors</th></tr>\n");
        for (RunReport.SeriesSummary s : ordered(report)) {
            body.append(String.format(Locale.ROOT,
                    "<tr><td class='l'>%s</td><td>%d</td><td>%.1f</td><td>%s</td><td>%s</td><td>%s</td><td>%s</td><td>%s</td><td>%s</td><td%s>%d</td></tr>%n",
                    Html.escape(s.name()), s.count(), s.throughputPerSecond(), ms(s.p50Micros()), ms(s.p90Micros()),
                    ms(s.p99Micros()), ms(s.p999Micros()), ms(s.maxMicros()), ms(Math.round(s.meanMicros())),
                    s.errors() > 0 ? " class='bad'" : "", s.errors()));
        }
        body.append("</table>\n");
        body.append("<table class='regions'><tr><th class='l'>region</th><th>orders sent</th><th>accepted</th><th>rejected</th>"
                + "<th>errors</th><th>fills</th><th>tickers</th></tr>\n");
        for (RunReport.RegionSummary r : report.regions()) {
            body.append(String.format(Locale.ROOT, "<tr><td class='l'>%s</td><td>%d</td><td>%d</td><td>%d</td><td>%d</td><td>%d</td><td>%d</td></tr>%n",
                    Html.escape(r.region()), r.ordersSent(), r.ordersAccepted(), r.ordersRejected(), r.errors(), r.fills(), r.tickers()));
        }
        body.append("</table>\n");

        if (report.chaos() != null) {
            body.append(ChaosRender.html(report.chaos()));
        }
        body.append("<h2>Ticker-to-fill latency</h2>\n<div class='charts'>\n");
        body.append(overTime("Ticker-to-fill latency over time (per region)", report, SeriesKey.Kind.TICKER_TO_FILL));
        body.append(distribution("Ticker-to-fill percentile distribution (per region and order type)", report,
                SeriesKey.Kind.TICKER_TO_FILL, true));
        body.append("</div>\n");
        body.append("<h2>Throughput</h2>\n<div class='charts'>\n").append(throughput(report)).append("</div>\n");
        body.append("<h2>Order placement latency (from the intended send time)</h2>\n<div class='charts'>\n");
        body.append(overTime("Order placement latency over time (per region)", report, SeriesKey.Kind.PLACEMENT));
        body.append(distribution("Order placement percentile distribution (per region and order type)", report,
                SeriesKey.Kind.PLACEMENT, true));
        body.append(distribution("Cross-region market orders: percentile distribution", report,
                SeriesKey.Kind.CROSS_REGION_MARKET, true));
        body.append(distribution("Ticker-to-fill as observed by the load generator (fills topic)", report,
                SeriesKey.Kind.TICKER_TO_FILL_OBSERVED, false));
        body.append("</div>\n");
        if (report.resources() != null) {
            body.append(resources(report.resources(), report.measuredMillis()));
        }
        if (!report.sweep().isEmpty()) {
            body.append("<h2>Sweep: latency against offered load</h2>\n<div class='charts'>\n").append(sweep(report)).append("</div>\n");
        }
        body.append("<h2>Conditions</h2>\n<table class='conditions'>\n");
        report.conditions().entrySet().stream().sorted(Map.Entry.comparingByKey()).forEach(e -> body.append(
                "<tr><th class='l'>").append(Html.escape(e.getKey())).append("</th><td class='l'>")
                .append(Html.escape(e.getValue())).append("</td></tr>\n"));
        body.append("</table>\n<p class='note'>Latencies are HdrHistogram figures (3 significant digits; 2 in the time lines). Order placement is timed "
                + "from each order's intended send time on a constant-rate schedule, so a stall is charged in full (no coordinated "
                + "omission). Ticker-to-fill is the fill's durable time minus the ticker's exchange time, both carried in the fill "
                + "event; fills are de-duplicated by fill id. It covers the orders a ticker filled (limit and stop orders waiting "
                + "for their price). A market order is filled when it is placed, at the latest quote: its latency is its placement "
                + "(or cross-region market) series, and market-fill-quote-age only shows how old that quote was.</p>\n");
        return Html.page(report.title(), body.toString());
    }

    private static String overTime(String title, RunReport report, SeriesKey.Kind kind) {
        List<Svg.Series> lines = new ArrayList<>();
        for (RunReport.SeriesSummary s : report.seriesOf(kind)) {
            if (!s.orderType().equals(Metrics.ALL) || s.region().equals(Metrics.ALL) || s.timeline().isEmpty()) {
                continue;
            }
            // intervals without samples are left out rather than drawn as zero latency
            List<LatencySeries.Interval> sampled = s.timeline().stream().filter(i -> i.count() > 0).toList();
            if (sampled.isEmpty()) {
                continue;
            }
            double[] xs = new double[sampled.size()];
            double[] p50 = new double[xs.length];
            double[] p99 = new double[xs.length];
            double[] max = new double[xs.length];
            for (int i = 0; i < xs.length; i++) {
                LatencySeries.Interval interval = sampled.get(i);
                xs[i] = interval.startMillis() / 1000.0;
                p50[i] = interval.p50Micros() / 1000.0;
                p99[i] = interval.p99Micros() / 1000.0;
                max[i] = interval.maxMicros() / 1000.0;
            }
            lines.add(new Svg.Series(s.region() + " p50", xs, p50));
            lines.add(new Svg.Series(s.region() + " p99", xs, p99));
            lines.add(new Svg.Series(s.region() + " max", xs, max));
        }
        return Svg.timeChart(title, "ms", lines, report.measuredMillis() / 1000.0);
    }

    private static String distribution(String title, RunReport report, SeriesKey.Kind kind, boolean byType) {
        List<Svg.Series> lines = new ArrayList<>();
        for (RunReport.SeriesSummary s : report.seriesOf(kind)) {
            boolean aggregateOfRegion = s.orderType().equals(Metrics.ALL);
            if (s.distribution().isEmpty() || (byType == aggregateOfRegion && !s.region().equals(Metrics.ALL))) {
                continue;
            }
            List<double[]> points = new ArrayList<>();
            for (RunReport.Percentile p : s.distribution()) {
                if (p.percentile() < 100.0) {
                    points.add(new double[] {100.0 / (100.0 - p.percentile()), p.micros() / 1000.0});
                }
            }
            if (points.isEmpty()) {
                continue;
            }
            double[] xs = points.stream().mapToDouble(p -> p[0]).toArray();
            double[] ys = points.stream().mapToDouble(p -> p[1]).toArray();
            lines.add(new Svg.Series(s.region().equals(Metrics.ALL) ? "all" : s.region() + " " + s.orderType(), xs, ys));
        }
        return Svg.lineChart(title, "percentile", "ms", lines, true, ReportWriter::percentileLabel);
    }

    private static String throughput(RunReport report) {
        List<Svg.Series> lines = new ArrayList<>();
        for (Map.Entry<String, List<long[]>> counter : report.throughput().entrySet()) {
            String name = counter.getKey();
            if (!(name.startsWith(RunReport.FILLS + "/") || name.startsWith(RunReport.ORDERS_ACCEPTED + "/")
                    || name.startsWith(RunReport.TICKERS + "/") || name.startsWith(RunReport.ORDERS_ERRORS + "/"))) {
                continue;
            }
            lines.add(perSecond(name + " per s", counter.getValue(), report.measuredMillis()));
        }
        return Svg.timeChart("Throughput over time", "per second", lines, report.measuredMillis() / 1000.0);
    }

    /**
     * A counter's rate per second over the measured phase, from its {@code [intervalStartMillis,
     * delta]} points. The driver's last tick, at the end of the phase, holds what came after it
     * (answers and fills drained late, orders never sent, counted at once): that is no second of the
     * phase, and drawn as one it would show a spike that never happened, so the line leaves it out.
     * The region table still counts it.
     */
    static Svg.Series perSecond(String name, List<long[]> points, long measuredMillis) {
        List<long[]> phase = points.stream().filter(p -> p[0] < measuredMillis).toList();
        double[] xs = new double[phase.size()];
        double[] ys = new double[phase.size()];
        for (int i = 0; i < xs.length; i++) {
            long[] point = phase.get(i);
            long end = i + 1 < phase.size() ? phase.get(i + 1)[0] : Math.min(point[0] + 1000, measuredMillis);
            long intervalMillis = end - point[0];
            xs[i] = point[0] / 1000.0;
            ys[i] = intervalMillis <= 0 ? 0 : point[1] * 1000.0 / intervalMillis;
        }
        return new Svg.Series(name, xs, ys);
    }

    /**
     * The resources section: each series' median over the first and the last window of the phase,
     * then a chart per quantity with a line per process, broker or node.
     */
    static String resources(Resources resources, long measuredMillis) {
        StringBuilder out = new StringBuilder(String.format(Locale.ROOT,
                "<h2>Resources over the measured phase (sampled every %.0f s)</h2>%n", resources.intervalMillis() / 1000.0));
        List<Resources.Change> changes = resources.changes(measuredMillis);
        if (changes.isEmpty()) {
            return out.append("<p class='note'>No sample succeeded.</p>\n").toString();
        }
        out.append("<table class='resources'><tr><th class='l'>quantity</th><th class='l'>process or node</th>"
                + "<th>first window (median)</th><th>last window (median)</th></tr>\n");
        for (Resources.Change c : changes) {
            Optional<Resources.Quantity> q = Resources.Quantity.of(c.series().quantity());
            out.append("<tr><td class='l'>").append(Html.escape(q.map(k -> k.title() + " (" + k.unit() + ")")
                            .orElse(c.series().quantity())))
                    .append("</td><td class='l'>").append(Html.escape(c.series().source())).append("</td><td>")
                    .append(q.map(k -> Resources.shown(k, c.first())).orElse("")).append("</td><td>")
                    .append(q.map(k -> Resources.shown(k, c.last())).orElse("")).append("</td></tr>\n");
        }
        out.append(String.format(Locale.ROOT, "</table>%n<p class='note'>Windows: the first and the last %.0f s of the "
                + "phase. A missing point is a sample that failed.</p>%n<div class='charts'>%n",
                changes.get(0).windowMillis() / 1000.0));
        for (Resources.Quantity q : Resources.Quantity.values()) {
            List<Svg.Series> lines = resources.lines(q);
            if (!lines.isEmpty()) {
                out.append(Svg.timeChart(q.title(), q.unit(), lines, measuredMillis / 1000.0));
            }
        }
        return out.append("</div>\n").toString();
    }

    private static String sweep(RunReport report) {
        List<RunReport.SweepStep> steps = report.sweep();
        double[] xs = steps.stream().mapToDouble(RunReport.SweepStep::offeredOrdersPerSecond).toArray();
        return Svg.lineChart("Ticker-to-fill latency against offered load", "offered new orders per second", "ms",
                List.of(new Svg.Series("p50", xs, steps.stream().mapToDouble(s -> s.p50Micros() / 1000.0).toArray()),
                        new Svg.Series("p99", xs, steps.stream().mapToDouble(s -> s.p99Micros() / 1000.0).toArray()),
                        new Svg.Series("max", xs, steps.stream().mapToDouble(s -> s.maxMicros() / 1000.0).toArray())),
                false, v -> String.format(Locale.ROOT, "%.0f", v));
    }

    static String percentileLabel(double oneOverOneMinus) {
        double p = 100.0 - 100.0 / oneOverOneMinus;
        if (p <= 0) {
            return "0%";
        }
        return String.format(Locale.ROOT, "%s%%", new java.math.BigDecimal(p).round(new java.math.MathContext(6))
                .stripTrailingZeros().toPlainString());
    }

    private static List<RunReport.SeriesSummary> ordered(RunReport report) {
        List<RunReport.SeriesSummary> list = new ArrayList<>(report.series());
        list.sort((a, b) -> {
            int kind = Integer.compare(SeriesKey.Kind.valueOf(kindName(a)).ordinal(), SeriesKey.Kind.valueOf(kindName(b)).ordinal());
            return kind != 0 ? kind : a.name().compareTo(b.name());
        });
        return list;
    }

    private static String kindName(RunReport.SeriesSummary s) {
        for (SeriesKey.Kind k : SeriesKey.Kind.values()) {
            if (k.label().equals(s.kind())) {
                return k.name();
            }
        }
        return SeriesKey.Kind.TICKER_TO_FILL.name();
    }

    static String ms(long micros) {
        return String.format(Locale.ROOT, "%.2f", micros / 1000.0);
    }
}
