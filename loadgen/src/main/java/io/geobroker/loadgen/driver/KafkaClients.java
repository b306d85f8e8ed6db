package io.geobroker.loadgen.driver;

import io.geobroker.domain.Topics;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;

/**
 * The load generator's Kafka clients and their settings: the fills and ticker consumers, which read
 * a region's topics from their current end without a group, and the producer of its own tickers.
 */
final class KafkaClients {

    /** The ticker watcher's fetches: this many bytes (a few hundred tickers) or {@link #TICKER_FETCH_MAX_WAIT_MS}. */
    static final int TICKER_FETCH_MIN_BYTES = 32 * 1024;
    static final int TICKER_FETCH_MAX_WAIT_MS = 50;

    private KafkaClients() {
    }

    /**
     * A consumer of the region's Kafka without a group: from the current end, nothing committed. A
     * fetch returns as soon as one record is there (fetch.min.bytes 1), so the 500 ms long poll only
     * spares the brokers empty fetches; it delays no record.
     */
    static Properties consumerProperties(String bootstrap) {
        Properties p = new Properties();
        p.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        p.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        p.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "latest");
        p.put(ConsumerConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, 15_000);
        p.put(ConsumerConfig.REQUEST_TIMEOUT_MS_CONFIG, 10_000);
        p.put(ConsumerConfig.FETCH_MAX_WAIT_MS_CONFIG, 500);
        return p;
    }

    /**
     * The ticker watcher's consumer: unlike the fills watcher, it asks Kafka for
     * {@value #TICKER_FETCH_MIN_BYTES} bytes or {@value #TICKER_FETCH_MAX_WAIT_MS} ms, whichever
     * comes first. It only learns quotes and counts tickers, so a quote up to that much older costs
     * nothing, while a fetch answered as soon as one record is there costs a request for every few
     * tickers on the cores the measured system shares (docs/results.md, the 6cb23f8 entry).
     */
    static Properties tickerConsumerProperties(String bootstrap) {
        Properties p = consumerProperties(bootstrap);
        p.put(ConsumerConfig.FETCH_MIN_BYTES_CONFIG, TICKER_FETCH_MIN_BYTES);
        p.put(ConsumerConfig.FETCH_MAX_WAIT_MS_CONFIG, TICKER_FETCH_MAX_WAIT_MS);
        return p;
    }

    /** A consumer of the region's exchanges' ticker topics, from their current end. */
    static KafkaConsumer<String, byte[]> tickerConsumer(Target.RegionTarget r, Topics topics) {
        Properties p = tickerConsumerProperties(r.kafkaBootstrap());
        KafkaConsumer<String, byte[]> consumer = new KafkaConsumer<>(p, new StringDeserializer(), new ByteArrayDeserializer());
        List<TopicPartition> assigned = new ArrayList<>();
        for (String exchange : r.region().exchanges()) {
            String topic = topics.tickers(exchange);
            List<PartitionInfo> partitions = consumer.partitionsFor(topic, Duration.ofSeconds(15));
            if (partitions == null || partitions.isEmpty()) {
                consumer.close();
                throw new IllegalStateException("topic " + topic + " does not exist on the Kafka of region " + r.name()
                        + " (" + r.kafkaBootstrap() + "): is the topic prefix right?");
            }
            partitions.forEach(i -> assigned.add(new TopicPartition(i.topic(), i.partition())));
        }
        consumer.assign(assigned);
        consumer.seekToEnd(assigned);
        for (TopicPartition tp : assigned) {
            consumer.position(tp, Duration.ofSeconds(15));
        }
        return consumer;
    }

    /** A consumer of the region's fills topic, from its current end. */
    static KafkaConsumer<String, byte[]> fillConsumer(Target.RegionTarget r, Topics topics) {
        Properties p = consumerProperties(r.kafkaBootstrap());
        p.put(ConsumerConfig.ALLOW_AUTO_CREATE_TOPICS_CONFIG, true);
        KafkaConsumer<String, byte[]> consumer = new KafkaConsumer<>(p, new StringDeserializer(), new ByteArrayDeserializer());
        List<PartitionInfo> partitions = consumer.partitionsFor(topics.fills(), Duration.ofSeconds(15));
        if (partitions == null || partitions.isEmpty()) {
            consumer.close();
            throw new IllegalStateException("topic " + topics.fills() + " does not exist on the Kafka of region "
                    + r.name() + " (" + r.kafkaBootstrap() + ") and was not created automatically: is the topic prefix right?");
        }
        List<TopicPartition> assigned = partitions.stream().map(i -> new TopicPartition(i.topic(), i.partition())).toList();
        consumer.assign(assigned);
        consumer.seekToEnd(assigned);
        for (TopicPartition tp : assigned) {
            consumer.position(tp, Duration.ofSeconds(15));
        }
        return consumer;
    }

    /** The producer of the tickers the load generator publishes itself to the region's Kafka. */
    static KafkaProducer<String, byte[]> tickerProducer(Target.RegionTarget r) {
        Properties p = new Properties();
        p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, r.kafkaBootstrap());
        p.put(ProducerConfig.LINGER_MS_CONFIG, 0);
        p.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, 5_000);
        p.put(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, 30_000);
        p.put(ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, 10_000);
        return new KafkaProducer<>(p, new StringSerializer(), new ByteArraySerializer());
    }
}
