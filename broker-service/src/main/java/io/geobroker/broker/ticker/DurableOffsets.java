package io.geobroker.broker.ticker;

import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.springframework.stereotype.Component;

import java.util.HashMap;
import java.util.Map;

/**
 * Hand-over of ticker offsets from the engine (whose effects are durable and whose fills are
 * published) to the consumer thread, the only one allowed to commit them.
 */
@Component
public class DurableOffsets {

    private final Map<TopicPartition, OffsetAndMetadata> pending = new HashMap<>();

    /** Marks every record of the partition before {@code nextOffset} as done. */
    public synchronized void done(String topic, int partition, long nextOffset) {
        pending.merge(new TopicPartition(topic, partition), new OffsetAndMetadata(nextOffset),
                (a, b) -> a.offset() >= b.offset() ? a : b);
    }

    /** The offsets to commit since the last call (empty if none). */
    public synchronized Map<TopicPartition, OffsetAndMetadata> drain() {
        if (pending.isEmpty()) {
            return Map.of();
        }
        Map<TopicPartition, OffsetAndMetadata> copy = new HashMap<>(pending);
        pending.clear();
        return copy;
    }
}
