package io.geobroker.broker.fill;

import io.geobroker.broker.config.BrokerProperties;
import io.geobroker.domain.Fill;
import io.geobroker.domain.Topics;
import io.geobroker.domain.Topology;
import io.geobroker.domain.WireFormat;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.DisposableBean;
import org.springframework.stereotype.Component;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;

/**
 * Publishes fills to the region's fills topic (keyed by order id) with an idempotent producer and
 * waits until Kafka has them: the engine commits ticker offsets only after that, so a fill is
 * either acknowledged or published again after a restart (same fill id; consumers drop repeats).
 */
@Component
public class FillPublisher implements DisposableBean {

    private static final Logger log = LoggerFactory.getLogger(FillPublisher.class);

    private final KafkaProducer<String, byte[]> producer;
    private final String topic;

    public FillPublisher(Topology.RegionEndpoints localRegion, Topics topics, BrokerProperties properties) {
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
    }

    /** Sends every fill and returns once Kafka acknowledged all of them, sending again what failed. */
    public void publish(List<Fill> fills) {
        List<Fill> todo = fills;
        while (!todo.isEmpty()) {
            List<Future<RecordMetadata>> sent = new ArrayList<>(todo.size());
            for (Fill fill : todo) {
                sent.add(producer.send(new ProducerRecord<>(topic, fill.orderId(), WireFormat.encode(fill))));
            }
            List<Fill> failed = new ArrayList<>();
            for (int i = 0; i < sent.size(); i++) {
                try {
                    sent.get(i).get();
                } catch (ExecutionException e) {
                    failed.add(todo.get(i));
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new IllegalStateException("interrupted while publishing fills", e);
                }
            }
            if (!failed.isEmpty()) {
                log.warn("{} fill(s) not acknowledged by Kafka; sending them again", failed.size());
            }
            todo = failed;
        }
    }

    @Override
    public void destroy() {
        producer.close(Duration.ofSeconds(5));
    }
}
