package io.geobroker.loadgen;

import io.geobroker.loadgen.report.MarkdownRow;
import io.geobroker.loadgen.report.ReportWriter;
import io.geobroker.loadgen.report.RunReport;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;

/**
 * {@code loadgen report}: prints a saved report again and rewrites its HTML and CSV files, or, with
 * {@code --markdown}, prints the headline figures of one or more reports as a Markdown table.
 */
@Command(name = "report", mixinStandardHelpOptions = true,
        description = "Print a saved report.json again and write its HTML and CSV files, or (--markdown) "
                + "the headline figures of one or more reports as a Markdown table.")
public final class ReportCommand implements Callable<Integer> {

    @Option(names = "--from", required = true, arity = "1..*",
            description = "A report.json written by demo or run (several with --markdown).")
    List<Path> from;

    @Option(names = "--markdown", description = "Print one Markdown table row per report (named by its directory) and write no files.")
    boolean markdown;

    @Option(names = "--out", defaultValue = "loadgen-report", description = "Directory for the files. Default: ${DEFAULT-VALUE}.")
    Path out;

    @Override
    public Integer call() throws Exception {
        if (markdown) {
            System.out.println(MarkdownRow.header());
            for (Path file : from) {
                Path dir = file.toAbsolutePath().getParent();
                System.out.println(MarkdownRow.row(dir == null ? file.toString() : dir.getFileName().toString(),
                        ReportWriter.readJson(file)));
            }
            return 0;
        }
        if (from.size() != 1) {
            System.err.println("report: one --from without --markdown");
            return 2;
        }
        RunReport report = ReportWriter.readJson(from.get(0));
        System.out.print(ReportWriter.console(report));
        ReportWriter.Written files = ReportWriter.writeAll(report, out);
        System.out.println("Report: " + files.html().toAbsolutePath());
        return 0;
    }
}
