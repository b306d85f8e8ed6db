package io.geobroker.ticker.benchmark;

import io.geobroker.ticker.config.TickerProperties;
import io.geobroker.ticker.publish.TickerSender;
import io.geobroker.ticker.rate.RateControl;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.ApplicationArguments;
import org.springframework.boot.ApplicationRunner;
import org.springframework.boot.SpringApplication;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.stereotype.Component;

import java.util.Locale;
import java.util.concurrent.TimeUnit;

/**
 * The {@code --benchmark=30s} mode: raises the rate to {@code geobroker.ticker.benchmark.rate}
 * (default far above what one instance reaches), waits for the warm-up, counts the tickers Kafka
 * acknowledges during the measured window, prints one result line and exits. Uses the same
 * producers, model and pacing as normal publishing, so it measures the service itself.
 */
@Component
public class BenchmarkRunner implements ApplicationRunner {

    private static final Logger LOG = LoggerFactory.getLogger(BenchmarkRunner.class);

    private final TickerProperties properties;
    private final RateControl rateControl;
    private final TickerSender sender;
    private final MeterRegistry registry;
    private final ConfigurableApplicationContext context;

    public BenchmarkRunner(TickerProperties properties, RateControl rateControl, TickerSender sender,
                           MeterRegistry registry, ConfigurableApplicationContext context) {
        this.properties = properties;
        this.rateControl = rateControl;
        this.sender = sender;
        this.registry = registry;
        this.context = context;
    }

    @Override
    public void run(ApplicationArguments args) throws InterruptedException {
        TickerProperties.Benchmark benchmark = properties.benchmark();
        if (benchmark.duration() == null) {
            return;
        }
        LOG.info("Benchmark: target {} tickers/s, warm-up {}, measuring {}", benchmark.rate(), benchmark.warmup(),
                benchmark.duration());
        rateControl.update(benchmark.rate(), null);
        Thread.sleep(benchmark.warmup().toMillis());
        long acknowledgedBefore = sender.acknowledged();
        long failedBefore = failed();
        long missedBefore = missed();
        long start = System.nanoTime();
        Thread.sleep(benchmark.duration().toMillis());
        long acknowledged = sender.acknowledged() - acknowledgedBefore;
        long failed = failed() - failedBefore;
        long missed = missed() - missedBefore;
        double seconds = (System.nanoTime() - start) / 1e9;
        rateControl.update(0, null);
        sender.flush();
        var timers = registry.find("geobroker.ticker.send.latency").timers();
        long count = timers.stream().mapToLong(Timer::count).sum();
        double meanMs = timers.stream().mapToDouble(t -> t.totalTime(TimeUnit.MILLISECONDS)).sum() / Math.max(1, count);
        double maxMs = timers.stream().mapToDouble(t -> t.max(TimeUnit.MILLISECONDS)).max().orElse(Double.NaN);
        String result = String.format(Locale.ROOT,
                "BENCHMARK target=%.0f acknowledged=%d failed=%d missed=%d seconds=%.1f tickersPerSecond=%.0f sendLatencyMeanMsSinceStart=%.2f "
                        + "sendLatencyRecentMaxMs=%.2f exchanges=%s maxHeapMiB=%d cpus=%d java=%s",
                benchmark.rate(), acknowledged, failed, missed, seconds, acknowledged / seconds,
                meanMs, maxMs,
                rateControl.exchanges(), Runtime.getRuntime().maxMemory() >> 20,
                Runtime.getRuntime().availableProcessors(), System.getProperty("java.version"));
        System.out.println(result);
        LOG.info(result);
        System.exit(SpringApplication.exit(context, () -> 0));
    }

    private long failed() {
        return sum("geobroker.ticker.send.failed");
    }

    private long missed() {
        return sum("geobroker.ticker.pacing.missed");
    }

    private long sum(String counter) {
        return (long) registry.find(counter).counters().stream().mapToDouble(Counter::count).sum();
    }
}
