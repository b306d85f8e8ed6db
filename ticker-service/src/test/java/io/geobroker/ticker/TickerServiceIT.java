package io.geobroker.ticker;

import io.geobroker.domain.SymbolDirectory;
import io.geobroker.domain.Ticker;
import io.geobroker.testsupport.StackContext;
import io.geobroker.domain.WallClock;
import io.geobroker.testsupport.WithLocalStack;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.LongStream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** The ticker service publishing generated tickers to the real Kafka brokers of the local stack's regions. */
@WithLocalStack
class TickerServiceIT {

    private static final Map<String, String> HOME = Map.of("ASX", "sydney", "NYSE", "nvirginia", "NASDAQ", "nvirginia");

    @Test
    void tickers_arrive_on_their_exchanges_topic_in_the_home_region_with_a_sequence_increasing_by_one(StackContext stack)
            throws Exception {
        String prefix = stack.topics().prefix() + "regions.";
        Map<String, TickerTopics> topics = new LinkedHashMap<>();
        HOME.forEach((exchange, region) -> topics.put(exchange,
                new TickerTopics(stack.kafkaBootstrap(region), prefix + "tickers." + exchange)));
        try (RunningTicker ignored = RunningTicker.start(stack, prefix,
                Map.of("tickers-per-second", "1500", "sequence-start", "1"))) {
            await().atMost(Duration.ofSeconds(60)).untilAsserted(() -> topics.values().forEach(t ->
                    assertThat(t.poll()).hasSizeGreaterThanOrEqualTo(300)));
        }
        topics.forEach((exchange, topic) -> {
            List<TickerTopics.Arrived> arrived = topic.poll();
            assertThat(arrived).allSatisfy(a -> {
                assertThat(a.ticker().exchange()).isEqualTo(exchange);
                assertThat(a.key()).isEqualTo(a.ticker().symbol());
            });
            Map<String, List<Long>> sequences = arrived.stream().collect(Collectors.groupingBy(
                    a -> a.ticker().symbol(), Collectors.mapping(a -> a.ticker().sequence(), Collectors.toList())));
            sequences.forEach((symbol, seq) -> assertThat(seq).as(symbol)
                    .isEqualTo(LongStream.rangeClosed(1, seq.size()).boxed().toList()));
            topic.close();
        });
        TickerTopics.assertEachOnlyInItsHomeRegion(stack, prefix);
    }

    @Test
    void a_region_whose_kafka_cannot_be_reached_does_not_hold_up_the_others(StackContext stack) throws Exception {
        String prefix = stack.topics().prefix() + "one-down.";
        // Nothing listens on port 1: Sydney's Kafka refuses every connection for the whole test.
        try (TickerTopics nyse = new TickerTopics(stack.kafkaBootstrap("nvirginia"), prefix + "tickers.NYSE");
             RunningTicker ignored = RunningTicker.start(stack, prefix, Map.of("tickers-per-second", "300"),
                     Map.of("geobroker.topology.region.sydney.kafka", "127.0.0.1:1"))) {
            await().atMost(Duration.ofSeconds(60)).untilAsserted(() -> assertThat(nyse.poll()).hasSizeGreaterThanOrEqualTo(100));
        }
        try (Admin sydney = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, stack.kafkaBootstrap("sydney")))) {
            assertThat(sydney.listTopics().names().get()).as("the real Sydney Kafka was never used")
                    .doesNotContain(prefix + "tickers.ASX");
        }
    }

    @Test
    void the_same_seed_gives_the_same_first_tickers_whatever_the_rate(StackContext stack) throws Exception {
        Map<String, List<Ticker>> first = firstTickers(stack, "seed-a.", "2000");
        Map<String, List<Ticker>> second = firstTickers(stack, "seed-b.", "700");
        assertThat(second.keySet()).isEqualTo(first.keySet()).hasSizeGreaterThan(30);
        first.forEach((symbol, tickers) -> {
            int n = Math.min(tickers.size(), second.get(symbol).size());
            assertThat(n).as(symbol).isGreaterThanOrEqualTo(3);
            assertThat(withoutTime(second.get(symbol).subList(0, n))).as(symbol).isEqualTo(withoutTime(tickers.subList(0, n)));
        });
    }

    @Test
    void a_rate_change_takes_effect_within_a_second(StackContext stack) throws Exception {
        String prefix = stack.topics().prefix() + "rate.";
        try (TickerTopics nyse = new TickerTopics(stack.kafkaBootstrap("nvirginia"), prefix + "tickers.NYSE");
             RunningTicker ticker = RunningTicker.start(stack, prefix,
                     Map.of("exchanges", "NYSE", "tickers-per-second", "100"))) {
            await().atMost(Duration.ofSeconds(60)).until(() -> nyse.poll().size() >= 300);

            long before = nowMicros();
            assertThat(ticker.put("/api/v1/rate", "{\"tickersPerSecond\": 1000}").statusCode()).isEqualTo(200);
            long after = nowMicros();

            // Windows on the tickers' own exchange timestamps (stamped when published), so consumer lag does not matter.
            long second = 1_000_000;
            await().atMost(Duration.ofSeconds(60)).until(() -> nyse.tickers().stream()
                    .anyMatch(t -> t.exchangeTimeMicros() > after + 3 * second));
            List<Ticker> all = nyse.tickers();
            long oldRate = count(all, before - 2 * second, before);
            long firstSecondAfter = count(all, after + second, after + 2 * second);
            long secondSecondAfter = count(all, after + 2 * second, after + 3 * second);
            assertThat(oldRate).as("tickers in the 2 s before the change at 100/s").isBetween(100L, 300L);
            assertThat(firstSecondAfter).as("tickers in the second second after the change to 1000/s").isBetween(750L, 1_100L);
            assertThat(secondSecondAfter).as("tickers in the third second after the change to 1000/s").isBetween(750L, 1_100L);

            assertThat(ticker.put("/api/v1/rate", "{\"tickersPerSecond\": -5}").statusCode()).isEqualTo(400);
            assertThat(ticker.get("/api/v1/rate").body()).contains("\"tickersPerSecond\":1000.0");
        }
    }

    @Test
    void a_symbols_tickers_keep_their_order_while_its_region_changes_between_lingering_and_sending_at_once(
            StackContext stack) throws Exception {
        String prefix = stack.topics().prefix() + "switch.";
        // One symbol, and a linger longer than 100 a second's interval: when the region stops lingering,
        // the symbol's next ticker comes while its last one is still held, and must not overtake it.
        String symbol = SymbolDirectory.standard().symbolsOf("NYSE").get(0).symbol();
        try (TickerTopics nyse = new TickerTopics(stack.kafkaBootstrap("nvirginia"), prefix + "tickers.NYSE");
             RunningTicker ticker = RunningTicker.start(stack, prefix, Map.of("exchanges", "NYSE", "symbols", symbol,
                     "tickers-per-second", "100", "sequence-start", "1", "producer.linger-ms", "20",
                     "producer.linger-from", "300"))) {
            await().atMost(Duration.ofSeconds(60)).until(() -> nyse.poll().size() >= 100);
            for (int rate : new int[] {1000, 100, 1000, 100}) {
                assertThat(ticker.put("/api/v1/rate", "{\"tickersPerSecond\": " + rate + "}").statusCode()).isEqualTo(200);
                long after = nowMicros();
                await().atMost(Duration.ofSeconds(60)).until(() -> nyse.tickers().stream()
                        .anyMatch(t -> t.exchangeTimeMicros() > after + 1_500_000));
            }
            String metrics = ticker.get("/actuator/prometheus").body();
            assertThat(sample(metrics, "geobroker_ticker_producer_switches_total")).as("switches").isGreaterThanOrEqualTo(4);
            assertThat(sample(metrics, "geobroker_ticker_producer_lingering")).as("lingering at 100 a second").isZero();

            Map<String, List<Long>> sequences = nyse.tickers().stream().collect(Collectors.groupingBy(
                    Ticker::symbol, Collectors.mapping(Ticker::sequence, Collectors.toList())));
            assertThat(sequences.values().stream().mapToInt(List::size).sum()).isGreaterThan(2_000);
            assertThat(sequences.keySet()).containsExactly(symbol);
            List<Long> sequence = sequences.get(symbol);
            assertThat(sequence).isEqualTo(LongStream.rangeClosed(1, sequence.size()).boxed().toList());
        }
    }

    /** The value of N. Virginia's sample of a metric on a Prometheus page. */
    private static double sample(String page, String metric) {
        Matcher m = Pattern.compile("(?m)^" + metric + "\\{[^}]*region=\"nvirginia\"[^}]*} (\\S+)$").matcher(page);
        assertThat(m.find()).as("%s on the service's Prometheus page", metric).isTrue();
        return Double.parseDouble(m.group(1));
    }

    private static Map<String, List<Ticker>> firstTickers(StackContext stack, String run, String rate) throws Exception {
        String prefix = stack.topics().prefix() + run;
        Map<String, List<Ticker>> bySymbol = new HashMap<>();
        List<TickerTopics> topics = new ArrayList<>();
        HOME.forEach((exchange, region) -> topics.add(new TickerTopics(stack.kafkaBootstrap(region), prefix + "tickers." + exchange)));
        try (RunningTicker ignored = RunningTicker.start(stack, prefix,
                Map.of("tickers-per-second", rate, "seed", "7", "sequence-start", "1"))) {
            await().atMost(Duration.ofSeconds(60)).untilAsserted(() -> topics.forEach(t -> assertThat(t.poll()).hasSizeGreaterThanOrEqualTo(400)));
        }
        for (TickerTopics topic : topics) {
            topic.tickers().forEach(t -> bySymbol.computeIfAbsent(t.symbol(), s -> new ArrayList<>()).add(t));
            topic.close();
        }
        return bySymbol;
    }

    private static List<List<Long>> withoutTime(List<Ticker> tickers) {
        return tickers.stream().map(t -> List.of(t.price(), t.volume(), t.sequence())).toList();
    }

    private static long count(List<Ticker> tickers, long fromMicros, long toMicros) {
        return tickers.stream().filter(t -> t.exchangeTimeMicros() >= fromMicros && t.exchangeTimeMicros() < toMicros).count();
    }

    private static long nowMicros() {
        return WallClock.nowMicros();
    }
}
