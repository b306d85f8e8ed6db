package io.geobroker.loadgen.daytrading;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.geobroker.loadgen.report.Html;
import io.geobroker.loadgen.report.Svg;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The report of a workload replay: console text, {@code workload.json} (schema {@value #SCHEMA}) and
 * a self-contained {@code workload.html}. {@code replay} holds the file's commands; {@code end}
 * the lines the replayer added after them (the final DISPLAY_SUMMARYs and DUMPLOG).
 */
public record WorkloadReport(String startedAt, String file, String region, String userPrefix, long users,
                             long malformedLines, Map<String, String> conditions, ReplayStats replay, ReplayStats end,
                             List<LogOutcome> logs, List<Invariants.Check> invariants, String invariantsNote, String cpu) {

    public static final String SCHEMA = "geobroker-workload/1";

    /** The course system the figures are compared with (issue 27). */
    public static final String REFERENCE = "the best-documented SENG 462 system: 26.1k average transactions/s, peak 45k, "
            + "on the 1,000-user workload with 12 workers; medians ≈ 25 µs for commands without a price, ≈ 220 µs with "
            + "one; BUY p50 217.5 µs, p99.9 65.7 ms";

    /** A log a DUMPLOG named: where it was written, its size, and whether it validated. */
    public record LogOutcome(String role, long transactionNum, String filename, String file, long bytes, String problem,
                             LogValidator.Validation validation, long millis) {
        public boolean ok() {
            return problem == null && validation != null && validation.valid();
        }

        public String describe() {
            return String.format(Locale.ROOT, "%s [%d] %s -> %s: %s", role, transactionNum, filename, file,
                    problem != null ? "NOT DOWNLOADED (" + problem + ")"
                            : String.format(Locale.ROOT, "%,d bytes, downloaded and checked in %.1f s, XSD %s", bytes,
                            millis / 1000.0, validation.describe()));
        }
    }

    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    public WorkloadReport {
        conditions = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(conditions));
        logs = List.copyOf(logs);
        invariants = List.copyOf(invariants);
    }

    /** No failures: every line answered, every log downloaded and valid, every invariant checked holds. */
    public boolean succeeded() {
        return replay.failed() == 0 && end.failed() == 0 && logs.stream().allMatch(LogOutcome::ok)
                && invariants.stream().allMatch(Invariants.Check::holds);
    }

    public double averagePerSecond() {
        return replay.wallNanos() <= 0 ? 0 : replay.answered() * 1e9 / replay.wallNanos();
    }

    public String title() {
        return "geobroker workload: " + Path.of(file).getFileName() + " at " + region + "'s broker";
    }

    public String console() {
        StringBuilder out = new StringBuilder(title()).append('\n');
        out.append(String.format(Locale.ROOT, "commands: %,d sent, %,d answered (%,d ok, %,d errors by the course's rules), "
                        + "%,d failed; %,d users (prefix %s)%s%n", replay.sent(), replay.answered(), replay.ok(), replay.errors(),
                replay.failed(), users, userPrefix, malformedLines > 0 ? String.format(Locale.ROOT, "; %,d malformed lines",
                        malformedLines) : ""));
        out.append(String.format(Locale.ROOT, "wall %.3f s: average %,.0f transactions/s, peak %,d in a 1 s window%n",
                replay.wallNanos() / 1e9, averagePerSecond(), replay.peakPerSecond()));
        out.append("reference: ").append(REFERENCE).append('\n');
        table(out, "latency (µs), the batch's round trip", replay.roundTrip());
        table(out, "engine time (µs), as the broker reports it", replay.engine());
        if (!replay.errorsByCommand().isEmpty()) {
            out.append("errors by command and cause:\n");
            replay.errorsByCommand().forEach((command, causes) -> causes.forEach((cause, n) ->
                    out.append(String.format(Locale.ROOT, "  %-16s %,8d  %s%n", command, n, cause))));
        }
        failures(out, "failures", replay);
        failures(out, "failures of the added lines", end);
        out.append(String.format(Locale.ROOT, "added after the file: %,d lines (%,d answered)%n", end.sent(), end.answered()));
        out.append("symbols (workload -> broker): ").append(symbolLine()).append('\n');
        for (LogOutcome log : logs) {
            out.append("log: ").append(log.describe()).append('\n');
        }
        out.append("schema: ").append(LogValidator.SCHEMA_NOTE).append('\n');
        for (Invariants.Check check : invariants) {
            out.append("invariant ").append(check.describe()).append('\n');
        }
        if (invariantsNote != null) {
            out.append("invariants: ").append(invariantsNote).append('\n');
        }
        if (!cpu.isEmpty()) {
            out.append("CPU: ").append(cpu).append('\n');
        }
        out.append(succeeded() ? "result: no failures\n" : "result: FAILED (see failures, logs and invariants above)\n");
        return out.toString();
    }

    private static void table(StringBuilder out, String title, List<ReplayStats.Latency> rows) {
        out.append(String.format(Locale.ROOT, "%-40s %9s %9s %9s %9s %9s %9s %9s%n", title, "count", "p50", "p90", "p99",
                "p99.9", "p99.99", "max"));
        for (ReplayStats.Latency l : rows) {
            out.append(String.format(Locale.ROOT, "  %-38s %,9d %9d %9d %9d %9d %9d %9d%n", l.command(), l.count(), l.p50(),
                    l.p90(), l.p99(), l.p999(), l.p9999(), l.max()));
        }
    }

    private static void failures(StringBuilder out, String title, ReplayStats stats) {
        if (!stats.failures().isEmpty()) {
            out.append(title).append(": ");
            stats.failures().forEach((cause, n) -> out.append(String.format(Locale.ROOT, "%,d lines: %s; ", n, cause)));
            out.append('\n');
        }
    }

    private String symbolLine() {
        List<String> pairs = new ArrayList<>();
        replay.symbols().forEach((from, to) -> pairs.add(from + "->" + to));
        return (pairs.isEmpty() ? "none seen" : String.join(" ", pairs))
                + (replay.symbolConflicts() > 0 ? " (" + replay.symbolConflicts() + " answers mapped a symbol differently)" : "");
    }

    public String json() {
        ObjectNode root = JSON.createObjectNode();
        root.put("schema", SCHEMA).put("startedAt", startedAt).put("file", file).put("region", region)
                .put("userPrefix", userPrefix).put("users", users).put("malformedLines", malformedLines)
                .put("succeeded", succeeded());
        ObjectNode c = root.putObject("conditions");
        conditions.forEach(c::put);
        root.put("sent", replay.sent()).put("answered", replay.answered()).put("ok", replay.ok())
                .put("errors", replay.errors()).put("failed", replay.failed()).put("wallNanos", replay.wallNanos())
                .put("averagePerSecond", Math.round(averagePerSecond() * 10) / 10.0)
                .put("peakPerSecond", replay.peakPerSecond());
        ArrayNode windows = root.putArray("answeredPerSecond");
        for (long n : replay.perSecond()) {
            windows.add(n);
        }
        latencies(root.putArray("latencyMicros"), replay.roundTrip());
        latencies(root.putArray("engineMicros"), replay.engine());
        ObjectNode errors = root.putObject("errorsByCommand");
        replay.errorsByCommand().forEach((command, causes) -> {
            ObjectNode n = errors.putObject(command);
            causes.forEach(n::put);
        });
        ObjectNode failures = root.putObject("failures");
        replay.failures().forEach(failures::put);
        ObjectNode added = root.putObject("addedLines");
        added.put("sent", end.sent()).put("answered", end.answered()).put("failed", end.failed());
        ObjectNode addedFailures = added.putObject("failures");
        end.failures().forEach(addedFailures::put);
        ObjectNode symbols = root.putObject("symbols");
        replay.symbols().forEach(symbols::put);
        root.put("symbolConflicts", replay.symbolConflicts());
        root.put("schemaNote", LogValidator.SCHEMA_NOTE);
        ArrayNode logNodes = root.putArray("logs");
        for (LogOutcome log : logs) {
            ObjectNode n = logNodes.addObject().put("role", log.role()).put("transactionNum", log.transactionNum())
                    .put("filename", log.filename()).put("file", log.file()).put("bytes", log.bytes()).put("millis", log.millis())
                    .put("problem", log.problem()).put("valid", log.validation() != null && log.validation().valid());
            if (log.validation() != null) {
                n.put("wellFormed", log.validation().wellFormed()).put("validationErrors", log.validation().errors());
                ArrayNode first = n.putArray("firstValidationErrors");
                log.validation().firstErrors().forEach(first::add);
            }
        }
        ArrayNode checks = root.putArray("invariants");
        for (Invariants.Check check : invariants) {
            ArrayNode first = checks.addObject().put("name", check.name()).put("rule", check.rule())
                    .put("users", check.users()).put("totals", check.totals()).put("mismatches", check.mismatches())
                    .put("holds", check.holds())
                    .putArray("firstMismatches");
            check.first().forEach(first::add);
        }
        root.put("invariantsNote", invariantsNote);
        root.put("cpu", cpu);
        root.put("reference", REFERENCE);
        try {
            return JSON.writeValueAsString(root) + "\n";
        } catch (IOException e) {
            throw new IllegalStateException("cannot encode the report", e);
        }
    }

    private static void latencies(ArrayNode array, List<ReplayStats.Latency> rows) {
        for (ReplayStats.Latency l : rows) {
            array.addObject().put("command", l.command()).put("count", l.count()).put("p50", l.p50()).put("p90", l.p90())
                    .put("p99", l.p99()).put("p999", l.p999()).put("p9999", l.p9999()).put("max", l.max())
                    .put("mean", Math.round(l.mean() * 10) / 10.0);
        }
    }

    public String html() {
        StringBuilder body = new StringBuilder("<h1>").append(Html.escape(title())).append("</h1>\n");
        body.append("<p class='note'>Started ").append(Html.escape(startedAt)).append(", user prefix <b>")
                .append(Html.escape(userPrefix)).append("</b>, ").append(users).append(" users. ")
                .append(succeeded() ? "No failures." : "<span class='bad'>FAILED: see failures, logs and invariants.</span>")
                .append("</p>\n<h2>Summary</h2>\n<table>\n");
        row(body, "commands sent / answered", String.format(Locale.ROOT, "%,d / %,d", replay.sent(), replay.answered()));
        row(body, "ok / errors by the course's rules", String.format(Locale.ROOT, "%,d / %,d", replay.ok(), replay.errors()));
        row(body, "failed (no answer)", String.format(Locale.ROOT, "%,d", replay.failed()));
        row(body, "wall time", String.format(Locale.ROOT, "%.3f s", replay.wallNanos() / 1e9));
        row(body, "average transactions/s", String.format(Locale.ROOT, "%,.0f", averagePerSecond()));
        row(body, "peak transactions/s (1 s window)", String.format(Locale.ROOT, "%,d", replay.peakPerSecond()));
        row(body, "CPU", cpu.isEmpty() ? "not measured" : cpu);
        row(body, "reference", REFERENCE);
        body.append("</table>\n");
        long[] windows = replay.perSecond();
        double[] xs = new double[windows.length];
        double[] ys = new double[windows.length];
        for (int i = 0; i < windows.length; i++) {
            xs[i] = i;
            ys[i] = windows[i];
        }
        body.append(Svg.timeChart("Answered commands per 1 s window", "per second",
                List.of(new Svg.Series("transactions/s", xs, ys)), windows.length));
        htmlTable(body, "Latency per command (µs): the batch's round trip", replay.roundTrip());
        htmlTable(body, "Engine time per command (µs), as the broker reports it", replay.engine());
        body.append("<h2>Errors by command and cause</h2>\n<table><tr><th class='l'>command</th><th>count</th>"
                + "<th class='l'>cause</th></tr>\n");
        replay.errorsByCommand().forEach((command, causes) -> causes.forEach((cause, n) -> body.append(String.format(
                Locale.ROOT, "<tr><td class='l'>%s</td><td>%,d</td><td class='l'>%s</td></tr>%n", Html.escape(command), n,
                Html.escape(cause)))));
        body.append("</table>\n<h2>Failures</h2>\n<table>\n");
        replay.failures().forEach((cause, n) -> row(body, cause, String.format(Locale.ROOT, "%,d lines", n)));
        end.failures().forEach((cause, n) -> row(body, "added lines: " + cause, String.format(Locale.ROOT, "%,d lines", n)));
        body.append("</table>\n<h2>Logs (DUMPLOG)</h2>\n<ul>\n");
        logs.forEach(l -> body.append("<li").append(l.ok() ? "" : " class='bad'").append('>')
                .append(Html.escape(l.describe())).append("</li>\n"));
        body.append("</ul>\n<p class='note'>Schema: ").append(Html.escape(LogValidator.SCHEMA_NOTE)).append(".</p>\n");
        body.append("<h2>Invariants</h2>\n<ul>\n");
        invariants.forEach(c -> body.append("<li").append(c.holds() ? "" : " class='bad'").append('>')
                .append(Html.escape(c.describe())).append("</li>\n"));
        if (invariantsNote != null) {
            body.append("<li>").append(Html.escape(invariantsNote)).append("</li>\n");
        }
        body.append("</ul>\n<h2>Symbols (workload → broker)</h2>\n<p>").append(Html.escape(symbolLine())).append("</p>\n");
        body.append("<h2>Conditions</h2>\n<table>\n");
        conditions.forEach((k, v) -> row(body, k, v));
        body.append("</table>\n<p class='note'>A command's latency is its batch's round trip (send to answer; the server "
                + "answers once the batch's effects are durable); HdrHistogram, 3 significant digits. Transactions/s: answered "
                + "commands of the file per second of wall time (first batch sent to last answer).</p>\n");
        return Html.page(title(), body.toString());
    }

    private static void row(StringBuilder body, String name, String value) {
        body.append("<tr><th class='l'>").append(Html.escape(name)).append("</th><td class='l'>").append(Html.escape(value))
                .append("</td></tr>\n");
    }

    private static void htmlTable(StringBuilder body, String title, List<ReplayStats.Latency> rows) {
        body.append("<h2>").append(Html.escape(title)).append("</h2>\n<table><tr><th class='l'>command</th><th>count</th>"
                + "<th>p50</th><th>p90</th><th>p99</th><th>p99.9</th><th>p99.99</th><th>max</th><th>mean</th></tr>\n");
        for (ReplayStats.Latency l : rows) {
            body.append(String.format(Locale.ROOT, "<tr><td class='l'>%s</td><td>%,d</td><td>%d</td><td>%d</td><td>%d</td>"
                            + "<td>%d</td><td>%d</td><td>%d</td><td>%.0f</td></tr>%n", Html.escape(l.command()), l.count(),
                    l.p50(), l.p90(), l.p99(), l.p999(), l.p9999(), l.max(), l.mean()));
        }
        body.append("</table>\n");
    }

    /** The files written: {@code workload.json} and {@code workload.html} in {@code dir}. */
    public record Written(Path json, Path html) {
    }

    public Written write(Path dir) throws IOException {
        Files.createDirectories(dir);
        Written w = new Written(dir.resolve("workload.json"), dir.resolve("workload.html"));
        Files.writeString(w.json(), json(), StandardCharsets.UTF_8);
        Files.writeString(w.html(), html(), StandardCharsets.UTF_8);
        return w;
    }
}
