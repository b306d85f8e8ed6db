package io.geobroker.loadgen;

import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.nio.file.Path;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * {@code loadgen down}: stops what {@code up} started in the same work directory, by the pid it
 * wrote: a SIGTERM to that one process, whose shutdown stops its brokers, ticker service and
 * stack in reverse order.
 */
@Command(name = "down", mixinStandardHelpOptions = true,
        description = "Stop the local system that `up` started (its brokers, ticker service, Kafka and Cassandra).")
public final class DownCommand implements Callable<Integer> {

    @Option(names = "--work-dir", description = "The work directory `up` used (default: <repository>/.up).")
    Path workDir;

    @Option(names = "--timeout-seconds", defaultValue = "120", description = "How long to wait for it to stop. "
            + "Default: ${DEFAULT-VALUE}.")
    long timeoutSeconds;

    @Override
    public Integer call() throws Exception {
        Path dir = (workDir != null ? workDir : DemoCommand.repositoryRoot().resolve(".up")).toAbsolutePath();
        Optional<ProcessHandle> up = UpCommand.runningUp(dir);
        if (up.isEmpty()) {
            System.err.println("Nothing is up in " + dir + ".");
            return 0;
        }
        ProcessHandle process = up.get();
        System.err.println("Stopping pid " + process.pid() + " (its brokers, ticker service and stack) ...");
        process.destroy();
        try {
            process.onExit().get(timeoutSeconds, TimeUnit.SECONDS);
        } catch (TimeoutException e) {
            System.err.println("Still running after " + timeoutSeconds + " s: pid " + process.pid());
            return 1;
        }
        System.err.println("Stopped.");
        return 0;
    }
}
