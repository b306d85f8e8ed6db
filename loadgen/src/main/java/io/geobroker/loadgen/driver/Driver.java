package io.geobroker.loadgen.driver;

import io.geobroker.domain.Region;
import io.geobroker.domain.SymbolDirectory;
import io.geobroker.domain.SymbolInfo;
import io.geobroker.loadgen.metrics.Metrics;
import io.geobroker.loadgen.metrics.PhaseIntervals;
import io.geobroker.loadgen.metrics.RampedSchedule;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.SplittableRandom;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.LockSupport;

/**
 * Drives a deployment: checks it is ready, creates and funds the run's customers, then runs a
 * constant-rate open-loop workload (orders over REST) for a warm-up plus a measured phase, while
 * reading every region's fills topic. Orders are timed from their intended send time.
 *
 * <p>Tickers come from the ticker service by default: the load generator consumes the exchanges'
 * ticker topics to learn each symbol's quote (and to count the tickers of the measured phase) and,
 * when it may ({@link Tickers#rate}), sets the service's rate so that it follows the warm-up ramp.
 * With {@link TickerSource#LOADGEN} it publishes them itself. Either way a ticker's exchange time is
 * its intended publish time, so a late publisher shows up as latency instead of hiding it. Every
 * loop is bounded in time.
 */
public final class Driver implements AutoCloseable {

    /** A customer of this run and the region it places its orders in. */
    public record Customer(String id, String token, Target.RegionTarget placesIn) {
    }

    /**
     * Where a run's tickers come from; for a ticker service whose rate the load generator controls,
     * how to set it and the rate to leave it at after each run: 0 (paused) for the demo's own
     * service, the rate it had before for a deployment's ({@code run --ticker-service}). Without a
     * rate client (a running deployment's service) the rate is left as the deployment has it.
     */
    public record Tickers(TickerSource source, Optional<TickerRateClient> rate, double rateAfterRun, String owner) {

        public static Tickers publishedByLoadgen() {
            return new Tickers(TickerSource.LOADGEN, Optional.empty(), 0, "load generator");
        }

        /** The demo's own ticker service: paused before and after the run. */
        public static Tickers fromService(TickerRateClient rate) {
            return new Tickers(TickerSource.SERVICE, Optional.of(rate), 0, "demo");
        }

        /** A running deployment's ticker service, left at its own rate. */
        public static Tickers fromDeployment() {
            return new Tickers(TickerSource.SERVICE, Optional.empty(), 0, "deployment");
        }

        /** A running deployment's ticker service whose rate the run sets, put back to {@code rateBefore} after it. */
        public static Tickers fromDeploymentService(TickerRateClient rate, double rateBefore) {
            return new Tickers(TickerSource.SERVICE, Optional.of(rate), rateBefore, "deployment");
        }
    }

    /** Each customer's deposit in every traded currency (minor units), at the currency's home region. */
    public static final long FUNDED_CASH_PER_CURRENCY = 1_000_000_000_000L;
    /** Each customer's seeded holding of every traded symbol. */
    public static final long FUNDED_SHARES_PER_SYMBOL = 100_000_000L;
    /** How long an order waits for its answer before it counts as an error ({@code timeout}). */
    public static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(10);

    private static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(3);
    /** Time given to fills still on their way after the last answer. */
    private static final Duration DRAIN = Duration.ofSeconds(3);

    private final Target target;
    private final ExecutorService httpExecutor = Executors.newFixedThreadPool(4, Threads.daemon("loadgen-http"));
    private final Map<String, BrokerClient> brokers = new LinkedHashMap<>();
    private final ProgressBar progress;
    private final String runId;
    /** Runs started so far (a sweep runs once per step): each run's orders get their own client order ids. */
    private int runsStarted;
    private final Tickers tickerSource;
    /** The ticker service's rate, when the load generator sets it. */
    private final Optional<TickerRamp> ramp;

    public Driver(Target target, ProgressBar progress, String runId, Tickers tickerSource) {
        this.target = target;
        this.progress = progress;
        this.runId = runId;
        this.tickerSource = tickerSource;
        this.ramp = tickerSource.rate().map(TickerRamp::new);
        for (Target.RegionTarget r : target.regions()) {
            brokers.put(r.name(), new BrokerClient(r.name(), r.brokerUrl(), CONNECT_TIMEOUT, REQUEST_TIMEOUT, httpExecutor));
        }
    }

    /** The symbols a run trades: the first {@code perExchange} of every exchange the target's regions own. */
    public List<SymbolInfo> symbols(int perExchange) {
        return symbols(target.regions().stream().map(Target.RegionTarget::region).toList(), perExchange);
    }

    /** The symbols a run trades in these regions: the first {@code perExchange} of each of their exchanges. */
    public static List<SymbolInfo> symbols(List<Region> regions, int perExchange) {
        SymbolDirectory directory = SymbolDirectory.standard();
        List<SymbolInfo> symbols = new ArrayList<>();
        for (Region r : regions) {
            for (String exchange : r.exchanges()) {
                symbols.addAll(directory.symbolsOf(exchange).stream().limit(perExchange).toList());
            }
        }
        return symbols;
    }

    /**
     * Waits until every broker answers UP and every region's Kafka has the fills and ticker topics,
     * or fails with a message naming what is missing once {@code timeout} has passed.
     */
    public void awaitReady(Duration timeout) throws InterruptedException {
        new ReadinessCheck(target, brokers.values(), tickerSource.source() == TickerSource.LOADGEN).await(timeout);
    }

    /** Creates and funds {@code perRegion} customers per region, within {@code timeout}. */
    public List<Customer> createCustomers(int perRegion, List<SymbolInfo> symbols, Duration timeout)
            throws InterruptedException {
        return new CustomerSetup(target, brokers, runId, progress).create(perRegion, symbols, timeout);
    }

    /**
     * Creates {@code count} customers at one region's broker, each with {@code cash} minor units of
     * {@code currency} there, within {@code timeout}.
     */
    public List<Customer> createCustomersIn(Target.RegionTarget region, int count, String currency, long cash,
                                            Duration timeout) throws InterruptedException {
        return new CustomerSetup(target, brokers, runId, progress).createIn(region, count, currency, cash, timeout);
    }

    /**
     * One run: the workload's warm-up then its measured phase, then up to 5 s for answers and fills
     * still under way. Returns the run's metrics (measured phase only).
     */
    public Metrics run(Workload w, List<Customer> customers, List<SymbolInfo> symbols, String label)
            throws InterruptedException {
        Metrics metrics = new Metrics();
        SplittableRandom seedRandom = new SplittableRandom(w.seed());
        MarketModel market = new MarketModel(symbols, System.currentTimeMillis() * 1_000);
        Phases phases = Phases.startingSoon(w);
        long startNanos = phases.startNanos();
        long measureStartNanos = phases.measureStartNanos();
        long measureEndNanos = phases.measureEndNanos();
        long warmupNanos = w.warmup().toNanos();
        long rampNanos = w.ramp().toNanos();
        RampedSchedule orders = RampedSchedule.of(startNanos, w.ordersPerSecond(), rampNanos, Workload.RAMP_FROM,
                warmupNanos + w.duration().toNanos());
        // The market keeps ticking (unmeasured) while late orders drain: a market order that reaches
        // its broker in the drain then fills against a live quote, not one frozen since the measured
        // phase ended, whose age would pass for ticker-to-fill latency.
        RampedSchedule tickers = RampedSchedule.of(startNanos, w.tickersPerSecond(), rampNanos, Workload.RAMP_FROM,
                warmupNanos + w.duration().toNanos() + REQUEST_TIMEOUT.toNanos() + DRAIN.toNanos());
        AtomicBoolean stop = new AtomicBoolean();
        AtomicBoolean stopOrders = new AtomicBoolean();
        LongAdder liveFills = new LongAdder();
        LongAdder liveErrors = new LongAdder();

        List<Thread> threads = new ArrayList<>();
        List<AutoCloseable> closeables = new ArrayList<>();
        try {
            for (Target.RegionTarget r : target.regions()) {
                KafkaConsumer<String, byte[]> consumer = KafkaClients.fillConsumer(r, target.topics());
                closeables.add(consumer);
                FillWatcher fills = new FillWatcher(consumer, r, runId, metrics, phases, liveFills);
                threads.add(Threads.start("loadgen-fills-" + r.name(), () -> fills.watch(stop)));
            }
            SplittableRandom tickerRandom = seedRandom.split();
            if (tickerSource.source() == TickerSource.LOADGEN) {
                Map<String, KafkaProducer<String, byte[]>> producers = new HashMap<>();
                for (Target.RegionTarget r : target.regions()) {
                    KafkaProducer<String, byte[]> producer = KafkaClients.tickerProducer(r);
                    closeables.add(0, producer);
                    producers.put(r.name(), producer);
                }
                TickerPublisher publisher = new TickerPublisher(target, tickers, market, producers, metrics, phases, liveErrors);
                threads.add(Threads.start("loadgen-tickers", () -> publisher.publish(stop, tickerRandom)));
            } else {
                for (Target.RegionTarget r : target.regions()) {
                    if (r.region().exchanges().isEmpty()) {
                        continue;
                    }
                    KafkaConsumer<String, byte[]> consumer = KafkaClients.tickerConsumer(r, target.topics());
                    closeables.add(consumer);
                    TickerWatcher watcher = new TickerWatcher(consumer, r, market, metrics, phases);
                    threads.add(Threads.start("loadgen-tickers-" + r.name(), () -> watcher.watch(stop)));
                }
                ramp.ifPresent(rate -> threads.add(Threads.start("loadgen-ticker-rate",
                        () -> rate.follow(tickers, stop, liveErrors))));
            }
            SplittableRandom orderRandom = seedRandom.split();
            OrderPlacer placer = new OrderPlacer(target, brokers, clientOrderIdPrefix(runId, runsStarted++), orders, w,
                    market, customers, metrics, phases, liveErrors);
            Thread orderThread = Threads.start("loadgen-orders", () -> placer.place(stopOrders, orderRandom));
            threads.add(orderThread);

            long totalNanos = measureEndNanos - startNanos;
            PhaseIntervals intervals = new PhaseIntervals(measureStartNanos, measureEndNanos, 1_000_000_000L);
            long lastFills = 0;
            long lastSent = 0;
            long lastReport = System.nanoTime();
            while (true) {
                long now = System.nanoTime();
                if (now >= measureStartNanos && !metrics.measuring() && now < measureEndNanos) {
                    metrics.startMeasuring();
                }
                for (long start = intervals.closeNext(now); start >= 0; start = intervals.closeNext(now)) {
                    metrics.tick(start);
                }
                if (now - lastReport >= 500_000_000L) {
                    double seconds = (now - lastReport) / 1e9;
                    long fills = liveFills.sum();
                    long sent = placer.sent();
                    String phase = now < measureStartNanos ? "warm-up" : label;
                    progress.update(now - startNanos, totalNanos, String.format(Locale.ROOT,
                            "%s %3d/%d s  orders %5.0f/s  fills %5.0f/s  errors %d", phase,
                            Math.max(0, (now - startNanos) / 1_000_000_000L), totalNanos / 1_000_000_000L,
                            (sent - lastSent) / seconds, (fills - lastFills) / seconds, liveErrors.sum()));
                    lastFills = fills;
                    lastSent = sent;
                    lastReport = now;
                }
                if (intervals.done()) {
                    break;
                }
                LockSupport.parkNanos(Math.min(50_000_000L, Math.max(1_000_000L, intervals.nextEndNanos() - now)));
                if (Thread.interrupted()) {
                    throw new InterruptedException();
                }
            }
            stopOrders.set(true);
            orderThread.join(5_000);
            // Every order sent gets its answer or its timeout (an error) before the report, so slow
            // answers are never dropped; fills of the measured phase get the same time to arrive.
            progress.update(totalNanos, totalNanos, label + ": waiting for " + placer.outstanding()
                    + " answers and the last fills");
            long drainEnd = System.nanoTime() + REQUEST_TIMEOUT.toNanos() + DRAIN.toNanos();
            while (System.nanoTime() < drainEnd && placer.outstanding() > 0) {
                LockSupport.parkNanos(10_000_000L);
            }
            LockSupport.parkNanos(Math.max(0, Math.min(DRAIN.toNanos(), drainEnd - System.nanoTime())));
            placer.countUnfinished();
            metrics.tick(w.duration().toMillis());
            metrics.stopMeasuring();
            progress.update(totalNanos, totalNanos, label + " done");
            progress.finish();
        } finally {
            stop.set(true);
            stopOrders.set(true);
            for (Thread t : threads) {
                t.join(5_000);
            }
            // Between runs (sweep steps) and after the last one: the demo's ticker service paused, a
            // deployment's back at the rate it had.
            ramp.ifPresent(rate -> rate.set(tickerSource.rateAfterRun(), null));
            for (AutoCloseable c : closeables) {
                try {
                    c.close();
                } catch (Exception e) {
                    // closing after the run: nothing left to report
                }
            }
        }
        return metrics;
    }

    /**
     * The prefix of the client order ids of a driver's {@code run}-th run (from 0): the run id, then
     * {@code -run<N>} from the second run on. Without it a sweep's second step would send its first
     * orders with the ids of the first step's, which the broker answers with the earlier order (the
     * same parameters) or 409 (others) instead of placing them.
     */
    static String clientOrderIdPrefix(String runId, int run) {
        return run == 0 ? runId : runId + "-run" + (run + 1);
    }

    @Override
    public void close() {
        brokers.values().forEach(BrokerClient::close);
        httpExecutor.shutdownNow();
    }
}
