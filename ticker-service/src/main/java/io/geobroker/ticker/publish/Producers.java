package io.geobroker.ticker.publish;

import io.geobroker.ticker.config.TickerProperties;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;

import java.util.HashMap;
import java.util.Map;

/**
 * Creates the ticker producers of one region: idempotent, {@code acks=all}, tuned by
 * {@link TickerProperties.Producer}; with a linger and a rate to linger from, two of them (one
 * sending at once, one lingering), else one.
 */
public final class Producers {

    private Producers() {
    }

    public static Map<String, Object> config(String region, String bootstrap, TickerProperties.Producer tuning) {
        return config("ticker-service-" + region, bootstrap, tuning, tuning.lingerMs());
    }

    static Map<String, Object> config(String clientId, String bootstrap, TickerProperties.Producer tuning, int lingerMs) {
        Map<String, Object> config = new HashMap<>();
        config.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        config.put(ProducerConfig.CLIENT_ID_CONFIG, clientId);
        // Idempotence (with acks=all and at most 5 requests in flight) keeps each partition's tickers in
        // order and free of duplicates across the producer's own retries: a symbol's sequence arrives gap-free.
        config.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
        config.put(ProducerConfig.ACKS_CONFIG, "all");
        config.put(ProducerConfig.MAX_IN_FLIGHT_REQUESTS_PER_CONNECTION, tuning.maxInFlight());
        config.put(ProducerConfig.LINGER_MS_CONFIG, lingerMs);
        config.put(ProducerConfig.BATCH_SIZE_CONFIG, tuning.batchSizeBytes());
        config.put(ProducerConfig.COMPRESSION_TYPE_CONFIG, tuning.compression());
        config.put(ProducerConfig.BUFFER_MEMORY_CONFIG, tuning.bufferBytes());
        // Fail a send (counted, logged) after 10 s without metadata instead of blocking the publishing
        // loop for the default minute while a region's Kafka is unreachable.
        config.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, 10_000);
        config.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class);
        config.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class);
        return config;
    }

    public static RegionProducer create(String region, String bootstrap, TickerProperties.Producer tuning) {
        if (tuning.lingerMs() == 0 || tuning.lingerFrom() == 0) {
            return RegionProducer.single(new KafkaProducer<>(config(region, bootstrap, tuning)), tuning.lingerMs() > 0);
        }
        String clientId = "ticker-service-" + region;
        Producer<String, byte[]> eager = new KafkaProducer<>(config(clientId, bootstrap, tuning, 0));
        try {
            return new RegionProducer(eager, new KafkaProducer<>(config(clientId + "-lingering", bootstrap, tuning,
                    tuning.lingerMs())), tuning.lingerFrom(), System::nanoTime);
        } catch (RuntimeException e) {
            eager.close();
            throw e;
        }
    }
}
