package io.geobroker.ticker.config;

import io.geobroker.domain.SymbolDirectory;
import io.geobroker.domain.Topology;
import io.geobroker.ticker.publish.Producers;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.junit.jupiter.api.Test;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.MapConfigurationPropertySource;

import java.util.HashMap;
import java.util.Map;
import java.util.Properties;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.tuple;
import static org.assertj.core.api.Assertions.within;

class TickerSettingsTest {

    private static final SymbolDirectory DIRECTORY = SymbolDirectory.standard();
    private static final Topology TOPOLOGY = topology();

    private static Topology topology() {
        Properties p = new Properties();
        p.setProperty("geobroker.topology.regions", "sydney,nvirginia");
        p.setProperty("geobroker.topology.region.sydney.kafka", "127.30.1.100:9092");
        p.setProperty("geobroker.topology.region.nvirginia.kafka", "127.30.2.100:9092");
        return Topology.fromProperties(p, DIRECTORY);
    }

    /** Properties bound the way Spring binds them, with the defaults of {@link TickerProperties}. */
    static TickerProperties properties(Map<String, String> settings) {
        Map<String, String> prefixed = new HashMap<>();
        settings.forEach((k, v) -> prefixed.put("geobroker.ticker." + k, v));
        return new Binder(new MapConfigurationPropertySource(prefixed))
                .bindOrCreate("geobroker.ticker", TickerProperties.class);
    }

    @Test
    void publishes_every_exchange_of_the_topology_by_default_on_its_home_regions_kafka() {
        TickerSettings settings = TickerSettings.resolve(properties(Map.of()), TOPOLOGY, DIRECTORY, 123);
        assertThat(settings.exchanges()).extracting(TickerSettings.PublishedExchange::exchange,
                        TickerSettings.PublishedExchange::region, TickerSettings.PublishedExchange::kafkaBootstrap)
                .containsExactly(
                        tuple("ASX", "sydney", "127.30.1.100:9092"),
                        tuple("NYSE", "nvirginia", "127.30.2.100:9092"),
                        tuple("NASDAQ", "nvirginia", "127.30.2.100:9092"));
        assertThat(settings.sequenceStart()).isEqualTo(123);
        assertThat(settings.initialRate().tickersPerSecond()).isEqualTo(600);
        double asxShare = (double) DIRECTORY.symbolsOf("ASX").size()
                / (DIRECTORY.symbolsOf("ASX").size() + DIRECTORY.symbolsOf("NYSE").size() + DIRECTORY.symbolsOf("NASDAQ").size());
        assertThat(settings.initialRate().split().get("ASX")).isCloseTo(asxShare, within(1e-9));
        assertThat(settings.topics().tickers("ASX")).isEqualTo("tickers.ASX");
    }

    @Test
    void publishes_the_chosen_exchanges_at_the_chosen_rate_and_split() {
        TickerSettings settings = TickerSettings.resolve(properties(Map.of("exchanges", "NYSE,ASX",
                "tickers-per-second", "1000", "split", "NYSE:0.75,ASX:0.25", "sequence-start", "1",
                "topic-prefix", "t1.")), TOPOLOGY, DIRECTORY, 123);
        assertThat(settings.exchangeCodes()).containsExactly("NYSE", "ASX");
        assertThat(settings.initialRate().rateOf("NYSE")).isCloseTo(750, within(1e-9));
        assertThat(settings.sequenceStart()).isEqualTo(1);
        assertThat(settings.topics().tickers("NYSE")).isEqualTo("t1.tickers.NYSE");
    }

    @Test
    void publishes_only_the_chosen_symbols_in_directory_order_and_splits_by_their_count() {
        String asx = DIRECTORY.symbolsOf("ASX").get(1).symbol();
        String nyse0 = DIRECTORY.symbolsOf("NYSE").get(0).symbol();
        String nyse1 = DIRECTORY.symbolsOf("NYSE").get(1).symbol();
        TickerSettings settings = TickerSettings.resolve(properties(Map.of("symbols", nyse1 + "," + asx + "," + nyse0)),
                TOPOLOGY, DIRECTORY, 1);
        assertThat(settings.exchangeCodes()).containsExactly("ASX", "NYSE");
        assertThat(settings.exchanges().get(0).symbols()).extracting(s -> s.symbol()).containsExactly(asx);
        assertThat(settings.exchanges().get(1).symbols()).extracting(s -> s.symbol()).containsExactly(nyse0, nyse1);
        assertThat(settings.initialRate().rateOf("NYSE")).isCloseTo(400, within(1e-9));
    }

    @Test
    void rejects_unknown_symbols_and_symbols_of_exchanges_not_published() {
        String nasdaq = DIRECTORY.symbolsOf("NASDAQ").get(0).symbol();
        assertThatThrownBy(() -> TickerSettings.resolve(properties(Map.of("exchanges", "NYSE",
                "symbols", "NOPE," + nasdaq)), TOPOLOGY, DIRECTORY, 1))
                .isInstanceOfSatisfying(InvalidConfigurationException.class, e -> assertThat(e.problems()).containsExactly(
                        "unknown symbol 'NOPE'",
                        "symbol " + nasdaq + " is traded on NASDAQ, which this instance does not publish [NYSE]"));
    }

    @Test
    void reports_every_problem_in_one_message() {
        assertThatThrownBy(() -> TickerSettings.resolve(properties(Map.of("exchanges", "NYSE,LSE",
                "tickers-per-second", "-5", "split", "NYSE:0.5,NASDAQ:0.5", "producer.compression", "brotli",
                "replay.file", "/no/such/file.csv")), TOPOLOGY, DIRECTORY, 1))
                .isInstanceOfSatisfying(InvalidConfigurationException.class, e -> assertThat(e.problems()).containsExactly(
                        "unknown exchange 'LSE': the topology's regions [sydney, nvirginia] run [ASX, NYSE, NASDAQ]",
                        "rate must be zero or positive, was -5.0",
                        "split names exchange 'NASDAQ', which this instance does not publish; it publishes [NYSE]",
                        "replay file /no/such/file.csv does not exist or cannot be read",
                        "producer.compression must be one of [none, lz4, zstd, snappy, gzip], was 'brotli'"));
    }

    @Test
    void a_rate_to_linger_from_must_be_zero_or_positive() {
        assertThatThrownBy(() -> TickerSettings.resolve(properties(Map.of("producer.linger-from", "-1")),
                TOPOLOGY, DIRECTORY, 1))
                .isInstanceOfSatisfying(InvalidConfigurationException.class, e -> assertThat(e.problems()).containsExactly(
                        "producer.linger-from must be zero or a positive rate, was -1.0"));
        assertThat(properties(Map.of()).producer().lingerFrom()).isEqualTo(400);
    }

    @Test
    void keeps_one_produce_request_in_flight_unless_told_and_refuses_more_than_idempotence_allows() {
        assertThat(Producers.config("sydney", "127.30.1.100:9092", properties(Map.of()).producer()))
                .containsEntry(ProducerConfig.MAX_IN_FLIGHT_REQUESTS_PER_CONNECTION, 1);
        assertThat(Producers.config("nvirginia", "127.30.2.100:9092",
                properties(Map.of("producer.max-in-flight", "5")).producer()))
                .containsEntry(ProducerConfig.MAX_IN_FLIGHT_REQUESTS_PER_CONNECTION, 5)
                .containsEntry(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
        for (String wrong : new String[] {"0", "6"}) {
            assertThatThrownBy(() -> TickerSettings.resolve(properties(Map.of("producer.max-in-flight", wrong)),
                    TOPOLOGY, DIRECTORY, 1))
                    .isInstanceOfSatisfying(InvalidConfigurationException.class, e -> assertThat(e.problems()).containsExactly(
                            "producer.max-in-flight must be from 1 to 5 (idempotence allows no more), was " + wrong));
        }
    }

    @Test
    void rejects_an_exchange_whose_region_has_no_kafka() {
        Properties p = new Properties();
        p.setProperty("geobroker.topology.regions", "sydney");
        Topology noKafka = Topology.fromProperties(p, DIRECTORY);
        assertThatThrownBy(() -> TickerSettings.resolve(properties(Map.of()), noKafka, DIRECTORY, 1))
                .hasMessageContaining("region sydney (home of ASX) has no Kafka: set geobroker.topology.region.sydney.kafka");
    }

    @Test
    void rejects_bad_model_parameters() {
        assertThatThrownBy(() -> TickerSettings.resolve(properties(Map.of("model.sector-correlation", "1.5")),
                TOPOLOGY, DIRECTORY, 1))
                .hasMessageContaining("model.sector-correlation must be in [0, 1), was 1.5");
    }
}
