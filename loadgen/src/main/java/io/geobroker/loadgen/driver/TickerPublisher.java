package io.geobroker.loadgen.driver;

import io.geobroker.domain.Ticker;
import io.geobroker.domain.WireFormat;
import io.geobroker.loadgen.metrics.Metrics;
import io.geobroker.loadgen.metrics.RampedSchedule;
import io.geobroker.loadgen.report.RunReport;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;

import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.LongAdder;

/**
 * Publishes a run's tickers itself ({@link TickerSource#LOADGEN}): the symbols in turn, each ticker
 * at its intended time on the ramped schedule and stamped with that time, to the ticker topic of
 * its exchange on the Kafka of the region that owns it. Counts the measured phase's tickers and
 * failed sends per region.
 */
final class TickerPublisher {

    private final Target target;
    private final RampedSchedule schedule;
    private final MarketModel market;
    private final Map<String, KafkaProducer<String, byte[]>> producers;
    private final Metrics metrics;
    private final Phases phases;
    private final LongAdder liveErrors;

    TickerPublisher(Target target, RampedSchedule schedule, MarketModel market,
                    Map<String, KafkaProducer<String, byte[]>> producers, Metrics metrics, Phases phases,
                    LongAdder liveErrors) {
        this.target = target;
        this.schedule = schedule;
        this.market = market;
        this.producers = producers;
        this.metrics = metrics;
        this.phases = phases;
        this.liveErrors = liveErrors;
    }

    /** Publishes the schedule's tickers until it is done or {@code stop} is set. */
    void publish(AtomicBoolean stop, SplittableRandom random) {
        int n = market.symbols().size();
        for (long i = 0; i < schedule.operations() && !stop.get(); i++) {
            long intended = schedule.intendedNanos(i);
            Threads.waitUntil(intended, stop);
            int symbolIndex = (int) (i % n);
            MarketModel.TickerIntent t = market.nextTicker(symbolIndex, random);
            long exchangeMicros = phases.wallMicrosAtStart() + (intended - phases.startNanos()) / 1_000;
            Ticker ticker = new Ticker(t.symbol().symbol(), t.symbol().exchange(), t.price(), t.volume(), exchangeMicros, t.sequence());
            String home = target.homeOf(t.symbol().exchange()).orElseThrow().name();
            boolean measured = phases.measured(intended);
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
}
