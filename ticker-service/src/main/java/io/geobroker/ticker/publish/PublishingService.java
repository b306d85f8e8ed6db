package io.geobroker.ticker.publish;

import io.geobroker.kafka.TopicReadiness;
import io.geobroker.ticker.model.FillsConsumer;
import io.geobroker.ticker.rate.PacedLoop;
import io.geobroker.ticker.replay.ReplayFeed;
import io.geobroker.ticker.replay.ReplayReport;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Runs the publishing loops (one per exchange when generating, one when replaying) and the fills
 * consumers on their own threads, from when the application has started until it stops; on stop it
 * waits for them to end, so every ticker handed to Kafka is flushed before the producers close.
 * Each loop starts publishing once {@link TopicReadiness} finds its own ticker topics writable, on
 * the loop's thread: a region's Kafka that is not there yet delays that region's tickers, not the
 * other regions' nor the application's start.
 */
public final class PublishingService implements SmartLifecycle {

    private static final Logger LOG = LoggerFactory.getLogger(PublishingService.class);
    private static final long JOIN_MILLIS = 10_000;

    /** A publishing loop and the topics it publishes to. */
    public record Loop(PacedLoop loop, TopicReadiness topics) {
    }

    private final List<Loop> loops;
    private final List<FillsConsumer> fillsConsumers;
    private final ReplayFeed replay;
    private final ReplayReport replayReport;
    private final TickerSender sender;
    private final List<Thread> threads = new ArrayList<>();
    private volatile boolean running;
    private volatile boolean stopping;

    public PublishingService(List<Loop> loops, List<FillsConsumer> fillsConsumers, ReplayFeed replay,
                             ReplayReport replayReport, TickerSender sender) {
        this.loops = List.copyOf(loops);
        this.fillsConsumers = List.copyOf(fillsConsumers);
        this.replay = replay;
        this.replayReport = replayReport;
        this.sender = sender;
    }

    /** The replay's progress, when the service replays a file. */
    public Optional<ReplayReport> replayReport() {
        return Optional.ofNullable(replayReport);
    }

    @Override
    public synchronized void start() {
        for (FillsConsumer consumer : fillsConsumers) {
            threads.add(startThread("fills-" + consumer.region(), consumer));
        }
        for (Loop loop : loops) {
            threads.add(startThread(loop.loop().name(), () -> {
                if (loop.topics().await(() -> stopping)) {
                    loop.loop().run();
                }
            }));
        }
        running = true;
    }

    @Override
    public synchronized void stop() {
        stopping = true;
        loops.forEach(l -> l.loop().stop());
        fillsConsumers.forEach(FillsConsumer::stop);
        for (Thread thread : threads) {
            try {
                thread.join(JOIN_MILLIS);
                if (thread.isAlive()) {
                    LOG.warn("Thread {} did not end within {} ms", thread.getName(), JOIN_MILLIS);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
        }
        threads.clear();
        if (replay != null) {
            replay.stop();
        }
        sender.flush();
        running = false;
    }

    @Override
    public boolean isRunning() {
        return running;
    }

    private static Thread startThread(String name, Runnable body) {
        Thread thread = new Thread(body, name);
        thread.setDaemon(true);
        thread.setUncaughtExceptionHandler((t, e) -> LOG.error("Thread {} ended unexpectedly", t.getName(), e));
        thread.start();
        return thread;
    }
}
