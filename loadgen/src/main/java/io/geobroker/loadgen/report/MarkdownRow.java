package io.geobroker.loadgen.report;

import java.util.Locale;
import java.util.Optional;

/**
 * A report's headline figures as one row of a Markdown table, for the results log and the figure
 * tables of the READMEs: they are generated from the run's {@code report.json}, not copied by hand.
 */
public final class MarkdownRow {

    static final String CPU = "CPU in the measured phase (each process's user and system time)";
    static final String OFFERED = "offered load";
    static final String LOAD_AT_START = "machine load average (1 min) at start";
    private static final String TICKER_TO_FILL = "ticker-to-fill/ALL/ALL";
    private static final String PLACEMENT = "order-placement/ALL/ALL";
    private static final String CROSS_REGION_MARKET = "cross-region-market/ALL/ALL";

    private MarkdownRow() {
    }

    public static String header() {
        return "| run | scenario (offered load) | orders sent | answered | errors | ticker-to-fill p50 / p99 / max (ms) "
                + "| placement p99 (ms) | cross-region market avg (ms) | cores (measured phase) | load average at start |\n"
                + "|---|---|---:|---:|---:|---|---:|---:|---|---:|";
    }

    /** The row of one report; {@code label} names the run (e.g. its directory). */
    public static String row(String label, RunReport report) {
        long sent = 0;
        long answered = 0;
        long errors = 0;
        for (RunReport.RegionSummary r : report.regions()) {
            sent += r.ordersSent();
            answered += r.ordersAccepted() + r.ordersRejected();
            errors += r.errors();
        }
        String tickerToFill = series(report, TICKER_TO_FILL)
                .map(s -> ms(s.p50Micros()) + " / " + ms(s.p99Micros()) + " / " + ms(s.maxMicros())).orElse("—");
        String placement = series(report, PLACEMENT).map(s -> ms(s.p99Micros())).orElse("—");
        String crossRegion = series(report, CROSS_REGION_MARKET).map(s -> ms(Math.round(s.meanMicros()))).orElse("—");
        String cpu = Optional.ofNullable(report.conditions().get(CPU)).map(c -> c.replace(" of 2 cores in all:", ":"))
                .orElse("—");
        String scenario = report.scenario() + Optional.ofNullable(report.conditions().get(OFFERED))
                .map(o -> " (" + o + ")").orElse("");
        String loadAtStart = report.conditions().getOrDefault(LOAD_AT_START, "—");
        return String.join(" | ", "| " + cell(label), cell(scenario), Long.toString(sent), Long.toString(answered),
                Long.toString(errors), tickerToFill, placement, crossRegion, cell(cpu), cell(loadAtStart) + " |");
    }

    /** Text for one cell: a '|' would end it. */
    private static String cell(String text) {
        return text.replace("|", "/");
    }

    private static Optional<RunReport.SeriesSummary> series(RunReport report, String name) {
        return report.series().stream().filter(s -> s.name().equals(name) && s.count() > 0).findFirst();
    }

    private static String ms(long micros) {
        return String.format(Locale.ROOT, "%.1f", micros / 1000.0);
    }
}
