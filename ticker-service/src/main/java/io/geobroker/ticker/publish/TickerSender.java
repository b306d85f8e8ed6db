package io.geobroker.ticker.publish;

import io.geobroker.domain.Ticker;
import io.geobroker.domain.WallClock;
import io.geobroker.domain.WireFormat;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.Collection;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

/**
 * Sends tickers to the ticker topic of their exchange on the Kafka of the exchange's home region,
 * keyed by symbol (so one symbol's tickers stay in order on one partition), and records per exchange
 * how many Kafka acknowledged ({@code geobroker.ticker.published}), how many failed
 * ({@code geobroker.ticker.send.failed}) and the time from send to acknowledgement
 * ({@code geobroker.ticker.send.latency}). Thread-safe.
 */
public final class TickerSender implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(TickerSender.class);
    private static final long FAILURE_LOG_INTERVAL_NANOS = TimeUnit.SECONDS.toNanos(10);

    /** Where one exchange's tickers go and what is counted for it. */
    public record Route(String exchange, String region, String topic, RegionProducer producer) {
    }

    private final Map<String, Binding> bindings = new HashMap<>();
    private final LongAdder acknowledged = new LongAdder();
    private final AtomicLong lastFailureLog = new AtomicLong(System.nanoTime() - FAILURE_LOG_INTERVAL_NANOS);

    private record Binding(Route route, Counter published, Counter failed, Timer lateness, Timer latency) {
    }

    public TickerSender(Collection<Route> routes, MeterRegistry registry) {
        Map<RegionProducer, String> regions = new IdentityHashMap<>();
        routes.forEach(route -> regions.put(route.producer(), route.region()));
        regions.forEach((producer, region) -> {
            Gauge.builder("geobroker.ticker.producer.lingering", producer, p -> p.lingering() ? 1 : 0)
                    .description("1 while the region's tickers go to its lingering producer (their rate is high "
                            + "enough), 0 while each goes at once")
                    .tag("region", region).register(registry);
            FunctionCounter.builder("geobroker.ticker.producer.switches", producer, RegionProducer::switches)
                    .description("Times the region's tickers changed between the lingering producer and the one "
                            + "sending at once")
                    .tag("region", region).register(registry);
        });
        for (Route route : routes) {
            bindings.put(route.exchange(), new Binding(route,
                    Counter.builder("geobroker.ticker.published")
                            .description("Tickers acknowledged by Kafka")
                            .tag("exchange", route.exchange()).tag("region", route.region())
                            .register(registry),
                    Counter.builder("geobroker.ticker.send.failed")
                            .description("Tickers Kafka did not accept (after the producer's retries)")
                            .tag("exchange", route.exchange()).tag("region", route.region())
                            .register(registry),
                    timer("geobroker.ticker.publish.lateness",
                            "From a ticker's exchange time (its scheduled time) to handing it to the producer",
                            route, registry),
                    timer("geobroker.ticker.send.latency",
                            "From handing a ticker to the producer to Kafka's acknowledgement", route, registry)));
        }
    }

    /** A per-exchange histogram of 1 ms to 10 s. */
    private static Timer timer(String name, String description, Route route, MeterRegistry registry) {
        return Timer.builder(name).description(description)
                .tag("exchange", route.exchange()).tag("region", route.region())
                .publishPercentileHistogram()
                .minimumExpectedValue(Duration.ofMillis(1))
                .maximumExpectedValue(Duration.ofSeconds(10))
                .register(registry);
    }

    /**
     * Hands a ticker to the producer of its exchange's region. Blocks only when the producer's buffer is
     * full (back-pressure from Kafka).
     *
     * @throws IllegalArgumentException if this sender has no route for the ticker's exchange
     */
    public void send(Ticker ticker) {
        Binding binding = bindings.get(ticker.exchange());
        if (binding == null) {
            throw new IllegalArgumentException("no route for exchange " + ticker.exchange());
        }
        byte[] value = WireFormat.encode(ticker);
        binding.lateness().record(lateMicros(ticker.exchangeTimeMicros(), WallClock.nowMicros()), TimeUnit.MICROSECONDS);
        long start = System.nanoTime();
        binding.route().producer().send(new ProducerRecord<>(binding.route().topic(), ticker.symbol(), value),
                (metadata, exception) -> {
                    if (exception == null) {
                        binding.latency().record(System.nanoTime() - start, TimeUnit.NANOSECONDS);
                        binding.published().increment();
                        acknowledged.increment();
                    } else {
                        binding.failed().increment();
                        logFailure(binding.route(), exception);
                    }
                });
    }

    /**
     * How far behind its exchange time a ticker is handed to the producer: the publishing loop's
     * delay when it falls behind its schedule (a starved CPU, a blocked send). Never negative.
     */
    static long lateMicros(long exchangeTimeMicros, long nowMicros) {
        return Math.max(0, nowMicros - exchangeTimeMicros);
    }

    /** Tickers acknowledged by Kafka since start, all exchanges. */
    public long acknowledged() {
        return acknowledged.sum();
    }

    /** Waits until every ticker handed over so far is acknowledged or failed. */
    public void flush() {
        distinctProducers().forEach(RegionProducer::flush);
    }

    @Override
    public void close() {
        distinctProducers().forEach(p -> p.close(Duration.ofSeconds(5)));
    }

    private Collection<RegionProducer> distinctProducers() {
        Map<RegionProducer, Boolean> distinct = new IdentityHashMap<>();
        bindings.values().forEach(b -> distinct.put(b.route().producer(), true));
        return distinct.keySet();
    }

    private void logFailure(Route route, Exception exception) {
        long now = System.nanoTime();
        long last = lastFailureLog.get();
        if (now - last >= FAILURE_LOG_INTERVAL_NANOS && lastFailureLog.compareAndSet(last, now)) {
            LOG.warn("Kafka of region {} did not accept tickers for {} (topic {}): {}; counted in "
                            + "geobroker.ticker.send.failed, next report in 10 s at the earliest",
                    route.region(), route.exchange(), route.topic(), exception.toString());
        }
    }
}
