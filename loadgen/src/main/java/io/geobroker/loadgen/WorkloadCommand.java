package io.geobroker.loadgen;

import io.geobroker.domain.Topics;
import io.geobroker.domain.Topology;
import io.geobroker.loadgen.daytrading.Replayer;
import io.geobroker.loadgen.daytrading.WorkloadGenerator;
import io.geobroker.loadgen.daytrading.WorkloadReport;
import io.geobroker.loadgen.demo.Demo;
import io.geobroker.loadgen.driver.Driver;
import io.geobroker.loadgen.driver.Target;
import io.geobroker.loadgen.driver.TickerRateClient;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;

/**
 * {@code loadgen workload FILE}: replays a day-trading workload file (SENG 462's format) against one
 * region's broker and reports throughput, latency per command, errors, the DUMPLOGs' validation and
 * the end-of-run invariants; {@code loadgen workload --generate OUT} writes such a file. Without
 * {@code --target} it starts and stops the demo's local system, its ticker service at
 * {@code --tickers-per-second} during the replay and paused before the final summaries.
 */
@Command(name = "workload", mixinStandardHelpOptions = true,
        description = "Replay a day-trading workload file (lines '[N] COMMAND,field,...') against one region's broker, "
                + "users concurrently and each user's commands in order, in batches; download and validate every "
                + "DUMPLOG's log; check cash, shares and trigger fills per user at the end; print and write the report "
                + "(workload.json, workload.html). With --generate, write a workload file instead.")
public final class WorkloadCommand implements Callable<Integer> {

    @Parameters(arity = "0..1", paramLabel = "FILE", description = "The workload file to replay.")
    Path file;

    @Option(names = "--generate", paramLabel = "OUT", description = "Write a workload file with the course's command mix "
            + "to OUT instead of replaying one.")
    Path generate;

    @Option(names = "--users", defaultValue = "1000", description = "With --generate: users. Default: ${DEFAULT-VALUE}.")
    int users;

    @Option(names = "--commands", defaultValue = "1000000", description = "With --generate: lines, the final DUMPLOG "
            + "included. Default: ${DEFAULT-VALUE}.")
    long commands;

    @Option(names = "--seed", defaultValue = "42", description = "With --generate: the same seed writes the same file. "
            + "Default: ${DEFAULT-VALUE}.")
    long seed;

    @Option(names = "--region", defaultValue = "nvirginia", description = "The region whose broker the lines go to. "
            + "Default: ${DEFAULT-VALUE}.")
    String region;

    @Option(names = "--batch", defaultValue = "1000", description = "Lines per batch at most (the broker takes up to "
            + "1000). Default: ${DEFAULT-VALUE}.")
    int batch;

    @Option(names = "--concurrency", defaultValue = "4", description = "Batches in flight at once. Default: ${DEFAULT-VALUE}.")
    int concurrency;

    @Option(names = "--read-ahead", defaultValue = "20000", description = "Lines of the file held in memory at most while "
            + "they wait for their user's earlier lines. Default: ${DEFAULT-VALUE}.")
    int readAhead;

    @Option(names = "--user-prefix", description = "Put before every user id (default: a fresh run id such as w3k9x-, so "
            + "that a rerun on the same system starts every user from zero).")
    String userPrefix;

    @Option(names = "--settle", defaultValue = "2s", converter = WorkloadOptions.DurationConverter.class,
            description = "Wait after the file's last answer before the final DISPLAY_SUMMARYs, for trigger fills under "
                    + "way. Default: ${DEFAULT-VALUE}.")
    Duration settle;

    @Option(names = "--no-final-dumplog", negatable = false, description = "Do not ask for the admin log after the "
            + "summaries (the invariants then use the workload's last admin DUMPLOG, if any).")
    boolean noFinalDumplog;

    @Option(names = "--request-timeout", defaultValue = "60s", converter = WorkloadOptions.DurationConverter.class,
            description = "Bound on one batch's answer; a batch without one fails. Default: ${DEFAULT-VALUE}.")
    Duration requestTimeout;

    @Option(names = "--download-timeout", defaultValue = "600s", converter = WorkloadOptions.DurationConverter.class,
            description = "Bound on downloading one DUMPLOG's log. Default: ${DEFAULT-VALUE}.")
    Duration downloadTimeout;

    @Option(names = "--tickers-per-second", defaultValue = "50", description = "Without --target: the ticker service's "
            + "rate during the replay (prices for quotes and trigger fills). Default: ${DEFAULT-VALUE}.")
    double tickersPerSecond;

    @Option(names = "--out", defaultValue = "loadgen-report/workload", description = "Directory of the report "
            + "(workload.json, workload.html) and of the DUMPLOGs' files. Default: ${DEFAULT-VALUE}.")
    Path out;

    @Option(names = "--no-progress", negatable = false, description = "No progress bar on stderr.")
    boolean noProgress;

    @CommandLine.Mixin
    StackOptions stack;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    /** The replay's settings from the options; bad ones are usage errors (exit 2). */
    Replayer.Settings settings() {
        if (file == null) {
            throw StackOptions.usage(spec, "name the workload FILE to replay, or --generate OUT");
        }
        if (!Files.isRegularFile(file)) {
            throw StackOptions.usage(spec, file + ": no such file");
        }
        if (batch < 1 || batch > 1000) {
            throw StackOptions.usage(spec, "--batch must be from 1 to 1000 (the broker's limit)");
        }
        if (concurrency < 1 || concurrency > 256) {
            throw StackOptions.usage(spec, "--concurrency must be from 1 to 256");
        }
        if (readAhead < batch) {
            throw StackOptions.usage(spec, "--read-ahead must be at least --batch");
        }
        String prefix = userPrefix != null ? userPrefix : freshPrefix();
        if (!prefix.matches("[A-Za-z0-9_-]{0,20}")) {
            throw StackOptions.usage(spec, "--user-prefix may hold up to 20 letters, digits, '_' and '-' (the broker's "
                    + "user names)");
        }
        for (Duration d : List.of(requestTimeout, downloadTimeout, stack.readyTimeout, stack.startTimeout)) {
            if (d.isZero() || d.isNegative()) {
                throw StackOptions.usage(spec, "timeouts must be positive");
            }
        }
        if (settle.isNegative()) {
            throw StackOptions.usage(spec, "--settle must not be negative");
        }
        return new Replayer.Settings(file, region, prefix, batch, concurrency, readAhead, requestTimeout, downloadTimeout,
                stack.readyTimeout, settle, !noFinalDumplog, out, !noProgress);
    }

    /** A short run id, {@code w} and four letters or digits and a dash. */
    static String freshPrefix() {
        String alphabet = "abcdefghijklmnopqrstuvwxyz0123456789";
        SecureRandom random = new SecureRandom();
        StringBuilder s = new StringBuilder("w");
        for (int i = 0; i < 4; i++) {
            s.append(alphabet.charAt(random.nextInt(alphabet.length())));
        }
        return s.append('-').toString();
    }

    /**
     * Gives the ticker service time to tick every symbol twice (it goes round each exchange's symbols
     * in turn), so that the workload's first quotes find a price: 2 to 30 s.
     */
    private void awaitFirstTickers(Topology topology) throws InterruptedException {
        if (tickersPerSecond <= 0) {
            System.err.println("The ticker service is paused (--tickers-per-second 0): quotes find no price until tickers come");
            return;
        }
        int symbols = Driver.symbols(topology.regions().stream().map(Topology.RegionEndpoints::region).toList(),
                Integer.MAX_VALUE).size();
        long seconds = Math.max(2, Math.min(30, (long) Math.ceil(2 * symbols / tickersPerSecond)));
        System.err.printf(Locale.ROOT, "Letting the ticker service tick each of the %d symbols twice (%d s) ...%n", symbols,
                seconds);
        Thread.sleep(seconds * 1000);
    }

    @Override
    public Integer call() throws Exception {
        if (generate != null) {
            if (file != null) {
                throw StackOptions.usage(spec, "either replay FILE or --generate OUT, not both");
            }
            WorkloadGenerator.Settings g;
            try {
                g = new WorkloadGenerator.Settings(users, commands, seed);
            } catch (IllegalArgumentException e) {
                throw StackOptions.usage(spec, e.getMessage());
            }
            WorkloadGenerator.write(generate, g);
            System.out.printf(Locale.ROOT, "Wrote %s: %,d commands of %,d users, seed %d (%,d bytes)%n", generate,
                    commands, users, seed, Files.size(generate));
            return 0;
        }
        Replayer.Settings settings = settings();
        if (tickersPerSecond < 0) {
            throw StackOptions.usage(spec, "--tickers-per-second must not be negative");
        }
        Optional<Target> running = stack.target(spec);
        if (running.isPresent()) {
            WorkloadReport report = Replayer.run(running.get(), settings, List.of(), Map.of(), () -> { });
            return report.succeeded() ? 0 : 1;
        }
        Demo.Settings demoSettings = stack.demoSettings(spec,
                new Demo.TickerService(256, stack.jitOptions(spec), 42, Integer.MAX_VALUE, 0, 0));
        try (Demo demo = new Demo(demoSettings)) {
            Topology topology = demo.start();
            Target target = Target.of(topology, Map.of(), Map.of(), demo.adminToken(), Topics.standard(),
                    "local stack " + stack.addressPrefix() + ".x (" + demo.wanStatus() + ")");
            TickerRateClient tickers = new TickerRateClient(demo.tickerServiceUrl().orElseThrow(), Duration.ofSeconds(5));
            tickers.set(tickersPerSecond);
            awaitFirstTickers(topology);
            Map<String, String> conditions = new LinkedHashMap<>();
            conditions.put("deployment", stack.deployment(String.format(Locale.ROOT, "the ticker service at %.0f tickers/s "
                    + "over every symbol from before the replay (each symbol ticked twice) until the settle, paused then", tickersPerSecond)));
            conditions.put("WAN", demo.wanStatus());
            WorkloadReport report = Replayer.run(target, settings, demo.processGroups(), conditions, () -> tickers.set(0));
            return report.succeeded() ? 0 : 1;
        }
    }
}
