package io.geobroker.broker.live;

import io.geobroker.domain.Region;
import io.geobroker.domain.SymbolDirectory;
import io.geobroker.domain.Topics;
import io.geobroker.domain.Topology;
import io.geobroker.domain.WireFormat;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.context.SmartLifecycle;
import org.springframework.stereotype.Component;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Properties;

/**
 * Other regions' tickers, fills and order events for the live page, read from their own Kafka while
 * a page is open: the page then sees another region's price change as soon as that region's
 * exchange publishes it, instead of at the next read of the replicated quotes (1-3 s later), and a
 * customer's order for another region's symbol filled, cancelled or expired there as soon as that
 * region's broker has made it durable and published it ({@link LiveFeed} pushes a fill or order
 * event only to the pages of its customer). One consumer per other region, assigned every partition
 * of its exchanges' ticker topics and of its fills and order events topics (no group, nothing
 * committed), starting at the end each time a first page opens. A record that does not decode is
 * skipped (its home broker dead-letters a bad ticker; the fills and events are its own). Regions are
 * those of {@code geobroker.live.price-regions} (every other region of the topology when empty); a
 * deployment whose brokers cannot reach the other regions' Kafka names only its own region, and its
 * pages keep the replicated quotes and read another region's fills and cancels with the orders.
 */
@Component
public class RemoteRegions implements SmartLifecycle {

    private static final Logger log = LoggerFactory.getLogger(RemoteRegions.class);
    static final Duration POLL = Duration.ofMillis(100);
    static final Duration IDLE = Duration.ofMillis(200);
    static final Duration RETRY = Duration.ofSeconds(1);

    private final LiveFeed feed;
    private final SymbolDirectory directory;
    private final List<Source> sources = new ArrayList<>();
    private final List<Thread> threads = new ArrayList<>();
    private volatile boolean running;

    /** One other region: where its Kafka is, which topics carry its tickers, and its fills and order events topics. */
    record Source(String region, String bootstrap, List<String> topics, String fills, String orderEvents) {

        List<String> all() {
            List<String> all = new ArrayList<>(topics);
            all.add(fills);
            all.add(orderEvents);
            return all;
        }
    }

    public RemoteRegions(LiveFeed feed, SymbolDirectory directory, Topology topology, Topics topics, Region region,
                        @Value("${geobroker.live.price-regions:}") String priceRegions) {
        this.feed = feed;
        this.directory = directory;
        List<String> named = Arrays.stream(priceRegions.split(",")).map(String::strip).filter(s -> !s.isEmpty()).toList();
        for (Topology.RegionEndpoints r : topology.regions()) {
            boolean chosen = named.isEmpty() || named.contains(r.name());
            if (!chosen || r.name().equals(region.name()) || r.kafkaBootstrap() == null || r.kafkaBootstrap().isBlank()) {
                continue;
            }
            sources.add(new Source(r.name(), r.kafkaBootstrap(),
                    r.region().exchanges().stream().map(topics::tickers).toList(), topics.fills(), topics.orderEvents()));
        }
        feed.pushedFrom(sources.stream().map(Source::region).toList());
    }

    /** The other regions whose tickers are read (for tests and the start-up log). */
    List<Source> sources() {
        return sources;
    }

    @Override
    public void start() {
        running = true;
        for (Source s : sources) {
            Thread t = new Thread(() -> run(s), "live-prices-" + s.region());
            t.setDaemon(true);
            threads.add(t);
            t.start();
        }
    }

    @Override
    public void stop() {
        running = false;
        threads.forEach(Thread::interrupt);
        for (Thread t : threads) {
            try {
                t.join(5_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        threads.clear();
    }

    @Override
    public boolean isRunning() {
        return running;
    }

    /** Reads while a page is open; a failure (the region's Kafka unreachable) is retried a second later. */
    private void run(Source source) {
        while (running) {
            try (KafkaConsumer<String, byte[]> consumer = consumer(source)) {
                follow(consumer, source);
            } catch (RuntimeException e) {
                log.debug("reading the tickers of region {} failed; trying again in {}", source.region(), RETRY, e);
                sleep(RETRY);
            }
        }
    }

    private void follow(KafkaConsumer<String, byte[]> consumer, Source source) {
        boolean atEnd = false;
        while (running) {
            if (feed.subscribers() == 0) {
                atEnd = false;
                sleep(IDLE);
                continue;
            }
            if (!atEnd) {
                List<TopicPartition> partitions = new ArrayList<>();
                for (String topic : source.all()) {
                    for (PartitionInfo p : consumer.partitionsFor(topic, Duration.ofSeconds(5))) {
                        partitions.add(new TopicPartition(topic, p.partition()));
                    }
                }
                consumer.assign(partitions);
                consumer.seekToEnd(partitions);
                atEnd = true;
            }
            for (ConsumerRecord<String, byte[]> r : consumer.poll(POLL)) {
                dispatch(feed, directory, r.topic(), r.value(), source);
            }
        }
    }

    /** Hands one record to the feed by its topic; one that does not decode is skipped (false). */
    static boolean dispatch(LiveFeed feed, SymbolDirectory directory, String topic, byte[] value, Source source) {
        try {
            if (topic.equals(source.fills())) {
                feed.filled(List.of(WireFormat.decodeFill(value)));
            } else if (topic.equals(source.orderEvents())) {
                feed.ended(List.of(WireFormat.decodeOrderEvent(value)));
            } else {
                feed.tickerReceived(WireFormat.decodeTicker(value, directory));
            }
            return true;
        } catch (WireFormat.InvalidMessageException e) {
            log.debug("a record of {} from region {} skipped: {}", topic, source.region(), e.getMessage());
            return false;
        }
    }

    private KafkaConsumer<String, byte[]> consumer(Source source) {
        Properties config = new Properties();
        config.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, source.bootstrap());
        config.put(ConsumerConfig.CLIENT_ID_CONFIG, "broker-live-prices-" + source.region());
        config.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        config.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "latest");
        config.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        return new KafkaConsumer<>(config, new StringDeserializer(), new ByteArrayDeserializer());
    }

    private void sleep(Duration d) {
        try {
            Thread.sleep(d.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            running = false;
        }
    }
}
