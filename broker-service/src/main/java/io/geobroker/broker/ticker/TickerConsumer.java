package io.geobroker.broker.ticker;

import io.geobroker.broker.config.BrokerProperties;
import io.geobroker.broker.live.LiveFeed;
import io.geobroker.broker.matching.Engine;
import io.geobroker.domain.Region;
import io.geobroker.domain.SymbolDirectory;
import io.geobroker.domain.Ticker;
import io.geobroker.domain.Topics;
import io.geobroker.domain.Topology;
import io.geobroker.domain.WallClock;
import io.geobroker.domain.WireFormat;
import io.geobroker.kafka.TopicReadiness;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.binder.kafka.KafkaClientMetrics;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRebalanceListener;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.FencedInstanceIdException;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;
import org.springframework.stereotype.Component;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;

/**
 * Consumes the ticker topics of the region's exchanges (one consumer group per region) and feeds
 * the engine. Offsets are committed only for tickers whose effects are durable and whose fills are
 * published ({@link DurableOffsets}); a restart re-reads the rest, and the engine recognises
 * replays by sequence. A message that does not decode goes to the dead-letter topic with the reason
 * in a header, and consumption carries on.
 */
@Component
public class TickerConsumer implements SmartLifecycle {

    private static final Logger log = LoggerFactory.getLogger(TickerConsumer.class);
    /** How long after a failed consumer a new one starts. */
    static final Duration RESTART_DELAY = Duration.ofSeconds(1);

    private final Engine engine;
    private final LiveFeed live;
    private final DurableOffsets offsets;
    private final SymbolDirectory directory;
    private final Topics topics;
    private final List<String> tickerTopics;
    private final String regionName;
    private final Properties consumerConfig = new Properties();
    private final Properties producerConfig = new Properties();
    private final MeterRegistry meters;
    private final Counter deadLettered;
    private final Timer delivery;
    private final TopicReadiness deadLetterTopic;
    private final long commitIntervalNanos;
    private long lastCommitNanos = System.nanoTime();
    private volatile boolean running;
    private volatile KafkaConsumer<String, byte[]> consumer;
    private Thread thread;

    public TickerConsumer(Engine engine, LiveFeed live, DurableOffsets offsets, SymbolDirectory directory,
                          Topics topics, Region region, Topology.RegionEndpoints localRegion,
                          BrokerProperties properties, MeterRegistry meters) {
        this.engine = engine;
        this.live = live;
        this.offsets = offsets;
        this.directory = directory;
        this.topics = topics;
        this.meters = meters;
        this.tickerTopics = region.exchanges().stream().map(topics::tickers).toList();
        this.regionName = region.name();
        consumerConfig.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, localRegion.kafkaBootstrap());
        consumerConfig.put(ConsumerConfig.GROUP_ID_CONFIG, topics.prefix() + "broker-" + region.name());
        // Static membership: a broker restarted after a crash takes its partitions back at once, instead
        // of waiting for the dead instance's session to time out (45 s). A second broker of the region
        // fences the first, whose consumer then stops (one writer per region).
        consumerConfig.put(ConsumerConfig.GROUP_INSTANCE_ID_CONFIG, topics.prefix() + "broker-" + region.name());
        consumerConfig.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        consumerConfig.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        consumerConfig.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, properties.kafka().maxPollRecords());
        consumerConfig.put(ConsumerConfig.MAX_POLL_INTERVAL_MS_CONFIG,
                Math.toIntExact(properties.kafka().maxPollInterval().toMillis()));
        this.commitIntervalNanos = properties.kafka().offsetCommitInterval().toNanos();
        consumerConfig.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        consumerConfig.put(ConsumerConfig.CLIENT_ID_CONFIG, "broker-tickers-" + region.name());
        producerConfig.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, localRegion.kafkaBootstrap());
        producerConfig.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
        producerConfig.put(ProducerConfig.ACKS_CONFIG, "all");
        producerConfig.put(ProducerConfig.CLIENT_ID_CONFIG, "broker-dead-letter-" + region.name());
        deadLetterTopic = new TopicReadiness("broker-dead-letter-topic", List.of(new TopicReadiness.Target(
                region.name(), localRegion.kafkaBootstrap(), topics.tickersDeadLetter())));
        deadLettered = Counter.builder("geobroker.tickers.dead.lettered")
                .description("Ticker messages that could not be decoded").register(meters);
        delivery = Timer.builder("geobroker.ticker.delivery")
                .description("Exchange time of a ticker to this broker's consumer receiving it (the publisher and Kafka)")
                .publishPercentileHistogram().register(meters);
    }

    @Override
    public void start() {
        running = true;
        thread = new Thread(this::run, "ticker-consumer");
        thread.start();
    }

    @Override
    public void stop() {
        running = false;
        KafkaConsumer<String, byte[]> c = consumer;
        if (c != null) {
            c.wakeup();
        }
        if (thread != null) {
            try {
                thread.join(10_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    @Override
    public boolean isRunning() {
        return running;
    }

    /** After the engine (phase 0), so it stops first and lets the engine finish its last group. */
    @Override
    public int getPhase() {
        return 1;
    }

    /**
     * Consumes until stopped. A failure of the consumer (say a commit refused by a group that moved on
     * while the engine, waiting on Cassandra, held this thread past the poll interval) does not end
     * consumption: the consumer is closed and a new one goes on from the committed offsets a second
     * later, the engine recognising what it reads again by sequence. Only stopping, a fencing by
     * another broker of the region, or an engine that never became ready end it.
     */
    private void run() {
        while (running) {
            try {
                consume();
                return;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            } catch (RuntimeException e) {
                if (!running) {
                    return;
                }
                log.error("ticker consumer failed; a new one consumes from the committed offsets in {} ms",
                        RESTART_DELAY.toMillis(), e);
            } finally {
                consumer = null;
            }
            try {
                Thread.sleep(RESTART_DELAY.toMillis());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    /** One consumer's life: returns when consumption is over for good, throws when a new consumer should go on. */
    private void consume() throws InterruptedException {
        try (KafkaConsumer<String, byte[]> c = new KafkaConsumer<>(consumerConfig, new StringDeserializer(),
                new ByteArrayDeserializer());
             KafkaProducer<String, byte[]> deadLetters = new KafkaProducer<>(producerConfig, new StringSerializer(),
                     new ByteArraySerializer());
             KafkaClientMetrics metrics = new KafkaClientMetrics(c)) {
            consumer = c;
            if (!running) {
                return;
            }
            metrics.bindTo(meters);
            // The dead-letter topic is made writable while tickers flow; the first poison message waits for it.
            TopicReadiness.Check deadLetterTopicChecked = deadLetterTopic.inBackground("dead-letter-topic-readiness",
                    () -> !running);
            if (!engine.awaitReady(Duration.ofMinutes(10))) {
                log.error("the engine did not become ready; not consuming tickers");
                return;
            }
            c.subscribe(tickerTopics, new ConsumerRebalanceListener() {
                @Override
                public void onPartitionsRevoked(Collection<TopicPartition> partitions) {
                    try {
                        commit(c, true);
                    } catch (KafkaException e) {
                        log.warn("committing ticker offsets as {} were revoked failed ({}); a later commit covers "
                                + "them", partitions, e.toString());
                    }
                }

                @Override
                public void onPartitionsLost(Collection<TopicPartition> partitions) {
                    // The group has moved on without this consumer: a commit would be refused. What the
                    // engine made durable is committed after the partitions are assigned again.
                    log.warn("lost {} (no poll for longer than the poll interval, or the session expired); "
                            + "rejoining", partitions);
                }

                @Override
                public void onPartitionsAssigned(Collection<TopicPartition> partitions) {
                    log.info("consuming {}", partitions);
                }
            });
            while (running) {
                ConsumerRecords<String, byte[]> records = c.poll(Duration.ofMillis(100));
                long received = System.nanoTime();
                long receivedMicros = records.isEmpty() ? 0 : WallClock.nowMicros();
                for (ConsumerRecord<String, byte[]> record : records) {
                    Ticker ticker;
                    try {
                        ticker = WireFormat.decodeTicker(record.value(), directory);
                    } catch (WireFormat.InvalidMessageException e) {
                        deadLetterTopicChecked.await();
                        deadLetter(deadLetters, record, e.getMessage());
                        engine.skipped(record.topic(), record.partition(), record.offset());
                        continue;
                    }
                    delivery.record(deliveryMicros(ticker.exchangeTimeMicros(), receivedMicros), TimeUnit.MICROSECONDS);
                    live.tickerReceived(ticker);
                    engine.tickerReceived(ticker, record.topic(), record.partition(), record.offset(), received);
                }
                commit(c, false);
            }
            commit(c, true);
        } catch (WakeupException e) {
            log.debug("ticker consumer woken up to stop");
        } catch (FencedInstanceIdException e) {
            log.error("another broker of region {} consumes its tickers now (same group.instance.id): this one stops "
                    + "consuming; a region has one broker", regionName);
        }
    }

    /**
     * How long a ticker took from its exchange time to this consumer: the publisher's own delay and
     * Kafka's. The two clocks may disagree across machines; a ticker that seems to come from the
     * future counts as delivered at once.
     */
    static long deliveryMicros(long exchangeTimeMicros, long receivedMicros) {
        return Math.max(0, receivedMicros - exchangeTimeMicros);
    }

    /**
     * Commits the offsets the engine has made durable: at once when {@code sync} (partitions revoked,
     * stopping), else at most once per offset-commit-interval, the poll loop coming back at least
     * every 100 ms.
     */
    private void commit(KafkaConsumer<String, byte[]> c, boolean sync) {
        long now = System.nanoTime();
        if (!sync && !commitDue(now, lastCommitNanos, commitIntervalNanos)) {
            return;
        }
        Map<TopicPartition, OffsetAndMetadata> done = offsets.drain();
        if (done.isEmpty()) {
            return;
        }
        lastCommitNanos = now;
        if (sync) {
            c.commitSync(done);
        } else {
            c.commitAsync(done, (committed, error) -> {
                if (error != null) {
                    log.warn("committing ticker offsets failed ({}); a later commit covers them", error.toString());
                }
            });
        }
    }

    /** Whether the interval since the last commit has passed (System.nanoTime() values, which may wrap). */
    static boolean commitDue(long nowNanos, long lastCommitNanos, long intervalNanos) {
        return nowNanos - lastCommitNanos >= intervalNanos;
    }

    private void deadLetter(KafkaProducer<String, byte[]> producer, ConsumerRecord<String, byte[]> record, String reason) {
        deadLettered.increment();
        ProducerRecord<String, byte[]> out = new ProducerRecord<>(topics.tickersDeadLetter(), record.key(), record.value());
        out.headers().add(Topics.REASON_HEADER, reason.getBytes(StandardCharsets.UTF_8));
        out.headers().add("geobroker-source", (record.topic() + "/" + record.partition() + "/" + record.offset())
                .getBytes(StandardCharsets.UTF_8));
        try {
            producer.send(out).get();
        } catch (java.util.concurrent.ExecutionException e) {
            log.warn("could not dead-letter ticker {}/{}/{}: {}", record.topic(), record.partition(), record.offset(),
                    e.getCause().toString());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
