package io.geobroker.loadgen.driver;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.geobroker.domain.Fill;
import io.geobroker.domain.OrderType;
import io.geobroker.domain.Region;
import io.geobroker.domain.SymbolDirectory;
import io.geobroker.domain.SymbolInfo;
import io.geobroker.domain.Ticker;
import io.geobroker.domain.WireFormat;
import io.geobroker.kafka.TopicReadiness;
import io.geobroker.loadgen.metrics.Metrics;
import io.geobroker.loadgen.metrics.PhaseIntervals;
import io.geobroker.loadgen.metrics.RampedSchedule;
import io.geobroker.loadgen.metrics.SeriesKey;
import io.geobroker.loadgen.report.RunReport;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
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

    /** How often the rate of the ticker service is set while it follows the ramp. */
    static final Duration RATE_STEP = Duration.ofMillis(500);

    private static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(3);
    private static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(10);
    /** Time given to fills still on their way after the last answer. */
    private static final Duration DRAIN = Duration.ofSeconds(3);
    private static final long CASH_PER_CURRENCY = 1_000_000_000_000L;
    private static final long SHARES_PER_SYMBOL = 100_000_000L;
    /** The ticker watcher's fetches: this many bytes (a few hundred tickers) or {@link #TICKER_FETCH_MAX_WAIT_MS}. */
    static final int TICKER_FETCH_MIN_BYTES = 32 * 1024;
    static final int TICKER_FETCH_MAX_WAIT_MS = 50;

    private final Target target;
    private final SymbolDirectory directory = SymbolDirectory.standard();
    private final ExecutorService httpExecutor = Executors.newFixedThreadPool(4, daemon("loadgen-http"));
    private final Map<String, BrokerClient> brokers = new LinkedHashMap<>();
    private final ProgressBar progress;
    private final String runId;
    private final Tickers tickerSource;
    private final AtomicBoolean rateFailureReported = new AtomicBoolean();

    public Driver(Target target, ProgressBar progress, String runId, Tickers tickerSource) {
        this.target = target;
        this.progress = progress;
        this.runId = runId;
        this.tickerSource = tickerSource;
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
        long deadline = System.nanoTime() + timeout.toNanos();
        for (BrokerClient broker : brokers.values()) {
            String last = "no answer";
            while (true) {
                try {
                    BrokerClient.Answer health = broker.health();
                    if (health.ok() && health.body() != null && "UP".equals(health.body().path("status").asText())) {
                        break;
                    }
                    last = health.describe() + (health.body() == null ? "" : " " + health.body().path("status").asText());
                } catch (IOException e) {
                    last = e.getClass().getSimpleName() + (e.getMessage() == null ? "" : ": " + e.getMessage());
                }
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException("broker of region " + broker.region() + " at " + broker.base()
                            + " is not ready after " + timeout.toSeconds() + " s (" + last + ")");
                }
                Thread.sleep(500);
            }
        }
        for (Target.RegionTarget r : target.regions()) {
            Set<String> wanted = new TreeSet<>();
            wanted.add(target.topics().fills());
            for (String exchange : r.region().exchanges()) {
                wanted.add(target.topics().tickers(exchange));
            }
            long remainingMillis = Math.max(1_000, (deadline - System.nanoTime()) / 1_000_000);
            Properties p = new Properties();
            p.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, r.kafkaBootstrap());
            p.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, (int) Math.min(5_000, remainingMillis));
            p.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, (int) Math.min(30_000, remainingMillis));
            try (Admin admin = Admin.create(p)) {
                Set<String> existing = admin.listTopics().names().get(remainingMillis, TimeUnit.MILLISECONDS);
                Set<String> missing = new TreeSet<>(wanted);
                missing.removeAll(existing);
                if (!missing.isEmpty()) {
                    // A fresh deployment creates these with its first fill or ticker, with the cluster's
                    // defaults; creating them now the same way lets the fill readers subscribe first.
                    System.err.println("Creating topic(s) " + missing + " on the Kafka of region " + r.name()
                            + " with the cluster's default partitions and replication");
                    admin.createTopics(missing.stream().map(t -> new NewTopic(t, Optional.empty(), Optional.empty())).toList())
                            .all().get(remainingMillis, TimeUnit.MILLISECONDS);
                }
            } catch (ExecutionException | TimeoutException e) {
                Throwable cause = e.getCause() == null ? e : e.getCause();
                throw new IllegalStateException("Kafka of region " + r.name() + " at " + r.kafkaBootstrap()
                        + " is not reachable or refused: " + cause.getClass().getSimpleName()
                        + (cause.getMessage() == null ? "" : " (" + cause.getMessage() + ")"));
            }
            if (tickerSource.source() == TickerSource.LOADGEN) {
                awaitWritable(r, wanted, deadline, timeout);
            }
        }
    }

    /**
     * The load generator's own ticker producer is idempotent: its first record to a partition whose
     * leader has not applied the topic yet (one created moments ago) can be refused until it expires
     * (see {@link TopicReadiness}), losing tickers of the run. Waits until every partition's leader
     * answers, within the same deadline.
     */
    private static void awaitWritable(Target.RegionTarget r, Set<String> topics, long deadline, Duration timeout) {
        List<TopicReadiness.Target> targets = topics.stream()
                .map(t -> new TopicReadiness.Target(r.name(), r.kafkaBootstrap(), t)).toList();
        if (!new TopicReadiness("loadgen", targets).await(() -> System.nanoTime() > deadline)) {
            throw new IllegalStateException("topics " + topics + " on the Kafka of region " + r.name() + " at "
                    + r.kafkaBootstrap() + " were not writable after " + timeout.toSeconds() + " s");
        }
    }

    /** Creates and funds {@code perRegion} customers per region, within {@code timeout}. */
    public List<Customer> createCustomers(int perRegion, List<SymbolInfo> symbols, Duration timeout)
            throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        List<Customer> customers = new ArrayList<>();
        for (Target.RegionTarget r : target.regions()) {
            for (int i = 0; i < perRegion; i++) {
                String id = runId + "-" + r.name() + "-" + i;
                BrokerClient.Answer answer = retrying(deadline, "create customer " + id + " in " + r.name(),
                        () -> brokers.get(r.name()).createCustomer(target.adminToken(), id, "loadgen " + id));
                String token = answer.body() == null ? "" : answer.body().path("token").asText("");
                if (token.isEmpty()) {
                    throw new IllegalStateException("creating customer " + id + " returned no token");
                }
                customers.add(new Customer(id, token, r));
            }
        }
        // many calls at once: the broker commits concurrent commands in groups, so setup goes faster
        ExecutorService pool = Executors.newFixedThreadPool(32, daemon("loadgen-setup"));
        try {
            List<Future<?>> calls = new ArrayList<>();
            Map<String, String> currencyHome = new LinkedHashMap<>();
            for (SymbolInfo s : symbols) {
                currencyHome.putIfAbsent(directory.currencyOf(s), target.homeOf(s.exchange()).orElseThrow().name());
            }
            for (Customer c : customers) {
                for (Map.Entry<String, String> currency : currencyHome.entrySet()) {
                    calls.add(pool.submit(() -> retrying(deadline, "deposit " + currency.getKey() + " for " + c.id(),
                            () -> brokers.get(currency.getValue()).deposit(c.token(), currency.getKey(), CASH_PER_CURRENCY))));
                }
                for (SymbolInfo s : symbols) {
                    String home = target.homeOf(s.exchange()).orElseThrow().name();
                    calls.add(pool.submit(() -> retrying(deadline, "holding " + s.symbol() + " for " + c.id(),
                            () -> brokers.get(home).addHolding(target.adminToken(), c.id(), s.symbol(), SHARES_PER_SYMBOL))));
                }
            }
            int done = 0;
            for (Future<?> call : calls) {
                long left = Math.max(1, deadline - System.nanoTime());
                try {
                    call.get(left, TimeUnit.NANOSECONDS);
                } catch (ExecutionException e) {
                    throw e.getCause() instanceof RuntimeException re ? re : new IllegalStateException(e.getCause());
                } catch (TimeoutException e) {
                    throw new IllegalStateException("funding the customers took longer than " + timeout.toSeconds() + " s");
                }
                progress.update(++done, calls.size(), "setting up " + customers.size() + " customers");
            }
            progress.finish();
        } finally {
            pool.shutdownNow();
        }
        return customers;
    }

    private interface Call {
        BrokerClient.Answer call() throws IOException, InterruptedException;
    }

    /**
     * Retries a setup call on I/O errors, 5xx and 404 (a customer created in one region may take a
     * moment to replicate to another) until the deadline; any other 4xx fails at once.
     */
    private static BrokerClient.Answer retrying(long deadline, String what, Call call) throws InterruptedException {
        String last;
        while (true) {
            try {
                BrokerClient.Answer answer = call.call();
                if (answer.ok()) {
                    return answer;
                }
                last = answer.describe();
                if (answer.status() != 404 && answer.status() != 401 && answer.status() < 500) {
                    throw new IllegalStateException(what + " failed: " + last);
                }
            } catch (IOException e) {
                last = e.getClass().getSimpleName();
            }
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException(what + " did not succeed in time (" + last + ")");
            }
            Thread.sleep(200);
        }
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
        long startNanos = System.nanoTime() + 200_000_000L;
        long wallMicrosAtStart = System.currentTimeMillis() * 1_000 + 200_000;
        long warmupNanos = w.warmup().toNanos();
        long measureStartNanos = startNanos + warmupNanos;
        long measureEndNanos = measureStartNanos + w.duration().toNanos();
        long measureStartWallMicros = wallMicrosAtStart + warmupNanos / 1_000;
        long measureEndWallMicros = measureStartWallMicros + w.duration().toNanos() / 1_000;
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
        AtomicLong liveSent = new AtomicLong();

        List<Thread> threads = new ArrayList<>();
        List<AutoCloseable> closeables = new ArrayList<>();
        try {
            for (Target.RegionTarget r : target.regions()) {
                KafkaConsumer<String, byte[]> consumer = fillConsumer(r);
                closeables.add(consumer);
                threads.add(start("loadgen-fills-" + r.name(), () -> watchFills(consumer, r, metrics, stop,
                        measureStartWallMicros, measureEndWallMicros, liveFills)));
            }
            SplittableRandom tickerRandom = seedRandom.split();
            if (tickerSource.source() == TickerSource.LOADGEN) {
                Map<String, KafkaProducer<String, byte[]>> producers = new HashMap<>();
                for (Target.RegionTarget r : target.regions()) {
                    KafkaProducer<String, byte[]> producer = tickerProducer(r);
                    closeables.add(0, producer);
                    producers.put(r.name(), producer);
                }
                threads.add(start("loadgen-tickers", () -> publishTickers(tickers, market, producers, metrics, stop,
                        tickerRandom, wallMicrosAtStart, startNanos, measureStartNanos, measureEndNanos, liveErrors)));
            } else {
                for (Target.RegionTarget r : target.regions()) {
                    if (r.region().exchanges().isEmpty()) {
                        continue;
                    }
                    KafkaConsumer<String, byte[]> consumer = tickerConsumer(r);
                    closeables.add(consumer);
                    threads.add(start("loadgen-tickers-" + r.name(), () -> watchTickers(consumer, r, market, metrics, stop,
                            measureStartWallMicros, measureEndWallMicros)));
                }
                tickerSource.rate().ifPresent(rate -> threads.add(start("loadgen-ticker-rate",
                        () -> followRamp(rate, tickers, stop, liveErrors))));
            }
            SplittableRandom orderRandom = seedRandom.split();
            Map<String, ConcurrencyGate<OrderTask>> gates = new LinkedHashMap<>();
            Map<String, LongAdder> measuredInFlight = new HashMap<>();
            for (Target.RegionTarget r : target.regions()) {
                gates.put(r.name(), new ConcurrencyGate<>(w.maxInFlight()));
                measuredInFlight.put(r.name(), new LongAdder());
            }
            AtomicLong nextOrder = new AtomicLong();
            Thread orderThread = start("loadgen-orders", () -> placeOrders(orders, w, market, customers, metrics, stopOrders,
                    orderRandom, gates, measureStartNanos, measureEndNanos, liveSent, liveErrors, measuredInFlight,
                    nextOrder));
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
                    long sent = liveSent.get();
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
            progress.update(totalNanos, totalNanos, label + ": waiting for " + outstanding(gates)
                    + " answers and the last fills");
            long drainEnd = System.nanoTime() + REQUEST_TIMEOUT.toNanos() + DRAIN.toNanos();
            while (System.nanoTime() < drainEnd && outstanding(gates) > 0) {
                LockSupport.parkNanos(10_000_000L);
            }
            LockSupport.parkNanos(Math.max(0, Math.min(DRAIN.toNanos(), drainEnd - System.nanoTime())));
            // Orders of the measured phase that were never sent (still queued behind --max-in-flight
            // answers outstanding, or not even due when the sender stopped) or never answered are
            // failures, not omissions.
            gates.forEach((region, gate) -> {
                for (OrderTask never : gate.close()) {
                    if (never.measured()) {
                        metrics.count(RunReport.ORDERS_ERRORS + "/" + region, 1);
                        metrics.count(RunReport.ORDER_ERROR_CAUSE + "not-sent/" + region, 1);
                    }
                }
            });
            for (long i = nextOrder.get(); i < orders.operations(); i++) {
                long intended = orders.intendedNanos(i);
                if (intended >= measureStartNanos && intended < measureEndNanos) {
                    String region = customers.get((int) (i % customers.size())).placesIn().name();
                    metrics.count(RunReport.ORDERS_ERRORS + "/" + region, 1);
                    metrics.count(RunReport.ORDER_ERROR_CAUSE + "not-sent/" + region, 1);
                }
            }
            measuredInFlight.forEach((region, count) -> {
                long unanswered = count.sum();
                if (unanswered > 0) {
                    metrics.count(RunReport.ORDERS_ERRORS + "/" + region, unanswered);
                    metrics.count(RunReport.ORDER_ERROR_CAUSE + "no-answer/" + region, unanswered);
                }
            });
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
            tickerSource.rate().ifPresent(rate -> setRate(rate, tickerSource.rateAfterRun(), null));
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

    private void publishTickers(RampedSchedule schedule, MarketModel market, Map<String, KafkaProducer<String, byte[]>> producers,
                                Metrics metrics, AtomicBoolean stop, SplittableRandom random, long wallMicrosAtStart,
                                long startNanos, long measureStartNanos, long measureEndNanos, LongAdder liveErrors) {
        int n = market.symbols().size();
        for (long i = 0; i < schedule.operations() && !stop.get(); i++) {
            long intended = schedule.intendedNanos(i);
            waitUntil(intended, stop);
            int symbolIndex = (int) (i % n);
            MarketModel.TickerIntent t = market.nextTicker(symbolIndex, random);
            long exchangeMicros = wallMicrosAtStart + (intended - startNanos) / 1_000;
            Ticker ticker = new Ticker(t.symbol().symbol(), t.symbol().exchange(), t.price(), t.volume(), exchangeMicros, t.sequence());
            String home = target.homeOf(t.symbol().exchange()).orElseThrow().name();
            boolean measured = intended >= measureStartNanos && intended < measureEndNanos;
            try {
                producers.get(home).send(new ProducerRecord<>(target.topics().tickers(ticker.exchange()), ticker.symbol(),
                        WireFormat.encode(ticker)), (md, e) -> {
                    if (e != null) {
                        liveErrors.increment();
                        if (measured) {
                            metrics.count("tickers.errors/" + home, 1);
                        }
                    }
                });
                if (measured) {
                    metrics.count(RunReport.TICKERS + "/" + home, 1);
                }
            } catch (RuntimeException e) {
                liveErrors.increment();
                if (measured) {
                    metrics.count("tickers.errors/" + home, 1);
                }
            }
        }
    }

    /**
     * Sets the ticker service's rate to follow the tickers' ramped schedule: every {@link #RATE_STEP}
     * during the ramp, the rate of the middle of the coming step; the full rate once the ramp is over
     * (then the thread ends). The service stamps each ticker with its own scheduled time, so ticker
     * timing stays free of coordinated omission; only the rate comes from here.
     */
    private void followRamp(TickerRateClient rate, RampedSchedule schedule, AtomicBoolean stop, LongAdder liveErrors) {
        long step = RATE_STEP.toNanos();
        long rampEnd = schedule.startNanos() + schedule.rampNanos();
        for (long at = schedule.startNanos(); !stop.get(); at += step) {
            waitUntil(at, stop);
            if (stop.get()) {
                return;
            }
            boolean last = at >= rampEnd;
            setRate(rate, last ? schedule.ratePerSecond() : schedule.rateAt(at + step / 2), liveErrors);
            if (last) {
                return;
            }
        }
    }

    private void setRate(TickerRateClient rate, double perSecond, LongAdder liveErrors) {
        try {
            rate.set(perSecond);
        } catch (IOException e) {
            if (liveErrors != null) {
                liveErrors.increment();
            }
            if (rateFailureReported.compareAndSet(false, true)) {
                System.err.println(System.lineSeparator() + "loadgen: could not set the ticker service's rate ("
                        + e.getClass().getSimpleName() + (e.getMessage() == null ? "" : ": " + e.getMessage()) + ")");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * Reads the tickers of the region's exchanges: each one sets its symbol's quote (orders are priced
     * near it), and those stamped in the measured phase are counted as the region's tickers.
     */
    private void watchTickers(KafkaConsumer<String, byte[]> consumer, Target.RegionTarget region, MarketModel market,
                              Metrics metrics, AtomicBoolean stop, long measureStartWallMicros, long measureEndWallMicros) {
        while (!stop.get()) {
            for (ConsumerRecord<String, byte[]> record : consumer.poll(Duration.ofMillis(100))) {
                Ticker ticker;
                try {
                    ticker = WireFormat.decodeTicker(record.value(), directory);
                } catch (WireFormat.InvalidMessageException e) {
                    metrics.count("tickers.undecodable/" + region.name(), 1);
                    continue;
                }
                market.observe(ticker.symbol(), ticker.price(), ticker.sequence());
                if (measuredTicker(ticker.exchangeTimeMicros(), measureStartWallMicros, measureEndWallMicros)) {
                    metrics.count(RunReport.TICKERS + "/" + region.name(), 1);
                }
            }
        }
    }

    /**
     * A consumer of the region's Kafka without a group: from the current end, nothing committed. A
     * fetch returns as soon as one record is there (fetch.min.bytes 1), so the 500 ms long poll only
     * spares the brokers empty fetches; it delays no record.
     */
    static Properties consumerProperties(String bootstrap) {
        Properties p = new Properties();
        p.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        p.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        p.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "latest");
        p.put(ConsumerConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, 15_000);
        p.put(ConsumerConfig.REQUEST_TIMEOUT_MS_CONFIG, 10_000);
        p.put(ConsumerConfig.FETCH_MAX_WAIT_MS_CONFIG, 500);
        return p;
    }

    /**
     * The ticker watcher's consumer: unlike the fills watcher, it asks Kafka for
     * {@value #TICKER_FETCH_MIN_BYTES} bytes or {@value #TICKER_FETCH_MAX_WAIT_MS} ms, whichever
     * comes first. It only learns quotes and counts tickers, so a quote up to that much older costs
     * nothing, while a fetch answered as soon as one record is there costs a request for every few
     * tickers on the cores the measured system shares (docs/results.md, the 6cb23f8 entry).
     */
    static Properties tickerConsumerProperties(String bootstrap) {
        Properties p = consumerProperties(bootstrap);
        p.put(ConsumerConfig.FETCH_MIN_BYTES_CONFIG, TICKER_FETCH_MIN_BYTES);
        p.put(ConsumerConfig.FETCH_MAX_WAIT_MS_CONFIG, TICKER_FETCH_MAX_WAIT_MS);
        return p;
    }

    /** A consumer of the region's exchanges' ticker topics, from their current end. */
    private KafkaConsumer<String, byte[]> tickerConsumer(Target.RegionTarget r) {
        Properties p = tickerConsumerProperties(r.kafkaBootstrap());
        KafkaConsumer<String, byte[]> consumer = new KafkaConsumer<>(p, new StringDeserializer(), new ByteArrayDeserializer());
        List<TopicPartition> assigned = new ArrayList<>();
        for (String exchange : r.region().exchanges()) {
            String topic = target.topics().tickers(exchange);
            List<PartitionInfo> partitions = consumer.partitionsFor(topic, Duration.ofSeconds(15));
            if (partitions == null || partitions.isEmpty()) {
                consumer.close();
                throw new IllegalStateException("topic " + topic + " does not exist on the Kafka of region " + r.name()
                        + " (" + r.kafkaBootstrap() + "): is the topic prefix right?");
            }
            partitions.forEach(i -> assigned.add(new TopicPartition(i.topic(), i.partition())));
        }
        consumer.assign(assigned);
        consumer.seekToEnd(assigned);
        for (TopicPartition tp : assigned) {
            consumer.position(tp, Duration.ofSeconds(15));
        }
        return consumer;
    }

    /** An order waiting for a free slot towards its region's broker. */
    private record OrderTask(boolean measured, java.util.function.Supplier<CompletableFuture<?>> send)
            implements ConcurrencyGate.Task {
        @Override
        public CompletableFuture<?> start() {
            return send.get();
        }
    }

    private static int outstanding(Map<String, ConcurrencyGate<OrderTask>> gates) {
        return gates.values().stream().mapToInt(g -> g.running() + g.waiting()).sum();
    }

    private void placeOrders(RampedSchedule schedule, Workload w, MarketModel market, List<Customer> customers, Metrics metrics,
                             AtomicBoolean stop, SplittableRandom random, Map<String, ConcurrencyGate<OrderTask>> gates,
                             long measureStartNanos,
                             long measureEndNanos, AtomicLong liveSent, LongAdder liveErrors,
                             Map<String, LongAdder> measuredInFlight, AtomicLong nextOrder) {
        int n = market.symbols().size();
        for (long i = 0; i < schedule.operations() && !stop.get(); i++, nextOrder.set(i)) {
            long intended = schedule.intendedNanos(i);
            waitUntil(intended, stop);
            Customer c = customers.get((int) (i % customers.size()));
            int symbolIndex = random.nextInt(n);
            int roll = random.nextInt(100);
            OrderType type = roll < w.limitPercent() ? OrderType.LIMIT
                    : roll < w.limitPercent() + w.stopPercent() ? OrderType.STOP : OrderType.MARKET;
            MarketModel.OrderIntent order = market.nextOrder(symbolIndex, type, w.marketablePercent(), random);
            String placed = c.placesIn().name();
            String home = target.homeOf(order.symbol().exchange()).orElseThrow().name();
            SeriesKey key = type == OrderType.MARKET && !home.equals(placed)
                    ? new SeriesKey(SeriesKey.Kind.CROSS_REGION_MARKET, placed, type.name())
                    : new SeriesKey(SeriesKey.Kind.PLACEMENT, placed, type.name());
            boolean measured = intended >= measureStartNanos && intended < measureEndNanos;
            ObjectNode body = BrokerClient.JSON.createObjectNode()
                    .put("clientOrderId", runId + "-" + i).put("symbol", order.symbol().symbol())
                    .put("side", order.side().name()).put("type", type.name()).put("quantity", order.quantity())
                    .put("timeInForce", "GTC").put("allOrNone", false);
            if (order.limitPrice() > 0) {
                body.put("limitPrice", order.limitPrice());
            }
            if (order.stopPrice() > 0) {
                body.put("stopPrice", order.stopPrice());
            }
            byte[] json = BrokerClient.encode(body);
            BrokerClient broker = brokers.get(placed);
            LongAdder pending = measuredInFlight.get(placed);
            gates.get(placed).submit(new OrderTask(measured, () -> {
                liveSent.incrementAndGet();
                if (measured) {
                    metrics.count(RunReport.ORDERS_SENT + "/" + placed, 1);
                    pending.increment();
                }
                CompletableFuture<BrokerClient.Answer> answer;
                try {
                    answer = broker.placeOrder(c.token(), json);
                } catch (RuntimeException e) {
                    answer = CompletableFuture.failedFuture(e);
                }
                return answer.whenComplete((a, e) -> answered(a, e, measured, pending, intended, key, placed, metrics, liveErrors));
            }));
        }
    }

    private static void answered(BrokerClient.Answer a, Throwable e, boolean measured, LongAdder pending, long intended,
                                 SeriesKey key, String placed, Metrics metrics, LongAdder liveErrors) {
        if (measured) {
            pending.decrement();
        }
        long micros = (System.nanoTime() - intended) / 1_000;
        if (e != null || a.status() >= 500) {
            liveErrors.increment();
            if (measured) {
                metrics.recordError(key);
                metrics.count(RunReport.ORDERS_ERRORS + "/" + placed, 1);
                metrics.count(RunReport.ORDER_ERROR_CAUSE + errorCause(e, a) + "/" + placed, 1);
            }
            return;
        }
        if (!measured) {
            return;
        }
        metrics.record(key, micros);
        boolean rejected = !a.ok() || (a.body() != null && "REJECTED".equals(a.body().path("status").asText()));
        metrics.count((rejected ? RunReport.ORDERS_REJECTED : RunReport.ORDERS_ACCEPTED) + "/" + placed, 1);
    }

    /** A short name for why an order failed: {@code timeout}, {@code connect}, {@code io} or {@code http-<status>}. */
    static String errorCause(Throwable e, BrokerClient.Answer answer) {
        if (e == null) {
            return "http-" + answer.status();
        }
        Throwable cause = e instanceof java.util.concurrent.CompletionException && e.getCause() != null ? e.getCause() : e;
        if (cause instanceof java.net.http.HttpTimeoutException) {
            return "timeout";
        }
        if (cause instanceof java.net.ConnectException) {
            return "connect";
        }
        return cause instanceof IOException ? "io" : cause.getClass().getSimpleName();
    }

    private void watchFills(KafkaConsumer<String, byte[]> consumer, Target.RegionTarget region, Metrics metrics,
                            AtomicBoolean stop, long measureStartWallMicros, long measureEndWallMicros,
                            LongAdder liveFills) {
        Map<String, Boolean> seen = new LinkedHashMap<>(16, 0.75f, false) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<String, Boolean> eldest) {
                return size() > 1_000_000;
            }
        };
        String prefix = runId + "-";
        while (!stop.get()) {
            for (ConsumerRecord<String, byte[]> record : consumer.poll(Duration.ofMillis(100))) {
                long nowMicros = System.currentTimeMillis() * 1_000;
                Fill fill;
                try {
                    fill = WireFormat.decodeFill(record.value());
                } catch (WireFormat.InvalidMessageException e) {
                    metrics.count("fills.undecodable/" + region.name(), 1);
                    continue;
                }
                if (fill.customerId() == null || !fill.customerId().startsWith(prefix) || seen.put(fill.fillId(), Boolean.TRUE) != null) {
                    continue;
                }
                liveFills.increment();
                if (!measuredTicker(fill.tickerExchangeTimeMicros(), measureStartWallMicros, measureEndWallMicros)) {
                    continue;
                }
                String type = fill.orderType() == null ? "UNKNOWN" : fill.orderType().name();
                String fillRegion = fill.region() == null ? region.name() : fill.region();
                metrics.count(RunReport.FILLS + "/" + fillRegion, 1);
                long durable = fill.durableTimeMicros() - fill.tickerExchangeTimeMicros();
                if (filledByTicker(fill.orderType())) {
                    metrics.record(new SeriesKey(SeriesKey.Kind.TICKER_TO_FILL, fillRegion, type), durable);
                    metrics.record(new SeriesKey(SeriesKey.Kind.TICKER_TO_FILL_OBSERVED, fillRegion, type),
                            nowMicros - fill.tickerExchangeTimeMicros());
                } else {
                    metrics.record(new SeriesKey(SeriesKey.Kind.MARKET_QUOTE_AGE, fillRegion, type), durable);
                }
            }
        }
    }

    /**
     * Whether a ticker filled the order: a limit or stop order waits for a ticker to cross its price,
     * while a market order is filled when it is placed, at a quote that may be older than the order
     * itself. Only the first kind has a ticker-to-fill latency.
     */
    static boolean filledByTicker(OrderType type) {
        return type != OrderType.MARKET;
    }

    /** Whether a fill counts: its ticker was stamped in the measured phase (not the warm-up, not the drain). */
    static boolean measuredTicker(long tickerExchangeMicros, long measureStartWallMicros, long measureEndWallMicros) {
        return tickerExchangeMicros >= measureStartWallMicros && tickerExchangeMicros < measureEndWallMicros;
    }

    private KafkaConsumer<String, byte[]> fillConsumer(Target.RegionTarget r) {
        Properties p = consumerProperties(r.kafkaBootstrap());
        p.put(ConsumerConfig.ALLOW_AUTO_CREATE_TOPICS_CONFIG, true);
        KafkaConsumer<String, byte[]> consumer = new KafkaConsumer<>(p, new StringDeserializer(), new ByteArrayDeserializer());
        List<PartitionInfo> partitions = consumer.partitionsFor(target.topics().fills(), Duration.ofSeconds(15));
        if (partitions == null || partitions.isEmpty()) {
            consumer.close();
            throw new IllegalStateException("topic " + target.topics().fills() + " does not exist on the Kafka of region "
                    + r.name() + " (" + r.kafkaBootstrap() + ") and was not created automatically: is the topic prefix right?");
        }
        List<TopicPartition> assigned = partitions.stream().map(i -> new TopicPartition(i.topic(), i.partition())).toList();
        consumer.assign(assigned);
        consumer.seekToEnd(assigned);
        for (TopicPartition tp : assigned) {
            consumer.position(tp, Duration.ofSeconds(15));
        }
        return consumer;
    }

    private static KafkaProducer<String, byte[]> tickerProducer(Target.RegionTarget r) {
        Properties p = new Properties();
        p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, r.kafkaBootstrap());
        p.put(ProducerConfig.LINGER_MS_CONFIG, 0);
        p.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, 5_000);
        p.put(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, 30_000);
        p.put(ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, 10_000);
        return new KafkaProducer<>(p, new StringSerializer(), new ByteArraySerializer());
    }

    private static void waitUntil(long nanos, AtomicBoolean stop) {
        while (!stop.get()) {
            long left = nanos - System.nanoTime();
            if (left <= 0) {
                return;
            }
            LockSupport.parkNanos(Math.min(left, 50_000_000L));
        }
    }

    private static Thread start(String name, Runnable body) {
        Thread t = new Thread(body, name);
        t.setDaemon(true);
        t.start();
        return t;
    }

    private static java.util.concurrent.ThreadFactory daemon(String name) {
        AtomicLong n = new AtomicLong();
        return r -> {
            Thread t = new Thread(r, name + "-" + n.incrementAndGet());
            t.setDaemon(true);
            return t;
        };
    }

    @Override
    public void close() {
        brokers.values().forEach(BrokerClient::close);
        httpExecutor.shutdownNow();
    }
}
