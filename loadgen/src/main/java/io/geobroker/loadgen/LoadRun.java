package io.geobroker.loadgen;

import io.geobroker.domain.SymbolInfo;
import io.geobroker.loadgen.calc.Pricing;
import io.geobroker.loadgen.calc.ReplicationModel;
import io.geobroker.loadgen.chaos.ChaosRun;
import io.geobroker.loadgen.driver.BrokerHistogram;
import io.geobroker.loadgen.driver.CassandraCounters;
import io.geobroker.loadgen.driver.CompilerCpu;
import io.geobroker.loadgen.driver.Driver;
import io.geobroker.loadgen.driver.EngineStages;
import io.geobroker.loadgen.driver.ProcessCpu;
import io.geobroker.loadgen.driver.ProgressBar;
import io.geobroker.loadgen.driver.PublisherStages;
import io.geobroker.loadgen.driver.ResourceSampler;
import io.geobroker.loadgen.driver.TickerSource;
import io.geobroker.loadgen.driver.Target;
import io.geobroker.loadgen.driver.Workload;
import io.geobroker.loadgen.metrics.Metrics;
import io.geobroker.loadgen.metrics.SeriesKey;
import io.geobroker.loadgen.report.ChaosReport;
import io.geobroker.loadgen.report.ReportWriter;
import io.geobroker.loadgen.report.Resources;
import io.geobroker.loadgen.report.RunReport;
import io.geobroker.loadgen.report.WanTraffic;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.net.http.HttpClient;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Supplier;
import java.util.stream.Collectors;

/**
 * One load-generator session against a ready {@link Target}: readiness check, customers, the
 * scenario's run(s), and the report (console, HTML, JSON, CSV).
 */
final class LoadRun {

    private static final Duration SWEEP_WARMUP = Duration.ofSeconds(5);
    /** The report's condition that says what the warm-up of the stack's compilers did. */
    static final String JIT_WARMUP = "JIT warm-up before the run (not measured)";
    static final String JIT_MEASURED = "C2 compilers in the measured phase (their threads' CPU time)";

    private LoadRun() {
    }

    /**
     * @param processes  the processes of the deployment on this machine whose CPU the report gives
     *                   (the demo's; none for a deployment elsewhere), besides the load generator's own
     * @param counters   counters of the deployment that only grow, read as the measured phase starts
     *                   and ends: the emulated WAN's bytes each way ({@code wan:<from>-><to>}) and
     *                   Cassandra's own ({@link CassandraCounters}); an empty map without them
     * @param resources  what the resources series samples besides the load generator and the brokers
     *                   (every {@code --resource-interval} of the measured phase; not in a sweep)
     */
    static RunReport execute(Target target, WorkloadOptions options, Driver.Tickers tickers, Duration readyTimeout,
                             String scenarioLabel, Map<String, String> extraConditions, List<ProcessCpu.Group> processes,
                             Supplier<Map<String, Long>> counters, ResourceSampler.Sources resources)
            throws InterruptedException, IOException {
        return execute(target, options, tickers, readyTimeout, scenarioLabel, extraConditions, processes, counters,
                resources, Optional.empty());
    }

    /**
     * @param chaos the chaos scenario's fault schedule, run during the measured phase, and its
     *              invariants checked after the run (the report's {@link RunReport#chaos()})
     */
    static RunReport execute(Target target, WorkloadOptions options, Driver.Tickers tickers, Duration readyTimeout,
                             String scenarioLabel, Map<String, String> extraConditions, List<ProcessCpu.Group> processes,
                             Supplier<Map<String, Long>> counters, ResourceSampler.Sources resources,
                             Optional<ChaosRun> chaos)
            throws InterruptedException, IOException {
        return execute(target, options, tickers, readyTimeout, scenarioLabel, extraConditions, processes, counters,
                resources, chaos, Optional.empty());
    }

    /**
     * @param jitCompilers the C2 compilers' CPU seconds so far of the JVMs the run drives, by JVM: when given, the run's
     *                     workload first runs unmeasured until they are quiet ({@link JitWarmup})
     */
    static RunReport execute(Target target, WorkloadOptions options, Driver.Tickers tickers, Duration readyTimeout,
                             String scenarioLabel, Map<String, String> extraConditions, List<ProcessCpu.Group> processes,
                             Supplier<Map<String, Long>> counters, ResourceSampler.Sources resources,
                             Optional<ChaosRun> chaos, Optional<Supplier<Map<String, Double>>> jitCompilers)
            throws InterruptedException, IOException {
        Workload workload = chaos.isPresent() ? chaos.get().adjust(options.workload()) : options.workload();
        ProgressBar progress = new ProgressBar(System.err, options.progress());
        String runId = "lg" + Long.toString(System.currentTimeMillis(), 36);
        Instant started = Instant.now().truncatedTo(ChronoUnit.SECONDS);
        Map<String, String> conditions = conditions(target, workload, options, tickers, extraConditions);
        RunReport report;
        Optional<Map<String, Long>> phaseCounters = Optional.empty();
        OptionalLong engineMutations = OptionalLong.empty();
        conditions.put("machine load average (1 min) at start", loadAverage());
        try (Driver driver = new Driver(target, progress, runId, tickers)) {
            System.err.println("Checking the deployment: " + target);
            driver.awaitReady(readyTimeout);
            List<SymbolInfo> symbols = driver.symbols(workload.symbolsPerExchange());
            List<Driver.Customer> customers = driver.createCustomers(workload.customersPerRegion(), symbols, options.setupTimeout());
            if (jitCompilers.isPresent()) {
                JitWarmup.Outcome jit = JitWarmup.run(driver, workload, customers, symbols, jitCompilers.get());
                conditions.put(JIT_WARMUP, jit.describe());
            }
            if (options.scenario() == WorkloadOptions.Scenario.SWEEP) {
                report = sweep(driver, workload, options, customers, symbols, started, conditions, scenarioLabel);
            } else {
                Map<String, Optional<BrokerHistogram>> inboxBefore = inboxLag(target);
                Metrics metrics;
                Map<String, Optional<EngineStages>> engines;
                Optional<PublisherStages> publisher;
                Optional<String> cpu;
                List<ProcessCpu.Group> measured = new ArrayList<>(processes);
                measured.add(ProcessCpu.loadGenerator());
                Optional<ChaosReport> chaosReport = Optional.empty();
                Optional<Resources> sampled = Optional.empty();
                Optional<ResourceSampler> sampler = options.resourceInterval().map(every -> ResourceSampler.start(resources,
                        brokers(target), every, PhasePages.DRIVER_START_MILLIS + workload.warmup().toMillis(),
                        workload.duration()));
                try (PhasePages pages = PhasePages.schedule(target, tickers, measured, counters, jitCompilers,
                        workload.warmup(), workload.duration())) {
                    if (chaos.isPresent()) {
                        chaos.get().start(customers, workload.warmup(), PhasePages.DRIVER_START_MILLIS);
                    }
                    metrics = driver.run(workload, customers, symbols, chaos.isPresent() ? "chaos" : "measuring");
                    if (chaos.isPresent()) {
                        chaosReport = Optional.of(chaos.get().finish(metrics, target, customers, symbols));
                    }
                    engines = pages.engines();
                    publisher = pages.publisher();
                    cpu = pages.cpu();
                    pages.compilers().ifPresent(c -> conditions.put(JIT_MEASURED, c));
                    phaseCounters = pages.counters();
                    sampled = sampler.map(ResourceSampler::finish);
                } finally {
                    sampler.ifPresent(ResourceSampler::close);
                }
                cpu.ifPresent(c -> conditions.put("CPU in the measured phase (each process's user and system time)", c));
                publisher.ifPresent(p -> conditions.put("ticker service in the measured phase (its timers)", p.describe()));
                // A broker killed and started again counts from zero: its pages' differences mean nothing.
                Set<String> restarted = chaosReport.map(c -> c.faults().stream().filter(f -> f.fault().equals("broker"))
                        .map(ChaosReport.Fault::region).collect(Collectors.toSet())).orElse(Set.of());
                restarted.forEach(region -> conditions.put("engine of " + region + " in the measured phase (broker timers)",
                        "not reported: the broker was killed and started again in the phase, its counters with it"));
                inboxBefore.keySet().removeAll(restarted);
                engines.keySet().removeAll(restarted);
                inboxLag(target).forEach((region, after) -> after.filter(a -> !restarted.contains(region)).ifPresent(a -> conditions.put(
                        "placed in another region -> matchable in " + region + " (broker histogram, warm-up included)",
                        inboxBefore.getOrDefault(region, Optional.empty()).map(a::minus).orElse(a).describe())));
                engines.forEach((region, stages) -> stages.ifPresent(e -> conditions.put(
                        "engine of " + region + " in the measured phase (broker timers)", e.describe())));
                if (restarted.isEmpty() && !engines.isEmpty() && engines.values().stream().allMatch(Optional::isPresent)) {
                    engineMutations = OptionalLong.of(engines.values().stream().mapToLong(e -> e.get().mutations()).sum());
                }
                report = RunReport.from(metrics, "geobroker load report", scenarioLabel, started.toString(), conditions,
                        workload.duration().toMillis(), List.of());
                if (chaosReport.isPresent()) {
                    report = report.withChaos(chaosReport.get());
                }
                if (sampled.isPresent()) {
                    report = report.withResources(sampled.get());
                }
            }
        }
        Map<String, String> withEnd = new LinkedHashMap<>(report.conditions());
        withEnd.put("machine load average (1 min) at end", loadAverage());
        long fills = report.regions().stream().mapToLong(RunReport.RegionSummary::fills).sum();
        engineMutations.ifPresent(m -> withEnd.put(WanTraffic.MUTATIONS, Long.toString(m)));
        Pricing pricing = Pricing.standard();
        phaseCounters.ifPresent(c -> {
            Map<String, Long> wan = WanTraffic.withPrefix(c, WanTraffic.WAN_PREFIX);
            if (!wan.isEmpty()) {
                withEnd.putAll(WanTraffic.conditions(wan, fills, pricing.defaults().bytesReplicatedPerTrade()));
            }
            String cassandra = WanTraffic.cassandra(c, CassandraCounters.WRITES, CassandraCounters.SENT_TO_OTHER_DCS, fills);
            if (!cassandra.isEmpty()) {
                withEnd.put(WanTraffic.CASSANDRA, cassandra);
            }
        });
        report = new RunReport(report.schema(), report.title(), report.scenario(), report.startedAt(), withEnd,
                report.measuredMillis(), report.regions(), report.series(), report.throughput(), report.sweep(), report.chaos(),
                report.resources());
        ReplicationModel model = pricing.replication();
        OptionalLong predicted = model.predict(report);
        Optional<Long> carried = WanTraffic.total(report, fills);
        if (predicted.isPresent() && carried.isPresent()) {
            withEnd.putAll(WanTraffic.predicted(carried.get(), predicted.getAsLong(), model.describe(), report.measuredMillis(),
                    fills, WanTraffic.mutations(report).orElseThrow()));
            report = new RunReport(report.schema(), report.title(), report.scenario(), report.startedAt(), withEnd,
                    report.measuredMillis(), report.regions(), report.series(), report.throughput(), report.sweep(),
                    report.chaos(), report.resources());
        }
        System.out.print(ReportWriter.console(report));
        ReportWriter.Written files = ReportWriter.writeAll(report, options.out());
        System.out.println("Report: " + files.html().toAbsolutePath() + " (also " + files.json().getFileName() + ", "
                + files.csv().getFileName() + ", " + files.timelineCsv().getFileName() + ")");
        return report;
    }

    private static RunReport sweep(Driver driver, Workload base, WorkloadOptions options, List<Driver.Customer> customers,
                                   List<SymbolInfo> symbols, Instant started, Map<String, String> conditions,
                                   String scenarioLabel) throws InterruptedException {
        List<RunReport.SweepStep> steps = new ArrayList<>();
        Metrics last = null;
        Workload lastWorkload = base;
        for (double multiple : options.sweepSteps()) {
            Workload w = stepWorkload(base, multiple, steps.isEmpty(), options.sweepStepDuration());
            Metrics metrics = driver.run(w, customers, symbols, String.format(Locale.ROOT, "step x%s", multiple));
            RunReport step = RunReport.from(metrics, "", "", "", Map.of(), w.duration().toMillis(), List.of());
            RunReport.SweepStep summary = summarise(step, w);
            steps.add(summary);
            last = metrics;
            lastWorkload = w;
            System.err.printf(Locale.ROOT, "sweep step x%s: %.0f orders/s offered, %.0f fills/s, ticker-to-fill p99 %.2f ms%n",
                    multiple, w.ordersPerSecond(), summary.fillsPerSecond(), summary.p99Micros() / 1000.0);
            if (saturated(step, w)) {
                System.err.println("saturated: stopping the sweep");
                break;
            }
        }
        return RunReport.from(last, "geobroker load report (sweep)", scenarioLabel, started.toString(), conditions,
                lastWorkload.duration().toMillis(), steps);
    }

    /**
     * A sweep step's workload: the base × {@code multiple}, measured for {@code duration}. The first
     * step keeps the workload's warm-up and ramp, which the JVMs of a stack just started need (with 5 s
     * its p99 was 270-430 ms at a quarter of the default load, where a whole run's is tens of ms);
     * later steps start at their full rates after {@link #SWEEP_WARMUP}.
     */
    static Workload stepWorkload(Workload base, double multiple, boolean first, Duration duration) {
        Workload scaled = base.scaled(multiple);
        return first ? scaled.withDuration(duration) : scaled.withDurations(SWEEP_WARMUP, duration);
    }

    static RunReport.SweepStep summarise(RunReport step, Workload w) {
        Optional<RunReport.SeriesSummary> t2f = all(step, SeriesKey.Kind.TICKER_TO_FILL);
        long errors = step.regions().stream().mapToLong(RunReport.RegionSummary::errors).sum();
        long fills = step.regions().stream().mapToLong(RunReport.RegionSummary::fills).sum();
        return new RunReport.SweepStep(w.ordersPerSecond(), w.tickersPerSecond(), fills * 1000.0 / step.measuredMillis(),
                t2f.map(RunReport.SeriesSummary::count).orElse(0L), t2f.map(RunReport.SeriesSummary::p50Micros).orElse(0L),
                t2f.map(RunReport.SeriesSummary::p99Micros).orElse(0L), t2f.map(RunReport.SeriesSummary::maxMicros).orElse(0L),
                errors);
    }

    /**
     * Saturated: more than 1 % of orders failed, fewer than 90 % of the offered orders were answered,
     * or the p99 of ticker-to-fill or of order placement passed one second.
     */
    static boolean saturated(RunReport step, Workload w) {
        long sent = step.regions().stream().mapToLong(RunReport.RegionSummary::ordersSent).sum();
        long answered = step.regions().stream().mapToLong(r -> r.ordersAccepted() + r.ordersRejected()).sum();
        long errors = step.regions().stream().mapToLong(RunReport.RegionSummary::errors).sum();
        double offered = w.ordersPerSecond() * step.measuredMillis() / 1000.0;
        long t2fP99 = all(step, SeriesKey.Kind.TICKER_TO_FILL).map(RunReport.SeriesSummary::p99Micros).orElse(0L);
        long placementP99 = all(step, SeriesKey.Kind.PLACEMENT).map(RunReport.SeriesSummary::p99Micros).orElse(0L);
        return errors * 100 > Math.max(1, sent) || answered < 0.9 * offered || t2fP99 > 1_000_000 || placementP99 > 1_000_000;
    }

    private static Optional<RunReport.SeriesSummary> all(RunReport report, SeriesKey.Kind kind) {
        return report.seriesOf(kind).stream()
                .filter(s -> s.region().equals(Metrics.ALL) && s.orderType().equals(Metrics.ALL)).findFirst();
    }

    private static Map<String, String> conditions(Target target, Workload w, WorkloadOptions o, Driver.Tickers tickers,
                                                  Map<String, String> extra) {
        Map<String, String> c = new LinkedHashMap<>();
        Runtime rt = Runtime.getRuntime();
        c.put("machine", rt.availableProcessors() + " cores, " + physicalMemoryGiB() + " GiB RAM, "
                + System.getProperty("os.name") + " " + System.getProperty("os.version") + " " + System.getProperty("os.arch"));
        c.put("load generator JVM", System.getProperty("java.vm.name") + " " + System.getProperty("java.version")
                + ", max heap " + rt.maxMemory() / (1024 * 1024) + " MB");
        c.put("target", target.description());
        c.put("regions", String.join(", ", target.regions().stream().map(r -> r.name() + " (" + r.region().dataCenter()
                + ", " + String.join("/", r.region().exchanges()) + ")").toList()));
        boolean deploymentRate = tickers.source() == TickerSource.SERVICE && tickers.rate().isEmpty();
        c.put("offered load", deploymentRate
                ? String.format(Locale.ROOT, "%.0f new orders/s (scale %s); tickers at the deployment's own rate",
                w.ordersPerSecond(), o.scale())
                : String.format(Locale.ROOT, "%.0f new orders/s, %.0f tickers/s (scale %s)",
                w.ordersPerSecond(), w.tickersPerSecond(), o.scale()));
        c.put("order mix", String.format(Locale.ROOT, "LIMIT %d %% (%d %% marketable), STOP %d %%, MARKET %d %%; buys and sells 50/50; GTC",
                w.limitPercent(), w.marketablePercent(), w.stopPercent(), w.marketPercent()));
        c.put("customers and symbols", w.customersPerRegion() + " customers per region, placing orders in their own region for "
                + "symbols of every exchange; " + w.symbolsPerExchange() + " symbols per exchange");
        c.put("durations", "warm-up " + w.warmup().toSeconds() + " s"
                + (w.ramp().isZero() ? "" : " (rates climbing from " + Math.round(Workload.RAMP_FROM * 100) + " % over the first "
                + w.ramp().toSeconds() + " s)") + ", measured " + w.duration().toSeconds() + " s");
        c.put("tickers", tickersCondition(tickers));
        c.putAll(extra);
        return c;
    }

    static String tickersCondition(Driver.Tickers tickers) {
        if (tickers.source() == TickerSource.LOADGEN) {
            return "published by the load generator at a constant rate (--tickers=loadgen), exchange time = intended publish time";
        }
        String rate = tickers.rate().isEmpty() ? " at its own rate"
                : ", its rate set by the load generator to follow the ramp" + (tickers.owner().equals("demo") ? ""
                : String.format(Locale.ROOT, " (%s, put back to %.1f tickers/s after the run)", tickers.rate().get(),
                tickers.rateAfterRun()));
        return "published by the " + tickers.owner() + "'s ticker service" + rate
                + ", exchange time = scheduled publish time; the load generator learns the quotes from the ticker topics";
    }

    /** Each region's broker URL, by region name. */
    private static Map<String, String> brokers(Target target) {
        Map<String, String> brokers = new LinkedHashMap<>();
        target.regions().forEach(r -> brokers.put(r.name(), r.brokerUrl()));
        return brokers;
    }

    /**
     * Each broker's histogram of orders placed in another region until they were matchable there
     * ({@code geobroker_inbox_accept_lag_seconds}); empty for a broker that does not answer.
     */
    private static Map<String, Optional<BrokerHistogram>> inboxLag(Target target) {
        HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
        Map<String, Optional<BrokerHistogram>> lag = new LinkedHashMap<>();
        for (Target.RegionTarget r : target.regions()) {
            lag.put(r.name(), BrokerHistogram.scrape(http, r.brokerUrl(), Duration.ofSeconds(5))
                    .flatMap(page -> BrokerHistogram.parse(page, "geobroker_inbox_accept_lag_seconds")));
        }
        return lag;
    }

    /**
     * Each broker's Prometheus page, and the ticker service's when the run sets its rate, read before
     * the measured phase starts and as it ends (the driver starts its warm-up 200 ms after it is
     * called), for what only they measure, and the CPU time of the run's processes. A page read on a
     * saturated machine can take seconds: the span between the two readings is the one reported.
     *
     * <p>The pages and the compilers' threads are read {@link #LEAD_MILLIS} before the phase: the
     * phase's first second was the slowest of many runs while everything was read as it started (its
     * slowest fill 67 ms on average against 30 for the others, docs/results.md, 8d61b79). Most of that
     * excess turned out to be the resources sampler's first sample (its entry of 895d174); what the
     * early pages still save was not measured apart. What they give is divided by the time between
     * their own readings. The CPU and the counters (divided per fill of the phase) are cheap and read
     * at the phase's bounds.
     */
    private static final class PhasePages implements AutoCloseable {

        static final long DRIVER_START_MILLIS = 200;
        static final long LEAD_MILLIS = 2_000;
        private static final Duration SCRAPE_TIMEOUT = Duration.ofSeconds(10);

        /** A reading and when it was taken (System.nanoTime()): what it covers is the span between two. */
        private record Timed<T>(T value, long nanos) {
            static <T> Timed<T> now(T value) {
                return new Timed<>(value, System.nanoTime());
            }
        }

        /** One reading taken before the phase starts (or as it starts) and again as it ends. */
        private record Ends<T>(Future<T> start, Future<T> end) {
        }

        private final ScheduledExecutorService timer;
        private final long startMillis;
        private final long endMillis;
        private final Map<String, Ends<Optional<Timed<String>>>> brokers = new LinkedHashMap<>();
        private Optional<Ends<Optional<Timed<String>>>> publisher = Optional.empty();
        private Ends<ProcessCpu.Reading> cpu;
        private Ends<Map<String, Long>> counters;
        private Optional<Ends<Timed<Map<String, Double>>>> compilers = Optional.empty();

        private PhasePages(ScheduledExecutorService timer, long startMillis, long endMillis) {
            this.timer = timer;
            this.startMillis = startMillis;
            this.endMillis = endMillis;
        }

        static PhasePages schedule(Target target, Driver.Tickers tickers, List<ProcessCpu.Group> processes,
                                   Supplier<Map<String, Long>> counters, Optional<Supplier<Map<String, Double>>> compilers,
                                   Duration warmup, Duration measured) {
            ScheduledExecutorService timer = Executors.newScheduledThreadPool(target.regions().size() + 1, r -> {
                Thread t = new Thread(r, "loadgen-broker-metrics");
                t.setDaemon(true);
                return t;
            });
            long startMillis = DRIVER_START_MILLIS + warmup.toMillis();
            PhasePages pages = new PhasePages(timer, startMillis, startMillis + measured.toMillis());
            HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
            // first, so that a page that is slow to come does not hold up these instant readings
            pages.cpu = pages.atBothEnds(() -> ProcessCpu.read(processes), 0);
            pages.counters = pages.atBothEnds(counters::get, 0);
            pages.compilers = compilers.map(c -> pages.atBothEnds(() -> Timed.now(c.get()), LEAD_MILLIS));
            for (Target.RegionTarget r : target.regions()) {
                pages.brokers.put(r.name(), pages.page(r.brokerUrl(), http));
            }
            pages.publisher = tickers.rate().map(service -> pages.page(service.baseUrl(), http));
            return pages;
        }

        /**
         * The reading {@code leadMillis} before the phase starts and as it ends; at once when the phase
         * starts sooner than that (then before the driver has started, with a warm-up under the lead).
         */
        private <T> Ends<T> atBothEnds(Callable<T> read, long leadMillis) {
            return new Ends<>(timer.schedule(read, Math.max(0, startMillis - leadMillis), TimeUnit.MILLISECONDS),
                    timer.schedule(read, endMillis, TimeUnit.MILLISECONDS));
        }

        /** The Prometheus page at {@code url} before the phase starts and as it ends. */
        private Ends<Optional<Timed<String>>> page(String url, HttpClient http) {
            return atBothEnds(() -> BrokerHistogram.scrape(http, url, SCRAPE_TIMEOUT).map(Timed::now), LEAD_MILLIS);
        }

        /** The ticker service's work between the two readings (empty without its pages). */
        Optional<PublisherStages> publisher() throws InterruptedException {
            if (publisher.isEmpty()) {
                return Optional.empty();
            }
            return between(publisher.get(), PublisherStages::between);
        }

        /** Per region, the engine's stages between the two readings (empty where a page was not read). */
        Map<String, Optional<EngineStages>> engines() throws InterruptedException {
            Map<String, Optional<EngineStages>> engines = new LinkedHashMap<>();
            for (Map.Entry<String, Ends<Optional<Timed<String>>>> region : brokers.entrySet()) {
                engines.put(region.getKey(), between(region.getValue(), EngineStages::between));
            }
            return engines;
        }

        /** The CPU each group of processes used between the two readings, in cores. */
        Optional<String> cpu() throws InterruptedException {
            try {
                return ProcessCpu.describe(cpu.start().get(SCRAPE_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS),
                        cpu.end().get(SCRAPE_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS), Runtime.getRuntime().availableProcessors());
            } catch (ExecutionException | TimeoutException e) {
                return Optional.empty();
            }
        }

        /**
         * What the C2 compilers took between the two readings, as cores over the time between them (a
         * reading on a busy machine may come late), empty without the compilers' readings.
         */
        Optional<String> compilers() throws InterruptedException {
            if (compilers.isEmpty()) {
                return Optional.empty();
            }
            try {
                Timed<Map<String, Double>> before = compilers.get().start().get(SCRAPE_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
                Timed<Map<String, Double>> after = compilers.get().end().get(SCRAPE_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
                return Optional.of(CompilerCpu.describePhase(before.value(), after.value(),
                        (after.nanos() - before.nanos()) / 1e9));
            } catch (ExecutionException | TimeoutException e) {
                return Optional.empty();
            }
        }

        /** How much each counter grew between the two readings (empty without a reading). */
        Optional<Map<String, Long>> counters() throws InterruptedException {
            try {
                return Optional.of(WanTraffic.between(counters.start().get(SCRAPE_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS),
                        counters.end().get(SCRAPE_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)));
            } catch (ExecutionException | TimeoutException e) {
                return Optional.empty();
            }
        }

        /** What two pages, before and after, say about the span between their readings. */
        private interface Reading<T> {
            Optional<T> between(String before, String after, double elapsedSeconds);
        }

        private static <T> Optional<T> between(Ends<Optional<Timed<String>>> pages, Reading<T> reading)
                throws InterruptedException {
            Optional<Timed<String>> before = page(pages.start());
            Optional<Timed<String>> after = page(pages.end());
            return before.flatMap(b -> after.flatMap(a -> reading.between(b.value(), a.value(), (a.nanos() - b.nanos()) / 1e9)));
        }

        private static Optional<Timed<String>> page(Future<Optional<Timed<String>>> future) throws InterruptedException {
            try {
                return future.get(SCRAPE_TIMEOUT.toMillis() * 2, TimeUnit.MILLISECONDS);
            } catch (ExecutionException | TimeoutException e) {
                return Optional.empty();
            }
        }

        @Override
        public void close() {
            timer.shutdownNow();
        }
    }

    private static String loadAverage() {
        double load = ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage();
        return load < 0 ? "unknown" : String.format(Locale.ROOT, "%.1f", load);
    }

    private static long physicalMemoryGiB() {
        if (ManagementFactory.getOperatingSystemMXBean() instanceof com.sun.management.OperatingSystemMXBean os) {
            return Math.round(os.getTotalMemorySize() / (1024.0 * 1024 * 1024));
        }
        return 0;
    }
}
