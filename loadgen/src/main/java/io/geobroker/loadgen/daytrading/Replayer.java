package io.geobroker.loadgen.daytrading;

import io.geobroker.loadgen.driver.BrokerClient;
import io.geobroker.loadgen.driver.ProcessCpu;
import io.geobroker.loadgen.driver.ProgressBar;
import io.geobroker.loadgen.driver.Target;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.ForkJoinPool;
import java.util.stream.Collectors;

/**
 * Replays a day-trading workload file against one region's broker ({@link BatchScheduler}), downloads
 * and validates every log a DUMPLOG names, then — after a settle for trigger fills still under
 * way — asks every user's DISPLAY_SUMMARY and a final admin DUMPLOG, checks the {@link Invariants}
 * against that log and reports ({@link WorkloadReport}).
 */
public final class Replayer {

    /** The final DUMPLOG's file name, under the output directory. */
    static final String FINAL_LOG = "./geobroker-final-LOG";

    /**
     * @param readAhead      lines of the file held in memory at most, waiting for their user's turn
     * @param settle         wait after the file's last answer before the summaries (trigger fills driven by tickers)
     * @param finalDumplog   ask for the admin log after the summaries (the invariants are checked against it)
     * @param out            the report's directory; DUMPLOG file names are resolved under it
     */
    public record Settings(Path file, String region, String userPrefix, int batchSize, int concurrency, int readAhead,
                           Duration requestTimeout, Duration downloadTimeout, Duration readyTimeout, Duration settle,
                           boolean finalDumplog, Path out, boolean progress) {
    }

    /** What runs between the file's last answer and the settle (the local stack pauses its ticker service). */
    public interface BeforeSettle {
        void run() throws Exception;
    }

    private final Target target;
    private final Settings s;
    private final Target.RegionTarget region;
    private final LogValidator validator = new LogValidator();
    private final List<WorkloadReport.LogOutcome> logs = new ArrayList<>();
    private final Set<String> users = new HashSet<>();
    private final Map<String, CommandResult> summaries = new TreeMap<>();
    /** The file of the last admin log downloaded well-formed, for the invariants. */
    private Path lastAdminLog;
    private String lastAdminLogRole;

    private Replayer(Target target, Settings s) {
        this.target = target;
        this.s = s;
        this.region = target.regions().stream().filter(r -> r.name().equals(s.region())).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("--region " + s.region() + " is not a region of the target ("
                        + target.regions().stream().map(Target.RegionTarget::name).collect(Collectors.joining(", ")) + ")"));
    }

    /**
     * Replays {@link Settings#file} against {@code target}, prints the report and writes it under
     * {@link Settings#out}. {@code processes}: the deployment's processes on this machine, for the CPU line.
     */
    public static WorkloadReport run(Target target, Settings s, List<ProcessCpu.Group> processes,
                                     Map<String, String> extraConditions, BeforeSettle beforeSettle) throws Exception {
        return new Replayer(target, s).run(processes, extraConditions, beforeSettle);
    }

    private WorkloadReport run(List<ProcessCpu.Group> processes, Map<String, String> extraConditions,
                               BeforeSettle beforeSettle) throws Exception {
        String startedAt = Instant.now().truncatedTo(ChronoUnit.SECONDS).toString();
        long totalLines = WorkloadFile.countLines(s.file());
        ProgressBar progress = new ProgressBar(System.err, s.progress());
        System.err.println("Checking the deployment: " + target);
        awaitUp();
        List<ProcessCpu.Group> measured = new ArrayList<>(processes);
        measured.add(ProcessCpu.loadGenerator());
        ReplayStats replay = new ReplayStats();
        ReplayStats end = new ReplayStats();
        BatchScheduler scheduler = new BatchScheduler(s.batchSize(), s.concurrency(), s.readAhead());
        long malformed;
        long lastTransactionNum;
        String cpu;
        try (DayTradingClient client = new DayTradingClient(region.brokerUrl(), target.adminToken(), s.requestTimeout(),
                s.downloadTimeout())) {
            System.err.printf(Locale.ROOT, "Replaying %s (%,d lines) at %s's broker %s, users prefixed %s ...%n", s.file(),
                    totalLines, region.name(), region.brokerUrl(), s.userPrefix());
            ProcessCpu.Reading cpuBefore = ProcessCpu.read(measured);
            long[] lastDraw = {0};
            try (WorkloadFile file = new WorkloadFile(s.file(), s.userPrefix())) {
                Iterator<WorkloadLine> lines = new Iterator<>() {
                    public boolean hasNext() {
                        return file.hasNext();
                    }

                    public WorkloadLine next() {
                        WorkloadLine line = file.next();
                        if (line.user() != null) {
                            users.add(line.user());
                        }
                        return line;
                    }
                };
                replay.start(System.nanoTime());
                scheduler.run(lines, client::send, (batch, answer, failure, sent, answered) -> {
                    handle(client, replay, batch, answer, failure, sent, answered, "workload DUMPLOG");
                    long now = System.nanoTime();
                    if (now - lastDraw[0] > 200_000_000L) {
                        lastDraw[0] = now;
                        progress.update(replay.sent(), totalLines, String.format(Locale.ROOT,
                                "%,d/%,d commands, %,d errors, %,d failed", replay.answered(), totalLines, replay.errors(),
                                replay.failed()));
                    }
                });
                malformed = file.malformed();
                lastTransactionNum = file.lastTransactionNum();
            }
            ProcessCpu.Reading cpuAfter = ProcessCpu.read(measured);
            cpu = ProcessCpu.describe(cpuBefore, cpuAfter, Runtime.getRuntime().availableProcessors()).orElse("");
            progress.update(totalLines, totalLines, String.format(Locale.ROOT, "%,d commands answered", replay.answered()));
            progress.finish();

            beforeSettle.run();
            System.err.printf(Locale.ROOT, "Settling %d ms, then DISPLAY_SUMMARY of each of the %,d users%s ...%n",
                    s.settle().toMillis(), users.size(), s.finalDumplog() ? " and a final admin DUMPLOG" : "");
            Thread.sleep(s.settle().toMillis());
            List<WorkloadLine> added = new ArrayList<>();
            long n = lastTransactionNum;
            for (String user : new TreeSet<>(users)) {
                added.add(WorkloadLine.parse("[" + (++n) + "] DISPLAY_SUMMARY," + user));
            }
            if (s.finalDumplog()) {
                added.add(WorkloadLine.parse("[" + (++n) + "] DUMPLOG," + FINAL_LOG));
            }
            end.start(System.nanoTime());
            scheduler.run(added.iterator(), client::send, (batch, answer, failure, sent, answered) -> {
                handle(client, end, batch, answer, failure, sent, answered, "final DUMPLOG");
                List<CommandResult> results = answer == null ? List.of() : answer.results();
                for (int i = 0; i < batch.size() && i < results.size(); i++) {
                    if ("DISPLAY_SUMMARY".equals(batch.get(i).command())) {
                        summaries.put(batch.get(i).user(), results.get(i));
                    }
                }
            });
        }
        List<Invariants.Check> checks = new ArrayList<>();
        String note = checkInvariants(checks);
        Map<String, String> conditions = new LinkedHashMap<>();
        conditions.put("target", target.description());
        conditions.put("broker", region.name() + " at " + region.brokerUrl());
        conditions.put("replay", String.format(Locale.ROOT, "batches of up to %d lines, %d in flight, %,d lines read ahead "
                        + "at most; request timeout %d s; settle %d ms", s.batchSize(), s.concurrency(), s.readAhead(),
                s.requestTimeout().toSeconds(), s.settle().toMillis()));
        conditions.put("load generator JVM", System.getProperty("java.vm.name") + " " + System.getProperty("java.version")
                + ", max heap " + Runtime.getRuntime().maxMemory() / (1024 * 1024) + " MB, "
                + Runtime.getRuntime().availableProcessors() + " cores");
        conditions.putAll(extraConditions);
        WorkloadReport report = new WorkloadReport(startedAt, s.file().toString(), region.name(), s.userPrefix(), users.size(),
                malformed, conditions, replay, end, logs, checks, note, cpu);
        System.out.print(report.console());
        WorkloadReport.Written files = report.write(s.out());
        System.out.println("Report: " + files.html().toAbsolutePath() + " (also " + files.json().getFileName() + ")");
        return report;
    }

    /** Waits until the region's broker answers UP, or fails once the ready timeout has passed. */
    private void awaitUp() throws InterruptedException {
        long deadline = System.nanoTime() + s.readyTimeout().toNanos();
        try (BrokerClient broker = new BrokerClient(region.name(), region.brokerUrl(), Duration.ofSeconds(3),
                Duration.ofSeconds(10), ForkJoinPool.commonPool())) {
            String last;
            while (true) {
                try {
                    BrokerClient.Answer health = broker.health();
                    if (health.ok() && health.body() != null && "UP".equals(health.body().path("status").asText())) {
                        return;
                    }
                    last = health.describe();
                } catch (IOException e) {
                    last = e.getClass().getSimpleName() + (e.getMessage() == null ? "" : ": " + e.getMessage());
                }
                if (System.nanoTime() - deadline > 0) {
                    throw new IllegalStateException("broker of region " + region.name() + " at " + region.brokerUrl()
                            + " is not ready after " + s.readyTimeout().toSeconds() + " s (" + last + ")");
                }
                Thread.sleep(500);
            }
        }
    }

    /** Adds the invariants' checks against the last admin log to {@code checks}; returns what the report says of them. */
    private String checkInvariants(List<Invariants.Check> checks) {
        if (lastAdminLog == null) {
            return "not checked: no admin log was downloaded";
        }
        Map<String, CommandResult> expected = new TreeMap<>();
        users.forEach(u -> expected.put(u, summaries.get(u)));
        String prefix = s.userPrefix();
        LogLedger ledger;
        try {
            ledger = LogLedger.read(lastAdminLog, u -> u.startsWith(prefix) && users.contains(u));
        } catch (IOException e) {
            return "not checked: the " + lastAdminLogRole + " cannot be read (" + e.getMessage() + ")";
        }
        checks.addAll(Invariants.check(ledger, expected));
        return "checked against the " + lastAdminLogRole + (lastAdminLogRole.startsWith("final") ? ""
                : " (no final DUMPLOG: trigger fills after it show as mismatches)")
                + "; log entries " + ledger.entries()
                + (ledger.repeatedTriggerFills() > 0 ? "; " + ledger.repeatedTriggerFills() + " trigger fill event(s) repeat "
                + "an earlier one's user and transaction number (a trigger filled in parts, or twice)" : "")
                + (ledger.unknownActions() > 0 ? "; " + ledger.unknownActions() + " accountTransactions neither add nor remove" : "");
    }

    /** Records a batch's outcome and downloads (then validates) the log of each DUMPLOG answered ok. */
    private void handle(DayTradingClient client, ReplayStats stats, List<WorkloadLine> batch,
                        DayTradingClient.BatchAnswer answer, Exception failure, long sent, long answered, String role)
            throws InterruptedException {
        if (failure != null) {
            stats.batch(batch, null, failure.getClass().getSimpleName() + (failure.getMessage() == null ? ""
                    : ": " + failure.getMessage()), sent, answered);
            return;
        }
        if (answer.problem() != null) {
            stats.batch(batch, null, answer.problem(), sent, answered);
            return;
        }
        stats.batch(batch, answer.results(), null, sent, answered);
        for (int i = 0; i < batch.size() && i < answer.results().size(); i++) {
            CommandResult r = answer.results().get(i);
            if (WorkloadLine.DUMPLOG.equals(batch.get(i).command()) && r.ok() && r.log() != null) {
                download(client, batch.get(i), r.log(), role);
            }
        }
    }

    private void download(DayTradingClient client, WorkloadLine line, CommandResult.Log log, String role)
            throws InterruptedException {
        String filename = log.filename() != null ? log.filename() : "LOG-" + line.transactionNum();
        Path file = resolveUnder(s.out(), filename);
        String what = role + (log.user() == null ? "" : " of " + log.user());
        long start = System.nanoTime();
        try {
            DayTradingClient.Download d = client.download(log, file);
            if (!d.ok()) {
                logs.add(new WorkloadReport.LogOutcome(what, line.transactionNum(), filename, file.toString(), 0,
                        d.problem(), null, (System.nanoTime() - start) / 1_000_000));
                return;
            }
            LogValidator.Validation validation = validator.validate(file);
            logs.add(new WorkloadReport.LogOutcome(what, line.transactionNum(), filename, file.toString(), d.bytes(), null,
                    validation, (System.nanoTime() - start) / 1_000_000));
            if (log.user() == null) {
                lastAdminLog = file;
                lastAdminLogRole = what + " [" + line.transactionNum() + "]";
            }
        } catch (IOException e) {
            logs.add(new WorkloadReport.LogOutcome(what, line.transactionNum(), filename, file.toString(), 0,
                    e.getClass().getSimpleName() + ": " + e.getMessage(), null, (System.nanoTime() - start) / 1_000_000));
        }
    }

    /**
     * A DUMPLOG's file name ({@code ./testLOG}) as a file under {@code dir}; a name that would leave
     * {@code dir} ({@code ../x}, an absolute path) keeps only its last element.
     */
    static Path resolveUnder(Path dir, String filename) {
        Path base = dir.toAbsolutePath().normalize();
        Path resolved = base.resolve(filename).normalize();
        if (resolved.startsWith(base) && !resolved.equals(base)) {
            return resolved;
        }
        Path last = Path.of(filename).getFileName();
        return base.resolve(last == null || last.toString().equals("..") ? "LOG" : last.toString());
    }
}
