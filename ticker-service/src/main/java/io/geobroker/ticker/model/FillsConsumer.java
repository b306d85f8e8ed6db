package io.geobroker.ticker.model;

import io.geobroker.domain.Fill;
import io.geobroker.domain.WireFormat;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.errors.WakeupException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Consumes one region's fills topic and records each fill as price pressure ({@link FillPressure}).
 * A record that is not a valid fill is counted ({@code geobroker.ticker.fills{outcome=invalid}}) and
 * skipped — it never stops the consumer; the topic belongs to the broker, so dead-lettering it is
 * the broker's job. Runs on its own thread; {@link #stop()} from any thread.
 */
public final class FillsConsumer implements Runnable {

    private static final Logger LOG = LoggerFactory.getLogger(FillsConsumer.class);
    private static final long WARN_INTERVAL_NANOS = TimeUnit.SECONDS.toNanos(10);

    private final String region;
    private final String topic;
    private final Consumer<String, byte[]> consumer;
    private final FillPressure pressure;
    private final Counter applied;
    private final Counter invalid;
    private final Counter ignored;
    private volatile boolean stopped;
    private long lastWarn = System.nanoTime() - WARN_INTERVAL_NANOS;

    public FillsConsumer(String region, String topic, Consumer<String, byte[]> consumer, FillPressure pressure,
                         MeterRegistry registry) {
        this.region = region;
        this.topic = topic;
        this.consumer = consumer;
        this.pressure = pressure;
        this.applied = counter(registry, "applied");
        this.invalid = counter(registry, "invalid");
        this.ignored = counter(registry, "unknown-symbol");
    }

    private Counter counter(MeterRegistry registry, String outcome) {
        return Counter.builder("geobroker.ticker.fills").tag("region", region).tag("outcome", outcome)
                .description("Fills consumed to move prices").register(registry);
    }

    public String region() {
        return region;
    }

    @Override
    public void run() {
        try {
            consumer.subscribe(List.of(topic));
            while (!stopped) {
                for (ConsumerRecord<String, byte[]> record : consumer.poll(Duration.ofMillis(500))) {
                    apply(record);
                }
            }
        } catch (WakeupException e) {
            if (!stopped) {
                throw e;
            }
        } finally {
            consumer.close(Duration.ofSeconds(5));
        }
    }

    public void stop() {
        stopped = true;
        consumer.wakeup();
    }

    private void apply(ConsumerRecord<String, byte[]> record) {
        Fill fill;
        try {
            fill = WireFormat.decodeFill(record.value());
        } catch (WireFormat.InvalidMessageException e) {
            invalid.increment();
            long now = System.nanoTime();
            if (now - lastWarn >= WARN_INTERVAL_NANOS) {
                lastWarn = now;
                LOG.warn("Skipped an invalid fill on {} of region {} (partition {}, offset {}): {}; counted in "
                        + "geobroker.ticker.fills{outcome=invalid}", topic, region, record.partition(), record.offset(),
                        e.getMessage());
            }
            return;
        }
        if (fill.side() != null && pressure.record(fill.symbol(), fill.side(), fill.quantity())) {
            applied.increment();
        } else {
            ignored.increment();
        }
    }
}
