package io.geobroker.ticker.publish;

import org.apache.kafka.clients.producer.MockProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;

/** Which producer a region's tickers go to; that they reach Kafka is shown by the integration tests. */
class RegionProducerTest {

    private static final long INTERVAL_300_PER_SECOND = TimeUnit.MILLISECONDS.toNanos(1_000) / 300;

    private final MockProducer<String, byte[]> eager = new MockProducer<>(false, null, new StringSerializer(),
            new ByteArraySerializer());
    private final MockProducer<String, byte[]> lingering = new MockProducer<>(false, null, new StringSerializer(),
            new ByteArraySerializer());
    private final AtomicLong now = new AtomicLong();
    private final RegionProducer producer = new RegionProducer(eager, lingering, 125, now::get);
    private final List<Exception> failures = new ArrayList<>();

    private void send(int sequence) {
        producer.send(new ProducerRecord<>("tickers.ASX", "BHP", new byte[] {(byte) sequence}),
                (metadata, exception) -> {
                    if (exception != null) {
                        failures.add(exception);
                    }
                });
    }

    @Test
    void tickers_switch_to_the_lingering_producer_only_once_the_other_has_none_unacknowledged() {
        int sequence = 0;
        for (; now.get() < TimeUnit.MILLISECONDS.toNanos(300); now.addAndGet(INTERVAL_300_PER_SECOND)) {
            send(sequence++);
        }
        assertThat(lingering.history()).as("the rate is measured, but a ticker is still unacknowledged").isEmpty();
        assertThat(producer.lingering()).isFalse();
        int sentEagerly = eager.history().size();
        assertThat(sentEagerly).isEqualTo(sequence);

        while (eager.completeNext()) {
            assertThat(lingering.history()).isEmpty();
        }
        send(sequence++);
        send(sequence++);

        assertThat(eager.history()).hasSize(sentEagerly);
        assertThat(lingering.history()).hasSize(2);
        assertThat(producer.lingering()).isTrue();
        assertThat(producer.switches()).isEqualTo(1);
        assertThat(failures).isEmpty();
    }

    @Test
    void after_a_pause_tickers_go_at_once_again_once_the_lingering_ones_are_acknowledged() {
        for (; now.get() < TimeUnit.MILLISECONDS.toNanos(300); now.addAndGet(INTERVAL_300_PER_SECOND)) {
            send(0);
            eager.completeNext();
            lingering.completeNext();
        }
        assertThat(producer.lingering()).isTrue();
        send(1);
        int lingered = lingering.history().size();

        now.addAndGet(TimeUnit.SECONDS.toNanos(10));
        send(2);
        assertThat(lingering.history()).as("a lingering ticker is unacknowledged").hasSize(lingered + 1);

        lingering.errorNext(new RuntimeException("not acknowledged"));
        send(3);
        assertThat(lingering.history()).as("another one still is").hasSize(lingered + 2);
        while (lingering.completeNext()) {
            assertThat(producer.lingering()).isTrue();
        }
        send(4);
        assertThat(lingering.history()).hasSize(lingered + 2);
        assertThat(eager.history().get(eager.history().size() - 1).value()).containsExactly(4);
        assertThat(producer.lingering()).isFalse();
        assertThat(producer.switches()).isEqualTo(2);
        assertThat(failures).hasSize(1);
    }

    @Test
    void a_single_producer_takes_every_ticker() {
        RegionProducer single = RegionProducer.single(eager, true);
        single.send(new ProducerRecord<>("tickers.ASX", "BHP", new byte[0]), (m, e) -> { });
        assertThat(eager.history()).hasSize(1);
        assertThat(single.lingering()).isTrue();
        assertThat(single.switches()).isZero();
    }
}
