package io.geobroker.loadgen;

import io.geobroker.loadgen.report.ReportWriter;
import io.geobroker.loadgen.report.RunReport;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.nio.file.Path;
import java.util.concurrent.Callable;

/** {@code loadgen report}: prints a saved report again and rewrites its HTML and CSV files. */
@Command(name = "report", mixinStandardHelpOptions = true,
        description = "Print a saved report.json again and write its HTML and CSV files.")
public final class ReportCommand implements Callable<Integer> {

    @Option(names = "--from", required = true, description = "A report.json written by demo or run.")
    Path from;

    @Option(names = "--out", defaultValue = "loadgen-report", description = "Directory for the files. Default: ${DEFAULT-VALUE}.")
    Path out;

    @Override
    public Integer call() throws Exception {
        RunReport report = ReportWriter.readJson(from);
        System.out.print(ReportWriter.console(report));
        ReportWriter.Written files = ReportWriter.writeAll(report, out);
        System.out.println("Report: " + files.html().toAbsolutePath());
        return 0;
    }
}
