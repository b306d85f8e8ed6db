package io.geobroker.loadgen;

import io.geobroker.loadgen.calc.CalcCommand;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * The {@code loadgen} command line: {@code demo} (the local two-region system under load),
 * {@code up} / {@code down} (the local system left running for a person), {@code run} (drive an
 * already-running deployment), {@code ack-bench} (order acknowledgements over REST or FIX),
 * {@code workload} (replay or generate a day-trading workload file) and {@code calc} (cost and
 * write amplification). Exit codes:
 * 0 success, 1 the run failed (unreachable, not ready, errors), 2 bad usage.
 */
@Command(name = "loadgen", mixinStandardHelpOptions = true, version = "geobroker loadgen 0.1.0",
        description = "geobroker load generator, latency report and cost calculator.",
        subcommands = {CalcCommand.class, RunCommand.class, DemoCommand.class, UpCommand.class, DownCommand.class,
                AckBenchCommand.class, WorkloadCommand.class,
                ReportCommand.class, CommandLine.HelpCommand.class})
public final class Loadgen implements Runnable {

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    public static void main(String[] args) {
        System.exit(execute(args));
    }

    /** Runs the command line and returns its exit code (for tests and {@link #main}). */
    public static int execute(String... args) {
        CommandLine cli = new CommandLine(new Loadgen());
        cli.setExecutionExceptionHandler((e, commandLine, parseResult) -> {
            commandLine.getErr().println();
            commandLine.getErr().println("loadgen: " + describe(e));
            return 1;
        });
        return cli.execute(args);
    }

    /** The message a user can act on: ours as is, others with their type and cause. */
    static String describe(Throwable e) {
        if (e instanceof IllegalArgumentException || e instanceof IllegalStateException) {
            return e.getMessage();
        }
        StringBuilder message = new StringBuilder(e.getClass().getSimpleName() + ": " + e.getMessage());
        for (Throwable cause = e.getCause(); cause != null && cause != cause.getCause(); cause = cause.getCause()) {
            message.append(" (").append(cause.getClass().getSimpleName()).append(": ").append(cause.getMessage()).append(")");
        }
        return message.toString();
    }

    @Override
    public void run() {
        throw new CommandLine.ParameterException(spec.commandLine(), "choose a command: demo, up, down, run, ack-bench, workload or calc");
    }
}
