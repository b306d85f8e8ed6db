package io.geobroker.broker.fill;

import io.geobroker.broker.config.BrokerProperties;
import io.geobroker.domain.Fill;
import io.geobroker.domain.OrderEvent;
import io.geobroker.domain.Topics;
import io.geobroker.domain.Topology;
import io.geobroker.domain.WireFormat;
import io.geobroker.kafka.TopicReadiness;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.DisposableBean;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.stereotype.Component;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;

/**
 * Publishes fills to the region's fills topic and order events (orders cancelled or expired) to its
 * order events topic, both keyed by order id, with one idempotent producer; the engine waits until
 * Kafka has them before it commits the group's ticker offsets or lets a later group's fills of the
 * same symbol count as the last ones, so a fill is either acknowledged or published again after a
 * restart (same fill id; consumers drop repeats). Order events are not published again after a
 * crash (DESIGN.md, *Order events*).
 *
 * <p>The first record waits until both topics are writable ({@link TopicReadiness}, checked on its
 * own thread from the start): a topic created by the idempotent producer's first send could refuse
 * that send until it expired (KAFKA-15591), holding up the engine for the delivery timeout.
 */
@Component
public class FillPublisher implements DisposableBean {

    private static final Logger log = LoggerFactory.getLogger(FillPublisher.class);

    private final KafkaProducer<String, byte[]> producer;
    private final String topic;
    private final String eventsTopic;
    private final TopicReadiness.Check topicChecked;
    private final List<FillListener> listeners;
    private volatile boolean closed;

    public FillPublisher(Topology.RegionEndpoints localRegion, Topics topics, BrokerProperties properties,
                         ObjectProvider<FillListener> listeners) {
        this.listeners = listeners.orderedStream().toList();
        Properties config = new Properties();
        config.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, localRegion.kafkaBootstrap());
        config.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
        config.put(ProducerConfig.ACKS_CONFIG, "all");
        config.put(ProducerConfig.LINGER_MS_CONFIG, properties.kafka().lingerMs());
        config.put(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, 30_000);
        config.put(ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, 10_000);
        config.put(ProducerConfig.CLIENT_ID_CONFIG, "broker-fills-" + localRegion.name());
        this.producer = new KafkaProducer<>(config, new StringSerializer(), new ByteArraySerializer());
        this.topic = topics.fills();
        this.eventsTopic = topics.orderEvents();
        this.topicChecked = new TopicReadiness("broker-fills-topic", List.of(
                new TopicReadiness.Target(localRegion.name(), localRegion.kafkaBootstrap(), topic),
                new TopicReadiness.Target(localRegion.name(), localRegion.kafkaBootstrap(), eventsTopic)))
                .inBackground("fills-topic-readiness", () -> closed);
    }

    /** Whether the fills and order events topics were found writable (or the publisher closed) — the first record waits for this. */
    public boolean topicChecked() {
        return topicChecked.isDone();
    }

    private void awaitTopic() {
        try {
            topicChecked.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for the fills topic", e);
        }
    }

    /** Sends every fill and returns once Kafka acknowledged all of them, sending again what failed. */
    public void publish(List<Fill> fills) {
        send(fills, List.of()).await();
    }

    /**
     * Sends every fill and order event without waiting; {@link Sent#await} waits for Kafka's
     * acknowledgements. The {@link FillListener}s are told at once: the changes are durable, and
     * Kafka's copy is only late.
     */
    public Sent send(List<Fill> fills, List<OrderEvent> events) {
        List<ProducerRecord<String, byte[]>> records = new ArrayList<>(fills.size() + events.size());
        for (Fill fill : fills) {
            records.add(new ProducerRecord<>(topic, fill.orderId(), WireFormat.encode(fill)));
        }
        for (OrderEvent event : events) {
            records.add(new ProducerRecord<>(eventsTopic, event.orderId(), WireFormat.encode(event)));
        }
        Sent sent = new Sent(records);
        if (!fills.isEmpty()) {
            listeners.forEach(l -> l.filled(fills));
        }
        if (!events.isEmpty()) {
            listeners.forEach(l -> l.ended(events));
        }
        return sent;
    }

    /** Records handed to the producer, whose acknowledgements have not been awaited yet. */
    public final class Sent {

        private List<ProducerRecord<String, byte[]>> records;
        private List<Future<RecordMetadata>> acks;

        private Sent(List<ProducerRecord<String, byte[]>> records) {
            start(records);
        }

        private void start(List<ProducerRecord<String, byte[]>> todo) {
            if (!todo.isEmpty()) {
                awaitTopic();
            }
            records = todo;
            acks = new ArrayList<>(todo.size());
            for (ProducerRecord<String, byte[]> record : todo) {
                acks.add(producer.send(record));
            }
        }

        /** Whether Kafka has answered every record sent last (acknowledged it or failed); never waits. */
        public boolean answered() {
            for (Future<RecordMetadata> ack : acks) {
                if (!ack.isDone()) {
                    return false;
                }
            }
            return true;
        }

        /** Waits up to {@code timeoutNanos} until {@link #answered}; false if it is not by then. */
        public boolean awaitAnswered(long timeoutNanos) throws InterruptedException {
            long deadline = System.nanoTime() + timeoutNanos;
            for (Future<RecordMetadata> ack : acks) {
                try {
                    ack.get(Math.max(0, deadline - System.nanoTime()), java.util.concurrent.TimeUnit.NANOSECONDS);
                } catch (ExecutionException e) {
                    // answered: refused or timed out
                } catch (java.util.concurrent.TimeoutException e) {
                    return false;
                }
            }
            return true;
        }

        /** Once {@link #answered}: whether Kafka acknowledged every record. */
        public boolean allAcknowledged() {
            for (Future<RecordMetadata> ack : acks) {
                if (!ack.isDone()) {
                    return false;
                }
                try {
                    ack.get();
                } catch (ExecutionException e) {
                    return false;
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return false;
                }
            }
            return true;
        }

        /**
         * Once {@link #answered}: true if Kafka acknowledged every record; otherwise sends the failed
         * ones again (which may wait for the producer's metadata: not on the engine thread) and is false.
         */
        public boolean resendFailed() {
            List<ProducerRecord<String, byte[]>> failed = new ArrayList<>();
            for (int i = 0; i < acks.size(); i++) {
                try {
                    acks.get(i).get();
                } catch (ExecutionException e) {
                    failed.add(records.get(i));
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new IllegalStateException("interrupted while publishing fills", e);
                }
            }
            if (!failed.isEmpty()) {
                log.warn("{} fill(s) or order event(s) not acknowledged by Kafka; sending them again", failed.size());
            }
            start(failed);
            return failed.isEmpty();
        }

        /** Returns once Kafka acknowledged every record, sending again what failed. */
        public void await() {
            while (!resendFailed()) {
                // resendFailed waited for every answer and sent the refused records again
            }
        }
    }

    @Override
    public void destroy() {
        closed = true;
        producer.close(Duration.ofSeconds(5));
    }
}
