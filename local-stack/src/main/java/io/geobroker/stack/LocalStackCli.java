package io.geobroker.stack;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code local-stack start|stop|status|cut-link|restore-link}: the local stack from the command
 * line. Failures the user can fix print one line, {@code local-stack: <what is wrong>}.
 */
@Command(name = "local-stack", mixinStandardHelpOptions = true,
        description = "A real multi-DC Cassandra cluster, one Kafka broker per region and an emulated WAN, on this machine.",
        subcommands = {LocalStackCli.Start.class, LocalStackCli.Stop.class, LocalStackCli.Status.class,
                LocalStackCli.CutLink.class, LocalStackCli.RestoreLink.class})
public final class LocalStackCli {

    static class DirOption {
        @Option(names = "--dir", defaultValue = ".stack", description = "work directory (default: ${DEFAULT-VALUE})")
        Path dir;
    }

    @Command(name = "start", mixinStandardHelpOptions = true, description = "Starts the stack and waits until it is ready.")
    static final class Start extends DirOption implements Callable<Integer> {
        @Option(names = "--regions", split = ",", defaultValue = "sydney,nvirginia", description = "default: ${DEFAULT-VALUE}")
        List<String> regions;
        @Option(names = "--nodes-per-dc", defaultValue = "1", description = "Cassandra nodes per DC (default: ${DEFAULT-VALUE})")
        int nodesPerDc;
        @Option(names = "--prefix", defaultValue = LocalStack.DEFAULT_PREFIX, description = "address prefix 127.<x> (default: ${DEFAULT-VALUE})")
        String prefix;
        @Option(names = "--wan", defaultValue = "auto", description = "auto|on|off (default: ${DEFAULT-VALUE})")
        WanMode wan;
        @Option(names = "--delay-ms", defaultValue = "115", description = "one-way delay between regions (default: ${DEFAULT-VALUE})")
        long delayMs;
        @Option(names = "--cassandra-heap-mb", defaultValue = "" + LocalStack.DEFAULT_CASSANDRA_HEAP_MB)
        int cassandraHeapMb;
        @Option(names = "--kafka-heap-mb", defaultValue = "256")
        int kafkaHeapMb;
        @Option(names = "--jvm-option", description = "an extra option for every Cassandra and Kafka JVM, after the stack's own "
                + "(C1 only, and -XX:ActiveProcessorCount=1 below 8 cores), so it can override them (repeatable; "
                + "write --jvm-option=-XX:...)")
        List<String> jvmOptions = List.of();
        @Option(names = "--keyspace", defaultValue = "geobroker")
        String keyspace;
        @Option(names = "--no-schema", description = "do not apply the schema")
        boolean noSchema;
        @Option(names = "--synced-commit-log", description = "Cassandra syncs its commit log before it acknowledges a "
                + "write (commitlog_sync: batch), so a SIGKILLed node keeps all it acknowledged; slower (default: every 10 s)")
        boolean syncedCommitLog;
        @Option(names = "--wipe", description = "delete the data of an earlier run first")
        boolean wipe;
        @Option(names = "--foreground", description = "run in this process until Ctrl-C or stop")
        boolean foreground;
        @Option(names = "--watch-parent-pid", description = "stop when this process ends")
        Long watchParentPid;
        @Option(names = "--start-timeout-s", defaultValue = "300")
        long startTimeoutSeconds;

        @Override
        public Integer call() throws InterruptedException {
            LocalStack.Builder builder = LocalStack.builder().workDir(dir).wipe(wipe).regions(regions)
                    .nodesPerDc(nodesPerDc).addressPrefix(prefix).wan(wan).oneWayDelay(Duration.ofMillis(delayMs))
                    .cassandraHeapMb(cassandraHeapMb).kafkaHeapMb(kafkaHeapMb).jvmOptions(jvmOptions).keyspace(keyspace)
                    .applySchema(!noSchema).syncedCommitLog(syncedCommitLog).startTimeout(Duration.ofSeconds(startTimeoutSeconds));
            if (watchParentPid != null) {
                builder.watchParentPid(watchParentPid);
            }
            long t0 = System.nanoTime();
            if (foreground) {
                LocalStack stack = builder.progress(System.out::println).build();
                stack.ownerExitsOnStop = true;
                stack.start();
                System.out.println("local stack ready in " + seconds(System.nanoTime() - t0) + " s (pid "
                        + ProcessHandle.current().pid() + ", Ctrl-C or 'local-stack stop' stops it)");
                System.out.print(stack.describe());
                System.out.flush();
                stack.awaitClosed();
                System.out.println("local stack stopped");
                return 0;
            }
            LocalStack stack = builder.spawn();
            System.out.println("local stack ready in " + seconds(System.nanoTime() - t0) + " s ('local-stack stop"
                    + (dir.equals(Path.of(".stack")) ? "" : " --dir " + dir) + "' stops it)");
            System.out.print(stack.describe());
            return 0;
        }
    }

    @Command(name = "stop", mixinStandardHelpOptions = true, description = "Stops the stack in the work directory.")
    static final class Stop extends DirOption implements Callable<Integer> {
        @Override
        public Integer call() {
            boolean running = StackState.read(dir.toAbsolutePath().normalize()).isPresent();
            LocalStack.stop(dir);
            System.out.println(running ? "local stack stopped" : "no local stack in " + dir.toAbsolutePath().normalize());
            return 0;
        }
    }

    @Command(name = "status", mixinStandardHelpOptions = true, description = "Shows the stack's regions and processes.")
    static final class Status extends DirOption implements Callable<Integer> {
        @Override
        public Integer call() {
            if (!LocalStack.isRunning(dir)) {
                System.out.println("no ready local stack in " + dir.toAbsolutePath().normalize());
                return 3;
            }
            LocalStack stack = LocalStack.attach(dir);
            System.out.print(stack.describe());
            for (LocalStack.ProcessInfo p : stack.processes()) {
                System.out.printf("%-26s pid %-8d %-5s RSS %d MB%n", p.name(), p.pid(), p.alive() ? "up" : "DOWN",
                        p.rssKb() / 1024);
            }
            return 0;
        }
    }

    @Command(name = "cut-link", mixinStandardHelpOptions = true, description = "Cuts the emulated link between two regions.")
    static final class CutLink extends DirOption implements Callable<Integer> {
        @Parameters(index = "0")
        String a;
        @Parameters(index = "1")
        String b;

        @Override
        public Integer call() {
            LocalStack.attach(dir).cutLink(a, b);
            System.out.println("link " + a + " <-> " + b + " cut");
            return 0;
        }
    }

    @Command(name = "restore-link", mixinStandardHelpOptions = true, description = "Restores a cut link.")
    static final class RestoreLink extends DirOption implements Callable<Integer> {
        @Parameters(index = "0")
        String a;
        @Parameters(index = "1")
        String b;

        @Override
        public Integer call() {
            LocalStack.attach(dir).restoreLink(a, b);
            System.out.println("link " + a + " <-> " + b + " restored");
            return 0;
        }
    }

    private static String seconds(long nanos) {
        return String.format("%.1f", nanos / 1e9);
    }

    static int run(java.io.PrintWriter err, String... args) {
        CommandLine cli = new CommandLine(new LocalStackCli());
        cli.setCaseInsensitiveEnumValuesAllowed(true);
        cli.setErr(err);
        cli.setExecutionExceptionHandler((e, cmd, parsed) -> {
            if (e instanceof StackException || e instanceof IllegalArgumentException) {
                cmd.getErr().println(Spawner.ERROR_PREFIX + e.getMessage());
                return 1;
            }
            throw e;
        });
        return cli.execute(args);
    }

    public static void main(String[] args) {
        System.exit(run(new java.io.PrintWriter(System.err, true), args));
    }
}
