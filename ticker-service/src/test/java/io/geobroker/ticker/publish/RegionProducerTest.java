package io.geobroker.ticker.publish;

import org.apache.kafka.clients.producer.MockProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** Which producer a region's tickers go to; that they reach Kafka in order is shown by the integration tests. */
class RegionProducerTest {

    private static final long INTERVAL_300_PER_SECOND = TimeUnit.SECONDS.toNanos(1) / 300;

    private final MockProducer<String, byte[]> eager = new MockProducer<>(false, null, new StringSerializer(),
            new ByteArraySerializer());
    private final MockProducer<String, byte[]> lingering = new MockProducer<>(false, null, new StringSerializer(),
            new ByteArraySerializer());
    private final AtomicLong now = new AtomicLong();
    private final RegionProducer producer = new RegionProducer(eager, lingering, 125, now::get);
    /** The values of the answered records, in the order of their answers (the flushing thread answers some). */
    private final List<Byte> answered = Collections.synchronizedList(new ArrayList<>());
    private final List<Exception> failures = Collections.synchronizedList(new ArrayList<>());

    @AfterEach
    void close() {
        producer.close(Duration.ZERO);
    }

    private void send(String symbol, int value) {
        producer.send(new ProducerRecord<>("tickers.ASX", symbol, new byte[] {(byte) value}),
                (metadata, exception) -> {
                    answered.add((byte) value);
                    if (exception != null) {
                        failures.add(exception);
                    }
                });
    }

    private static byte lastValue(MockProducer<String, byte[]> p) {
        return p.history().get(p.history().size() - 1).value()[0];
    }

    /** 300 tickers a second of one symbol for 300 ms, each answered at once: the rate then calls for lingering. */
    private void fastAndAnswered() {
        for (; now.get() < TimeUnit.MILLISECONDS.toNanos(300); now.addAndGet(INTERVAL_300_PER_SECOND)) {
            send("BHP", 0);
            eager.completeNext();
            lingering.completeNext();
        }
    }

    @Test
    void a_symbol_moves_to_the_lingering_producer_only_once_its_tickers_in_the_other_are_answered() {
        int sequence = 0;
        for (; now.get() < TimeUnit.MILLISECONDS.toNanos(300); now.addAndGet(INTERVAL_300_PER_SECOND)) {
            send("BHP", sequence++);
        }
        assertThat(producer.lingering()).as("the rate calls for lingering").isTrue();
        assertThat(lingering.history()).as("but BHP's tickers are unanswered in the other producer").isEmpty();
        send("CBA", 1);
        assertThat(lingering.history()).as("a symbol with nothing unanswered moves at once").hasSize(1);

        int sentEagerly = eager.history().size();
        while (eager.completeNext()) {
            assertThat(lingering.history()).hasSize(1);
        }
        send("BHP", 2);

        assertThat(eager.history()).hasSize(sentEagerly);
        assertThat(lingering.history()).hasSize(2);
        assertThat(producer.switches()).isEqualTo(1);
        assertThat(failures).isEmpty();
    }

    @Test
    void after_the_rate_falls_a_symbol_leaves_the_lingering_producer_once_the_flushed_tickers_are_answered() {
        fastAndAnswered();
        assertThat(producer.lingering()).isTrue();
        send("BHP", 1);
        int lingered = lingering.history().size();

        now.addAndGet(TimeUnit.SECONDS.toNanos(10));
        send("RIO", 2);
        assertThat(producer.lingering()).isFalse();
        assertThat(lastValue(eager)).as("a symbol with nothing unanswered goes at once").isEqualTo((byte) 2);

        send("BHP", 3);
        assertThat(lingering.history()).as("BHP follows its unanswered ticker").hasSize(lingered + 1);
        assertThat(lastValue(lingering)).isEqualTo((byte) 3);
        await().atMost(Duration.ofSeconds(10)).untilAsserted(() ->
                assertThat(answered).as("the lingering producer flushed").contains((byte) 1, (byte) 3));

        send("BHP", 4);
        assertThat(lingering.history()).hasSize(lingered + 1);
        assertThat(lastValue(eager)).isEqualTo((byte) 4);
        assertThat(producer.switches()).isEqualTo(2);
        assertThat(failures).isEmpty();
    }

    @Test
    void a_failed_ticker_counts_as_answered() {
        fastAndAnswered();
        send("BHP", 1);
        lingering.errorNext(new RuntimeException("not acknowledged"));
        now.addAndGet(TimeUnit.SECONDS.toNanos(10));

        send("BHP", 2);

        assertThat(lastValue(eager)).isEqualTo((byte) 2);
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
