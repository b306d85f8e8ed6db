package io.geobroker.loadgen.driver;

import io.geobroker.domain.Fill;
import io.geobroker.domain.WireFormat;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Every record of a run's fills on every region's fills topic, read from the topics' start, copies
 * included (a fill published again after a restart is a second record with the same fill id): what
 * the chaos scenario's invariants count. {@link #readToEnd} reads what has come since the last call.
 */
public final class FillLedger implements AutoCloseable {

    private final Map<String, KafkaConsumer<String, byte[]>> consumers = new LinkedHashMap<>();
    private final String customerPrefix;
    private final List<Fill> records = new ArrayList<>();
    private long undecodable;

    /** @param customerPrefix the run's customer ids start with it ({@code <runId>-}) */
    public FillLedger(Target target, String customerPrefix) {
        this.customerPrefix = customerPrefix;
        for (Target.RegionTarget r : target.regions()) {
            KafkaConsumer<String, byte[]> consumer = KafkaClients.fillConsumer(r, target.topics());
            consumer.seekToBeginning(consumer.assignment());
            consumers.put(r.name(), consumer);
        }
    }

    /**
     * Reads every region's topic up to its end as of this call, within {@code timeout} per region;
     * returns the regions whose end was not reached (their Kafka not answering).
     */
    public List<String> readToEnd(Duration timeout) {
        List<String> behind = new ArrayList<>();
        for (Map.Entry<String, KafkaConsumer<String, byte[]>> e : consumers.entrySet()) {
            KafkaConsumer<String, byte[]> consumer = e.getValue();
            long deadline = System.nanoTime() + timeout.toNanos();
            try {
                Set<TopicPartition> partitions = consumer.assignment();
                Map<TopicPartition, Long> end = consumer.endOffsets(partitions, timeout);
                while (!reached(consumer, end)) {
                    if (System.nanoTime() > deadline) {
                        behind.add(e.getKey());
                        break;
                    }
                    for (ConsumerRecord<String, byte[]> record : consumer.poll(Duration.ofMillis(200))) {
                        add(record.value());
                    }
                }
            } catch (RuntimeException ex) {
                behind.add(e.getKey() + " (" + ex.getClass().getSimpleName() + ")");
            }
        }
        return behind;
    }

    private static boolean reached(KafkaConsumer<String, byte[]> consumer, Map<TopicPartition, Long> end) {
        for (Map.Entry<TopicPartition, Long> e : end.entrySet()) {
            if (consumer.position(e.getKey(), Duration.ofSeconds(5)) < e.getValue()) {
                return false;
            }
        }
        return true;
    }

    private void add(byte[] value) {
        try {
            Fill fill = WireFormat.decodeFill(value);
            if (fill.customerId() != null && fill.customerId().startsWith(customerPrefix)) {
                records.add(fill);
            }
        } catch (WireFormat.InvalidMessageException e) {
            undecodable++;
        }
    }

    /** The run's fill records read so far, in the order read, copies included. */
    public List<Fill> records() {
        return List.copyOf(records);
    }

    public long undecodable() {
        return undecodable;
    }

    @Override
    public void close() {
        consumers.values().forEach(KafkaConsumer::close);
    }
}
