package io.geobroker.ticker;

import io.geobroker.domain.SymbolDirectory;
import io.geobroker.domain.Ticker;
import io.geobroker.domain.WireFormat;
import io.geobroker.testsupport.StackContext;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;

/** Reads one ticker topic of one region's Kafka from the beginning, decoding and checking every record. */
final class TickerTopics implements AutoCloseable {

    /** A ticker as it arrived, with its record key. */
    record Arrived(String key, Ticker ticker) {
    }

    private final KafkaConsumer<String, byte[]> consumer;
    private final List<Arrived> arrived = new ArrayList<>();
    private final String topic;

    TickerTopics(String bootstrap, String topic) {
        this.topic = topic;
        consumer = new KafkaConsumer<>(Map.of(
                ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap,
                ConsumerConfig.GROUP_ID_CONFIG, "ticker-it-" + UUID.randomUUID(),
                ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest",
                ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false,
                ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class,
                ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class));
        consumer.subscribe(List.of(topic));
    }

    /** Polls once and returns everything that arrived so far. */
    List<Arrived> poll() {
        for (ConsumerRecord<String, byte[]> record : consumer.poll(Duration.ofMillis(200))) {
            try {
                arrived.add(new Arrived(record.key(), WireFormat.decodeTicker(record.value(), SymbolDirectory.standard())));
            } catch (WireFormat.InvalidMessageException e) {
                throw new AssertionError("invalid ticker on " + record.topic() + ": " + e.getMessage());
            }
        }
        return List.copyOf(arrived);
    }

    List<Ticker> tickers() {
        return poll().stream().map(Arrived::ticker).toList();
    }

    /** How many records the topic holds (the sum of its partitions' end offsets). */
    long endOffset() {
        List<TopicPartition> partitions = consumer.partitionsFor(topic).stream()
                .map(p -> new TopicPartition(p.topic(), p.partition())).toList();
        return consumer.endOffsets(partitions).values().stream().mapToLong(Long::longValue).sum();
    }

    /**
     * Asserts that ASX's ticker topic under {@code prefix} exists on Sydney's Kafka only, and NYSE's
     * and NASDAQ's on N. Virginia's only.
     */
    static void assertEachOnlyInItsHomeRegion(StackContext stack, String prefix) throws Exception {
        try (Admin sydney = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, stack.kafkaBootstrap("sydney")));
             Admin nvirginia = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, stack.kafkaBootstrap("nvirginia")))) {
            assertThat(sydney.listTopics().names().get()).contains(prefix + "tickers.ASX")
                    .doesNotContain(prefix + "tickers.NYSE", prefix + "tickers.NASDAQ");
            assertThat(nvirginia.listTopics().names().get()).contains(prefix + "tickers.NYSE", prefix + "tickers.NASDAQ")
                    .doesNotContain(prefix + "tickers.ASX");
        }
    }

    @Override
    public void close() {
        consumer.close();
    }
}
