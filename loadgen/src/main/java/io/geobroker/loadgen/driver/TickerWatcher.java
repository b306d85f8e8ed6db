package io.geobroker.loadgen.driver;

import io.geobroker.domain.SymbolDirectory;
import io.geobroker.domain.Ticker;
import io.geobroker.domain.WireFormat;
import io.geobroker.loadgen.metrics.Metrics;
import io.geobroker.loadgen.report.RunReport;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Reads the tickers of a region's exchanges when a ticker service publishes them: each one sets its
 * symbol's quote (orders are priced near it), and those stamped in the measured phase are counted
 * as the region's tickers.
 */
final class TickerWatcher {

    private final KafkaConsumer<String, byte[]> consumer;
    private final Target.RegionTarget region;
    private final MarketModel market;
    private final Metrics metrics;
    private final Phases phases;
    private final SymbolDirectory directory = SymbolDirectory.standard();

    TickerWatcher(KafkaConsumer<String, byte[]> consumer, Target.RegionTarget region, MarketModel market, Metrics metrics,
                  Phases phases) {
        this.consumer = consumer;
        this.region = region;
        this.market = market;
        this.metrics = metrics;
        this.phases = phases;
    }

    /** Reads until {@code stop} is set. */
    void watch(AtomicBoolean stop) {
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
                if (phases.measuredTicker(ticker.exchangeTimeMicros())) {
                    metrics.count(RunReport.TICKERS + "/" + region.name(), 1);
                }
            }
        }
    }
}
