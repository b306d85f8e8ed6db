package io.geobroker.loadgen.driver;

import io.geobroker.loadgen.report.Resources;

import java.net.http.HttpClient;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * Samples the {@link Resources} series every interval of the measured phase, on a thread of its
 * own: each process's RSS and, for a JVM, its heap after the last GC ({@link ProcessMemory}); each
 * broker's consumer lag from its Prometheus page (that one gauge only); each Cassandra node's backlog
 * ({@link CassandraCounters#backlog()}). A reading that fails is left out of its series (a gap);
 * a sample that overruns the interval delays the next one rather than overlapping it.
 *
 * <p>A phase of {@link #LIVE_HEAP_MIN} or longer (a soak) also gets each JVM's live heap
 * ({@link ProcessMemory#liveHeapBytes()}) twice: {@link #LIVE_HEAP_LEAD} before the phase (in the
 * warm-up) and as it ends, each after a full collection the sampler asks for. Those pauses are kept
 * out of shorter runs, whose latency they would show.
 */
public final class ResourceSampler implements AutoCloseable {

    /** The Micrometer name of the Kafka consumers' maximum records lag, one sample per consumer and partition. */
    static final String RECORDS_LAG_MAX = "kafka_consumer_fetch_manager_records_lag_max";
    private static final Duration SCRAPE_TIMEOUT = Duration.ofSeconds(5);
    private static final String LOAD_GENERATOR = "load generator";
    /** The shortest phase whose JVMs are asked for a full collection at its edges. */
    static final Duration LIVE_HEAP_MIN = Duration.ofMinutes(10);
    /** How long before the phase the first full collections are asked for. */
    static final Duration LIVE_HEAP_LEAD = Duration.ofSeconds(15);
    /**
     * How long before the phase everything is read once, unrecorded. A first reading is slow (each
     * JVM builds what its JMX answer needs): as the phase's first sample it took 1.3 s against 0.2 s
     * for the later ones, and the fills of that second had p50 16-27 ms against 10-12 in the others
     * (12.4 against 11.6 without sampling). With this reading the first sample took 0.3-0.5 s and
     * that second's p50 was 2.7-4.7 ms above the others' (docs/results.md, 2026-12-07). Close to
     * the phase rather than when the sampler connects, within the 15 s after which RMI closes an
     * idle connection.
     */
    static final Duration FIRST_READ_LEAD = Duration.ofSeconds(5);

    /**
     * What a run samples besides the load generator itself and the brokers: the processes it started
     * on this machine (name → pid; none for a deployment elsewhere) and its Cassandra nodes' backlog
     * (an empty map without them).
     */
    public record Sources(Map<String, Long> processes, Supplier<Map<String, CassandraCounters.Backlog>> cassandra) {
        public Sources {
            processes = Map.copyOf(processes);
        }

        public static Sources none() {
            return new Sources(Map.of(), Map::of);
        }
    }

    private final ScheduledExecutorService thread;
    private final Duration interval;
    private final long phaseStartNanos;
    private final long phaseMillis;
    private final boolean liveHeap;
    // added to by the sampling thread, closed by the run's
    private final List<ProcessMemory> processes = new CopyOnWriteArrayList<>();
    private final Map<String, List<long[]>> points = new LinkedHashMap<>();

    private ResourceSampler(Duration interval, long phaseStartNanos, long phaseMillis) {
        this.thread = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "loadgen-resources");
            t.setDaemon(true);
            return t;
        });
        this.interval = interval;
        this.phaseStartNanos = phaseStartNanos;
        this.phaseMillis = phaseMillis;
        this.liveHeap = phaseMillis >= LIVE_HEAP_MIN.toMillis();
    }

    /**
     * Connects to the processes now (in the background), reads everything once unrecorded
     * {@link #FIRST_READ_LEAD} before {@code startMillis} from now, and samples every {@code interval}
     * from {@link #firstSampleMillis half an interval} after {@code startMillis} to {@code measured}
     * after it.
     *
     * @param brokers each region's broker URL
     */
    public static ResourceSampler start(Sources sources, Map<String, String> brokers, Duration interval, long startMillis,
                                        Duration measured) {
        ResourceSampler sampler = new ResourceSampler(interval, System.nanoTime() + startMillis * 1_000_000,
                measured.toMillis());
        HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
        sampler.processes.add(ProcessMemory.self(LOAD_GENERATOR)); // in-process: nothing to wait for
        sampler.thread.execute(() -> sampler.connect(sources.processes()));
        sampler.thread.schedule(() -> sampler.read(sources.cassandra(), brokers, http, (quantity, source, value) -> {
        }), Math.max(0, startMillis - FIRST_READ_LEAD.toMillis()), TimeUnit.MILLISECONDS);
        if (sampler.liveHeap) {
            sampler.thread.schedule(sampler::sampleLiveHeap, Math.max(0, startMillis - LIVE_HEAP_LEAD.toMillis()),
                    TimeUnit.MILLISECONDS);
        }
        sampler.thread.scheduleAtFixedRate(() -> sampler.sample(sources.cassandra(), brokers, http),
                startMillis + firstSampleMillis(interval), interval.toMillis(), TimeUnit.MILLISECONDS);
        return sampler;
    }

    /**
     * When the phase's first sample is taken, from its start: half an interval in, so that the samples
     * fall in the middle of their intervals (5, 15, … 55 s of a 60 s phase at the default 10 s) and
     * none at the phase's first instant, where the run also reads the CPU, the counters and the
     * pages. Sampled as the phase began, that second was among the ten slowest of 61 in 10 of 17
     * default runs: its slowest fill 56 ms on average against 34 for the other seconds
     * (docs/results.md, f86af28).
     */
    static long firstSampleMillis(Duration interval) {
        return interval.toMillis() / 2;
    }

    private void connect(Map<String, Long> pids) {
        pids.forEach((name, pid) -> processes.add(ProcessMemory.attach(name, pid)));
    }

    /** Where one sample's readings go. */
    private interface Readings {
        void add(Resources.Quantity quantity, String source, long value);
    }

    private void sample(Supplier<Map<String, CassandraCounters.Backlog>> cassandra, Map<String, String> brokers,
                        HttpClient http) {
        // the last sample is the one half an interval before the phase's end, or the only one of a phase
        // shorter than an interval
        if (elapsedMillis() >= phaseMillis + firstSampleMillis(interval)) {
            return;
        }
        read(cassandra, brokers, http, this::add);
    }

    private void read(Supplier<Map<String, CassandraCounters.Backlog>> cassandra, Map<String, String> brokers,
                      HttpClient http, Readings readings) {
        for (ProcessMemory p : processes) {
            p.rssBytes().ifPresent(v -> readings.add(Resources.Quantity.RSS, p.name(), v));
            p.heapAfterGcBytes().ifPresent(v -> readings.add(Resources.Quantity.HEAP_AFTER_GC, p.name(), v));
        }
        brokers.forEach((region, url) -> BrokerHistogram.scrape(http, url, SCRAPE_TIMEOUT, List.of(RECORDS_LAG_MAX))
                .map(page -> gaugeMax(page, RECORDS_LAG_MAX))
                .ifPresent(lag -> lag.ifPresent(v -> readings.add(Resources.Quantity.CONSUMER_LAG, "broker " + region,
                        Math.round(v)))));
        try {
            cassandra.get().forEach((node, backlog) -> {
                readings.add(Resources.Quantity.PENDING_COMPACTIONS, node, backlog.pendingCompactions());
                readings.add(Resources.Quantity.PENDING_HINTS, node, backlog.pendingHintFiles());
            });
        } catch (RuntimeException e) {
            // Cassandra unreachable: a gap in its series
        }
    }

    /** Each JVM's live heap, after a full collection (one JVM at a time). */
    private void sampleLiveHeap() {
        for (ProcessMemory p : processes) {
            p.liveHeapBytes().ifPresent(v -> add(Resources.Quantity.LIVE_HEAP, p.name(), v));
        }
    }

    private long elapsedMillis() {
        return Math.max(0, (System.nanoTime() - phaseStartNanos) / 1_000_000);
    }

    private synchronized void add(Resources.Quantity quantity, String source, long value) {
        // the live heap after the phase is read as it ends: its point is the phase's end
        long at = Math.min(elapsedMillis(), phaseMillis);
        points.computeIfAbsent(quantity.key() + "\n" + source, k -> new ArrayList<>()).add(new long[] {at, value});
    }

    /**
     * The largest value of a gauge over its label sets on a Prometheus page; empty if the page has
     * none, or only NaN (a consumer not assigned any partition yet).
     */
    static OptionalDouble gaugeMax(String page, String name) {
        OptionalDouble max = OptionalDouble.empty();
        for (String line : page.split("\n")) {
            if (!(line.startsWith(name + " ") || line.startsWith(name + "{"))) {
                continue;
            }
            try {
                double v = Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1).trim());
                if (Double.isFinite(v) && (max.isEmpty() || v > max.getAsDouble())) {
                    max = OptionalDouble.of(v);
                }
            } catch (NumberFormatException e) {
                // not a sample line
            }
        }
        return max;
    }

    /** Stops sampling and gives the series, in the order their first points came. */
    public Resources finish() {
        stop();
        if (liveHeap) {
            sampleLiveHeap();
        }
        List<Resources.Series> series = new ArrayList<>();
        synchronized (this) {
            points.forEach((key, values) -> {
                int newline = key.indexOf('\n');
                series.add(new Resources.Series(key.substring(0, newline), key.substring(newline + 1), values));
            });
        }
        return new Resources(interval.toMillis(), series);
    }

    /** Stops sampling and closes the JMX connections. */
    @Override
    public void close() {
        stop();
        processes.forEach(ProcessMemory::close);
    }

    /** Stops the thread, waiting for a sample under way (its readings have timeouts of their own). */
    private void stop() {
        thread.shutdownNow();
        try {
            thread.awaitTermination(SCRAPE_TIMEOUT.toMillis() * 2, TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
