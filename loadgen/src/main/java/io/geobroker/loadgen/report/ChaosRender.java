package io.geobroker.loadgen.report;

import java.util.Locale;

/**
 * The chaos scenario's part of a report as Markdown (the console prints it and {@code chaos.md}
 * holds it) and as HTML: the faults' time lines, then the invariants table.
 */
final class ChaosRender {

    private ChaosRender() {
    }

    static String markdown(ChaosReport chaos) {
        StringBuilder out = new StringBuilder();
        String nl = System.lineSeparator();
        out.append(nl).append("## Faults (seconds from the start of the measured phase)").append(nl).append(nl);
        out.append("| fault | region | what was done | start | end | served again | after | served again means |").append(nl);
        out.append("|---|---|---|---:|---:|---:|---:|---|").append(nl);
        for (ChaosReport.Fault f : chaos.faults()) {
            out.append(String.format(Locale.ROOT, "| %s | %s | %s | %.1f | %.1f | %s | %s | %s |%n", f.fault(), f.region(),
                    cell(f.what()), f.startMillis() / 1000.0, f.endMillis() / 1000.0, servedAt(f), recovery(f),
                    cell(f.servedAgainAs())));
        }
        chaos.notes().forEach(n -> out.append(nl).append("Note: ").append(n).append(nl));
        out.append(nl).append("## Invariants").append(nl).append(nl);
        out.append("| invariant | holds | figures | what it checks |").append(nl).append("|---|---|---|---|").append(nl);
        for (ChaosReport.Invariant i : chaos.invariants()) {
            out.append("| ").append(i.name()).append(" | ").append(i.holds() ? "yes" : "**NO**").append(" | ")
                    .append(cell(i.figures())).append(" | ").append(cell(i.checks())).append(" |").append(nl);
        }
        out.append(nl).append(chaos.passed() ? "Every invariant held and every fault was served again."
                : "FAILED: an invariant does not hold or a fault was not served again.").append(nl);
        return out.toString();
    }

    static String html(ChaosReport chaos) {
        StringBuilder body = new StringBuilder();
        body.append("<h2>Faults (seconds from the start of the measured phase)</h2>\n<table class='conditions'><tr>"
                + "<th class='l'>fault</th><th class='l'>region</th><th class='l'>what was done</th><th>start</th><th>end</th>"
                + "<th>served again</th><th>after</th><th class='l'>served again means</th></tr>\n");
        for (ChaosReport.Fault f : chaos.faults()) {
            body.append(String.format(Locale.ROOT, "<tr><td class='l'>%s</td><td class='l'>%s</td><td class='l'>%s</td>"
                            + "<td>%.1f</td><td>%.1f</td><td%s>%s</td><td>%s</td><td class='l'>%s</td></tr>%n",
                    Html.escape(f.fault()), Html.escape(f.region()), Html.escape(f.what()), f.startMillis() / 1000.0,
                    f.endMillis() / 1000.0, f.servedAgain() ? "" : " class='bad'", servedAt(f), recovery(f),
                    Html.escape(f.servedAgainAs())));
        }
        body.append("</table>\n");
        chaos.notes().forEach(n -> body.append("<p class='note'>").append(Html.escape(n)).append("</p>\n"));
        body.append("<h2>Invariants</h2>\n<table class='conditions'><tr><th class='l'>invariant</th><th>holds</th>"
                + "<th class='l'>figures</th><th class='l'>what it checks</th></tr>\n");
        for (ChaosReport.Invariant i : chaos.invariants()) {
            body.append("<tr><td class='l'>").append(Html.escape(i.name())).append("</td><td")
                    .append(i.holds() ? ">yes" : " class='bad'><b>NO</b>").append("</td><td class='l'>")
                    .append(Html.escape(i.figures())).append("</td><td class='l'>").append(Html.escape(i.checks()))
                    .append("</td></tr>\n");
        }
        body.append("</table>\n");
        return body.toString();
    }

    private static String servedAt(ChaosReport.Fault f) {
        return f.servedAgain() ? String.format(Locale.ROOT, "%.1f", f.servedAgainMillis() / 1000.0) : "never";
    }

    private static String recovery(ChaosReport.Fault f) {
        return f.servedAgain() ? String.format(Locale.ROOT, "%.1f s", f.recoverySeconds()) : "-";
    }

    private static String cell(String text) {
        return text.replace("|", "\\|");
    }
}
