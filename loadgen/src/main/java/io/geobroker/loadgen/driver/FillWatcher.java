package io.geobroker.loadgen.driver;

import io.geobroker.domain.Fill;
import io.geobroker.domain.OrderType;
import io.geobroker.domain.WireFormat;
import io.geobroker.loadgen.metrics.Metrics;
import io.geobroker.loadgen.metrics.SeriesKey;
import io.geobroker.loadgen.report.RunReport;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.LongAdder;

/**
 * Reads a region's fills topic during a run: counts the fills of this run's customers, once each,
 * and for those whose ticker was stamped in the measured phase records the ticker-to-fill latency
 * (durable, and as observed here) of orders a ticker filled, or the quote's age for market orders.
 */
final class FillWatcher {

    /** How many fill ids are remembered to drop a fill seen twice. */
    private static final int SEEN_FILLS = 1_000_000;

    private final KafkaConsumer<String, byte[]> consumer;
    private final Target.RegionTarget region;
    private final String customerPrefix;
    private final Metrics metrics;
    private final Phases phases;
    private final LongAdder liveFills;

    FillWatcher(KafkaConsumer<String, byte[]> consumer, Target.RegionTarget region, String runId, Metrics metrics,
                Phases phases, LongAdder liveFills) {
        this.consumer = consumer;
        this.region = region;
        this.customerPrefix = runId + "-";
        this.metrics = metrics;
        this.phases = phases;
        this.liveFills = liveFills;
    }

    /** Reads until {@code stop} is set. */
    void watch(AtomicBoolean stop) {
        Map<String, Boolean> seen = new LinkedHashMap<>(16, 0.75f, false) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<String, Boolean> eldest) {
                return size() > SEEN_FILLS;
            }
        };
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
                if (fill.customerId() == null || !fill.customerId().startsWith(customerPrefix)
                        || seen.put(fill.fillId(), Boolean.TRUE) != null) {
                    continue;
                }
                liveFills.increment();
                if (!phases.measuredTicker(fill.tickerExchangeTimeMicros())) {
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
}
