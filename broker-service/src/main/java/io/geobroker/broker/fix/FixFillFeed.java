package io.geobroker.broker.fix;

import io.geobroker.domain.Fill;
import io.geobroker.domain.OrderEvent;
import io.geobroker.domain.Topics;
import io.geobroker.domain.Topology;
import io.geobroker.domain.WireFormat;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.consumer.OffsetAndTimestamp;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.Properties;
import java.util.function.Predicate;

/**
 * Reads the fills and order events topics of every region of the deployment and hands each fill
 * and each order event (an order cancelled or expired) to {@link FixSessions}: a customer that uses
 * FIX here gets its fills, cancels and expiries from every region. One consumer per region and
 * topic, so a region whose order events topic does not exist yet (a broker of an older version)
 * still feeds its fills. Offsets are committed (under the group {@code geobroker-fix-<region>},
 * without joining it) after each poll's records were handed over, so a crash reads at most that poll
 * again; the sessions recognise what they were already sent. A record that does not decode is
 * logged and skipped: it never stops the feed. Started only once some customer uses FIX here, so a
 * broker without FIX clients reads nothing.
 */
final class FixFillFeed implements AutoCloseable {

    /** Decodes one record's value; a record that is not valid throws. */
    interface Decoder<T> {
        T decode(byte[] value) throws WireFormat.InvalidMessageException;
    }

    /** One topic of every region: its name, what it carries, how it decodes and where it goes. */
    record Feed<T>(String topic, String kind, Decoder<T> decoder, Predicate<T> report) {
    }

    private static final Logger log = LoggerFactory.getLogger(FixFillFeed.class);

    /** Where a partition without a committed offset starts: this long before the feed started. */
    static final Duration FIRST_START_LOOKBACK = Duration.ofMinutes(1);

    private final List<KafkaConsumer<String, byte[]>> consumers = new ArrayList<>();
    private final List<Thread> threads = new ArrayList<>();
    private volatile boolean running = true;

    FixFillFeed(Topology topology, Topics topics, String localRegion, List<String> regions, Predicate<Fill> fills,
                Predicate<OrderEvent> events) {
        List<Feed<?>> feeds = List.of(new Feed<>(topics.fills(), "fills", WireFormat::decodeFill, fills),
                new Feed<>(topics.orderEvents(), "orders", WireFormat::decodeOrderEvent, events));
        for (Topology.RegionEndpoints region : topology.regions()) {
            if (!regions.isEmpty() && !regions.contains(region.name())) {
                continue;
            }
            if (region.kafkaBootstrap() == null || region.kafkaBootstrap().isBlank()) {
                continue;
            }
            for (Feed<?> feed : feeds) {
                Properties config = new Properties();
                config.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, region.kafkaBootstrap());
                config.put(ConsumerConfig.GROUP_ID_CONFIG, topics.prefix() + "geobroker-fix-" + localRegion);
                config.put(ConsumerConfig.CLIENT_ID_CONFIG, "broker-fix-" + localRegion + "-" + feed.kind() + "-" + region.name());
                config.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
                config.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "latest");
                config.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
                KafkaConsumer<String, byte[]> consumer = new KafkaConsumer<>(config, new StringDeserializer(),
                        new ByteArrayDeserializer());
                consumers.add(consumer);
                Thread t = new Thread(() -> run(consumer, feed, region.name()), "fix-" + feed.kind() + "-" + region.name());
                t.setDaemon(true);
                threads.add(t);
            }
        }
        threads.forEach(Thread::start);
    }

    /**
     * Polls until closed. A failure (the region's Kafka unreachable or restarting, a commit that
     * timed out) is logged and the loop goes on a second later: nothing is skipped, because the
     * position moves only past fills that were handed over, and the commit after the next poll
     * covers them.
     */
    private <T> void run(KafkaConsumer<String, byte[]> consumer, Feed<T> feed, String region) {
        boolean assigned = false;
        try {
            while (running) {
                try {
                    if (!assigned) {
                        assign(consumer, feed.topic());
                        assigned = true;
                    }
                    pollOnce(consumer, feed);
                } catch (WakeupException e) {
                    throw e;
                } catch (RuntimeException e) {
                    log.warn("FIX {} consumer of {}: {}; trying again in 1 s", feed.kind(), region, e.toString());
                    Thread.sleep(1_000);
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (WakeupException e) {
            if (running) {
                log.warn("FIX {} consumer of {} woken while running", feed.kind(), region);
            }
        } finally {
            consumer.close(Duration.ofSeconds(5));
        }
    }

    private static <T> void pollOnce(KafkaConsumer<String, byte[]> consumer, Feed<T> feed) {
        var records = consumer.poll(Duration.ofMillis(500));
        deliver(records, feed);
        if (!records.isEmpty()) {
            consumer.commitSync();
        }
    }

    /**
     * Hands every record that decodes to the feed's sessions, in order; one that does not is logged
     * and skipped (the topic belongs to its broker, so nothing is dead-lettered here). Returns how many
     * were skipped.
     */
    static <T> int deliver(Iterable<ConsumerRecord<String, byte[]>> records, Feed<T> feed) {
        int skipped = 0;
        for (ConsumerRecord<String, byte[]> record : records) {
            T value;
            try {
                value = feed.decoder().decode(record.value());
            } catch (WireFormat.InvalidMessageException e) {
                log.warn("undecodable record of {} at {}-{}@{} skipped: {}", feed.kind(), record.topic(),
                        record.partition(), record.offset(), e.getMessage());
                skipped++;
                continue;
            }
            feed.report().test(value);
        }
        return skipped;
    }

    /**
     * Takes every partition of the topic (no group membership, so no wait for a rebalance) and
     * starts where this broker's commits left off; a partition without a commit starts
     * {@link #FIRST_START_LOOKBACK} back, which covers the fills of the first customer's first orders.
     */
    private void assign(KafkaConsumer<String, byte[]> consumer, String topic) throws InterruptedException {
        List<TopicPartition> partitions = List.of();
        while (running && partitions.isEmpty()) {
            partitions = consumer.partitionsFor(topic, Duration.ofSeconds(10)).stream()
                    .map(p -> new TopicPartition(p.topic(), p.partition())).toList();
            if (partitions.isEmpty()) {
                Thread.sleep(1_000);
            }
        }
        consumer.assign(partitions);
        Map<TopicPartition, OffsetAndMetadata> committed = consumer.committed(Set.copyOf(partitions));
        Map<TopicPartition, Long> since = new HashMap<>();
        for (TopicPartition p : partitions) {
            OffsetAndMetadata c = committed.get(p);
            if (c != null) {
                consumer.seek(p, c.offset());
            } else {
                since.put(p, System.currentTimeMillis() - FIRST_START_LOOKBACK.toMillis());
            }
        }
        if (!since.isEmpty()) {
            Map<TopicPartition, OffsetAndTimestamp> found = consumer.offsetsForTimes(since);
            Map<TopicPartition, Long> ends = consumer.endOffsets(since.keySet());
            for (TopicPartition p : since.keySet()) {
                OffsetAndTimestamp at = found.get(p);
                consumer.seek(p, at != null ? at.offset() : ends.get(p));
            }
        }
    }

    @Override
    public void close() {
        running = false;
        consumers.forEach(KafkaConsumer::wakeup);
        for (Thread t : threads) {
            try {
                t.join(10_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }
}
