package io.geobroker.ticker.publish;

import io.geobroker.domain.Ticker;
import io.geobroker.domain.WallClock;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.apache.kafka.clients.producer.MockProducer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/** What the sender times per exchange; that tickers reach Kafka is shown by the integration tests. */
class TickerSenderTest {

    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    private final MockProducer<String, byte[]> producer =
            new MockProducer<>(true, null, new StringSerializer(), new ByteArraySerializer());
    private final TickerSender sender = new TickerSender(List.of(
            new TickerSender.Route("NASDAQ", "nvirginia", "tickers.NASDAQ", RegionProducer.single(producer, false))), registry);

    @Test
    void a_ticker_handed_over_after_its_exchange_time_is_timed_as_late_by_that_much() {
        long stamped = WallClock.nowMicros() - 30_000;

        sender.send(new Ticker("AAPL", "NASDAQ", 19_000, 100, stamped, 1));

        Timer lateness = registry.get("geobroker.ticker.publish.lateness").tag("exchange", "NASDAQ").timer();
        assertThat(lateness.count()).isEqualTo(1);
        assertThat(lateness.totalTime(TimeUnit.MICROSECONDS)).isGreaterThanOrEqualTo(30_000);
        assertThat(registry.get("geobroker.ticker.send.latency").tag("exchange", "NASDAQ").timer().count()).isEqualTo(1);
    }

    @Test
    void lateness_is_never_negative() {
        assertThat(TickerSender.lateMicros(1_700_000_000_010_000L, 1_700_000_000_004_000L)).isZero();
        assertThat(TickerSender.lateMicros(1_700_000_000_000_000L, 1_700_000_000_004_000L)).isEqualTo(4_000);
    }
}
