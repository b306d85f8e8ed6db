package io.geobroker.broker.it;

import io.geobroker.domain.Fill;
import io.geobroker.domain.SymbolDirectory;
import io.geobroker.domain.Ticker;
import io.geobroker.domain.Topics;
import io.geobroker.domain.WireFormat;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.UUID;
import java.util.concurrent.ExecutionException;

/**
 * The exchange side of a test: publishes tickers with increasing sequences per symbol to the real
 * Kafka, and reads back everything on the fills and dead-letter topics.
 */
final class Exchange implements AutoCloseable {

    private final KafkaProducer<String, byte[]> producer;
    private final KafkaConsumer<String, byte[]> fills;
    private final KafkaConsumer<String, byte[]> deadLetters;
    private final Topics topics;
    private final Map<String, Long> sequences = new HashMap<>();
    private final List<Fill> received = new ArrayList<>();
    private final List<ConsumerRecord<String, byte[]>> dead = new ArrayList<>();

    Exchange(String bootstrap, Topics topics) {
        this.topics = topics;
        Properties p = new Properties();
        p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        p.put(ProducerConfig.ACKS_CONFIG, "all");
        producer = new KafkaProducer<>(p, new StringSerializer(), new ByteArraySerializer());
        fills = consumer(bootstrap, topics.fills());
        deadLetters = consumer(bootstrap, topics.tickersDeadLetter());
    }

    private static KafkaConsumer<String, byte[]> consumer(String bootstrap, String topic) {
        Properties c = new Properties();
        c.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        c.put(ConsumerConfig.GROUP_ID_CONFIG, "test-" + UUID.randomUUID());
        c.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        c.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        KafkaConsumer<String, byte[]> consumer = new KafkaConsumer<>(c, new StringDeserializer(), new ByteArrayDeserializer());
        consumer.subscribe(List.of(topic));
        return consumer;
    }

    /** Publishes the symbol's next ticker; returns its sequence. */
    synchronized long tick(String symbol, long price, long volume) {
        long sequence = sequences.merge(symbol, 1L, Long::sum);
        send(symbol, price, volume, sequence);
        return sequence;
    }

    /** Publishes a ticker with an explicit sequence (replays); returns where Kafka stored it. */
    RecordMetadata send(String symbol, long price, long volume, long sequence) {
        String exchange = SymbolDirectory.standard().symbol(symbol).orElseThrow().exchange();
        Ticker ticker = new Ticker(symbol, exchange, price, volume, System.currentTimeMillis() * 1000, sequence);
        return sendRaw(exchange, symbol, WireFormat.encode(ticker));
    }

    RecordMetadata sendRaw(String exchange, String key, byte[] value) {
        try {
            return producer.send(new ProducerRecord<>(topics.tickers(exchange), key, value)).get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        } catch (ExecutionException e) {
            throw new IllegalStateException(e.getCause());
        }
    }

    /** Every fill published so far (duplicates included), polled from the fills topic. */
    synchronized List<Fill> fills() {
        for (ConsumerRecord<String, byte[]> r : fills.poll(Duration.ofMillis(200))) {
            try {
                received.add(WireFormat.decodeFill(r.value()));
            } catch (WireFormat.InvalidMessageException e) {
                throw new IllegalStateException("the broker published an invalid fill", e);
            }
        }
        return List.copyOf(received);
    }

    List<Fill> fillsOf(String orderId) {
        return fills().stream().filter(f -> f.orderId().equals(orderId)).toList();
    }

    List<ConsumerRecord<String, byte[]>> deadLetters() {
        deadLetters.poll(Duration.ofMillis(200)).forEach(dead::add);
        return List.copyOf(dead);
    }

    @Override
    public void close() {
        producer.close();
        fills.close();
        deadLetters.close();
    }
}
