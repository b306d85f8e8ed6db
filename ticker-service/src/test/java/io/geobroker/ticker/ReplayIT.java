package io.geobroker.ticker;

import io.geobroker.domain.Ticker;
import io.geobroker.testsupport.StackContext;
import io.geobroker.testsupport.WithLocalStack;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;
import static org.assertj.core.api.Assertions.tuple;
import static org.awaitility.Awaitility.await;

/** Replay mode on the real local stack: exactly the valid lines of the CSV arrive, in file order per exchange. */
@WithLocalStack
class ReplayIT {

    @TempDir
    Path dir;

    @Test
    void publishes_exactly_the_valid_lines_and_reports_the_malformed_ones(StackContext stack) throws Exception {
        Path csv = Files.writeString(dir.resolve("tickers.csv"), """
                symbol,price,volume,sequence
                AAPL,19000,100,1
                BHP,4300,500,1
                AAPL,19001,200,2
                AAPL,oops,200,3
                JPM,21000,50
                NOPE,100,1,1
                BHP,4301,0,2
                BHP,4299,70,2
                # a comment

                AAPL,19002,300,2
                JPM,21005,60
                """);
        String prefix = stack.topics().prefix();
        try (TickerTopics nasdaq = new TickerTopics(stack.kafkaBootstrap("nvirginia"), prefix + "tickers.NASDAQ");
             TickerTopics nyse = new TickerTopics(stack.kafkaBootstrap("nvirginia"), prefix + "tickers.NYSE");
             TickerTopics asx = new TickerTopics(stack.kafkaBootstrap("sydney"), prefix + "tickers.ASX");
             RunningTicker ticker = RunningTicker.start(stack, prefix, Map.of("replay.file", csv.toString(),
                     "tickers-per-second", "200", "sequence-start", "1000"))) {

            await().atMost(Duration.ofSeconds(60)).until(() -> ticker.get("/api/v1/replay").body().contains("\"FINISHED\""));
            await().atMost(Duration.ofSeconds(30)).until(() -> nasdaq.poll().size() + nyse.poll().size() + asx.poll().size() >= 6);

            assertThat(nasdaq.tickers()).extracting(Ticker::symbol, Ticker::price, Ticker::volume, Ticker::sequence)
                    .containsExactly(tuple("AAPL", 19000L, 100L, 1L), tuple("AAPL", 19001L, 200L, 2L));
            assertThat(asx.tickers()).extracting(Ticker::symbol, Ticker::price, Ticker::volume, Ticker::sequence)
                    .containsExactly(tuple("BHP", 4300L, 500L, 1L), tuple("BHP", 4299L, 70L, 2L));
            assertThat(nyse.tickers()).extracting(Ticker::symbol, Ticker::price, Ticker::volume, Ticker::sequence)
                    .containsExactly(tuple("JPM", 21000L, 50L, 1000L), tuple("JPM", 21005L, 60L, 1001L));

            String status = ticker.get("/api/v1/replay").body();
            assertThat(status).contains("\"published\":6", "\"skipped\":4",
                    "\"line\":5", "\"line\":7", "\"line\":8", "\"line\":12");
            assertThat(ticker.get("/actuator/prometheus").body())
                    .contains("geobroker_ticker_replay_lines_total{outcome=\"skipped\"} 4.0")
                    .contains("geobroker_ticker_replay_lines_total{outcome=\"published\"} 6.0");
            // The topics hold exactly the valid lines, nothing more.
            assertThat(List.of(nasdaq.endOffset(), nyse.endOffset(), asx.endOffset())).containsExactly(2L, 2L, 2L);
        }
    }

    @Test
    void a_missing_replay_file_stops_the_start_with_a_clear_message(StackContext stack) {
        Throwable failure = catchThrowable(() -> RunningTicker.start(stack,
                stack.topics().prefix() + "missing.", Map.of("replay.file", dir.resolve("nope.csv").toString())));
        assertThat(failure).hasRootCauseMessage("Invalid ticker-service configuration: replay file "
                + dir.resolve("nope.csv").toAbsolutePath() + " does not exist or cannot be read");
    }
}
