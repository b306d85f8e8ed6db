package io.geobroker.ticker.replay;

import io.geobroker.domain.SymbolDirectory;
import io.geobroker.domain.Ticker;
import io.geobroker.domain.WireFormat;
import io.geobroker.ticker.publish.RegionProducer;
import io.geobroker.ticker.publish.TickerSender;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.apache.kafka.clients.producer.MockProducer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

/** The replay's bookkeeping; that tickers really arrive on Kafka is shown by ReplayIT. */
class ReplayFeedTest {

    @TempDir
    Path dir;

    private static final long AT = 1_700_000_000_000_000L;

    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    private final MockProducer<String, byte[]> producer =
            new MockProducer<>(true, null, new StringSerializer(), new ByteArraySerializer());
    private final TickerSender sender = new TickerSender(List.of(
            new TickerSender.Route("NASDAQ", "nvirginia", "tickers.NASDAQ", RegionProducer.single(producer, false)),
            new TickerSender.Route("ASX", "sydney", "tickers.ASX", RegionProducer.single(producer, false))), registry);

    @Test
    void publishes_exactly_the_valid_lines_and_reports_the_skipped_ones() throws Exception {
        Path csv = write("""
                symbol,price,volume,sequence
                AAPL,19000,100,1
                AAPL,19000.5,100,2
                BHP,4300,50
                # comment

                MSFT,41500,0
                MSFT,41501,20
                AAPL,19002,100,3
                """);
        ReplayReport report = new ReplayReport(csv.toString(), 1);
        ReplayFeed feed = feed(csv, 1, report);

        int published = 0;
        while (feed.publishOne(AT)) {
            published++;
        }

        assertThat(published).isEqualTo(4);
        assertThat(sent()).extracting(Ticker::symbol, Ticker::price, Ticker::volume, Ticker::sequence).containsExactly(
                tuple("AAPL", 19000L, 100L, 1L),
                tuple("BHP", 4300L, 50L, 10L),
                tuple("MSFT", 41501L, 20L, 10L),
                tuple("AAPL", 19002L, 100L, 3L));
        assertThat(sent()).extracting(Ticker::exchangeTimeMicros).containsOnly(AT);
        assertThat(producer.history()).extracting(r -> r.topic())
                .containsExactly("tickers.NASDAQ", "tickers.ASX", "tickers.NASDAQ", "tickers.NASDAQ");
        ReplayReport.Snapshot snapshot = report.snapshot();
        assertThat(snapshot.state()).isEqualTo(ReplayReport.State.FINISHED);
        assertThat(snapshot.published()).isEqualTo(4);
        assertThat(snapshot.skipped()).isEqualTo(2);
        assertThat(snapshot.skippedLines()).extracting(ReplayReport.SkippedLine::line).containsExactly(3L, 7L);
        assertThat(registry.get("geobroker.ticker.replay.lines").tag("outcome", "skipped").counter().count()).isEqualTo(2);
        assertThat(registry.get("geobroker.ticker.replay.lines").tag("outcome", "published").counter().count()).isEqualTo(4);
        assertThat(registry.get("geobroker.ticker.published").tag("exchange", "NASDAQ").counter().count()).isEqualTo(3);
        assertThat(feed.publishOne(AT)).isFalse();
    }

    @Test
    void repeats_the_file_and_keeps_numbering_each_symbol() throws Exception {
        Path csv = write("AAPL,19000,1\nAAPL,19001,1\n");
        ReplayReport report = new ReplayReport(csv.toString(), 3);
        ReplayFeed feed = feed(csv, 3, report);
        while (feed.publishOne(AT)) {
            assertThat(report.snapshot().state()).isEqualTo(ReplayReport.State.RUNNING);
        }
        assertThat(sent()).extracting(Ticker::sequence).containsExactly(10L, 11L, 12L, 13L, 14L, 15L);
        assertThat(report.snapshot().pass()).isEqualTo(3);
    }

    @Test
    void a_file_of_only_bad_lines_ends_with_a_report_rather_than_silence() throws Exception {
        Path csv = write("nonsense\n,,,\n");
        ReplayReport report = new ReplayReport(csv.toString(), 1);
        assertThat(feed(csv, 1, report).publishOne(AT)).isFalse();
        assertThat(report.snapshot().skipped()).isEqualTo(2);
        assertThat(report.snapshot().state()).isEqualTo(ReplayReport.State.FINISHED);
    }

    @Test
    void a_file_that_disappears_is_reported_as_failed() throws Exception {
        Path csv = dir.resolve("missing.csv");
        ReplayReport report = new ReplayReport(csv.toString(), 1);
        assertThat(feed(csv, 1, report).publishOne(AT)).isFalse();
        assertThat(report.snapshot().state()).isEqualTo(ReplayReport.State.FAILED);
        assertThat(report.snapshot().failure()).contains("missing.csv");
    }

    private ReplayFeed feed(Path csv, int passes, ReplayReport report) {
        return new ReplayFeed(csv, passes, new ReplayLineParser(SymbolDirectory.standard(), List.of("NASDAQ", "ASX"), 10),
                sender, report, registry);
    }

    private List<Ticker> sent() {
        return producer.history().stream().map(r -> {
            try {
                return WireFormat.decodeTicker(r.value(), SymbolDirectory.standard());
            } catch (WireFormat.InvalidMessageException e) {
                throw new AssertionError(e);
            }
        }).toList();
    }

    private Path write(String content) throws IOException {
        return Files.writeString(dir.resolve("tickers.csv"), content);
    }
}
