package io.geobroker.ticker.config;

import io.geobroker.domain.SymbolDirectory;
import io.geobroker.domain.Topology;
import io.geobroker.ticker.model.ExchangeTickers;
import io.geobroker.ticker.model.FillPressure;
import io.geobroker.ticker.model.FillsConsumer;
import io.geobroker.ticker.model.PriceModel;
import io.geobroker.domain.WallClock;
import io.geobroker.ticker.publish.Producers;
import io.geobroker.ticker.publish.PublishingService;
import io.geobroker.ticker.publish.RegionProducer;
import io.geobroker.ticker.publish.TickerSender;
import io.geobroker.kafka.TopicReadiness;
import io.geobroker.ticker.rate.PacedLoop;
import io.geobroker.ticker.rate.RateControl;
import io.geobroker.ticker.replay.ReplayFeed;
import io.geobroker.ticker.replay.ReplayLineParser;
import io.geobroker.ticker.replay.ReplayReport;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;

/** Wires the service from {@link TickerProperties}, the topology and the symbol directory. */
@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties(TickerProperties.class)
public class TickerConfiguration {

    private static final Logger LOG = LoggerFactory.getLogger(TickerConfiguration.class);

    @Bean
    SymbolDirectory symbolDirectory() {
        return SymbolDirectory.standard();
    }

    /**
     * The topology from the {@code geobroker.topology.*} properties, usually imported from the topology
     * file ({@code GEOBROKER_TOPOLOGY}, default {@code ./topology.properties}).
     */
    @Bean
    Topology topology(Environment environment, SymbolDirectory directory) {
        Properties properties = new Properties();
        Binder.get(environment).bind("geobroker.topology", Bindable.mapOf(String.class, String.class))
                .ifBound(map -> map.forEach((key, value) -> properties.setProperty(Topology.PREFIX + key, value)));
        try {
            return Topology.fromProperties(properties, directory);
        } catch (IllegalArgumentException e) {
            throw new InvalidConfigurationException(List.of("no usable topology (" + e.getMessage() + "); point "
                    + "GEOBROKER_TOPOLOGY at the topology file or set the geobroker.topology.* properties"));
        }
    }

    @Bean
    TickerSettings tickerSettings(TickerProperties properties, Topology topology, SymbolDirectory directory) {
        TickerSettings settings = TickerSettings.resolve(properties, topology, directory, WallClock.nowMicros());
        settings.exchanges().forEach(e -> LOG.info("Publishing {} ({} symbols) to topic {} on the Kafka of region {} ({})",
                e.exchange(), e.symbols().size(), settings.topics().tickers(e.exchange()), e.region(), e.kafkaBootstrap()));
        LOG.info("{} at {} tickers/s, split {}, seed {}, first sequence {}",
                properties.replay().file() != null && !properties.replay().file().toString().isBlank()
                        ? "Replaying " + properties.replay().file() : "Generating",
                settings.initialRate().tickersPerSecond(), settings.initialRate().split(), properties.seed(),
                settings.sequenceStart());
        return settings;
    }

    @Bean
    RateControl rateControl(TickerSettings settings, MeterRegistry registry) {
        RateControl control = new RateControl(settings.exchangeCodes(), settings.initialRate());
        for (String exchange : control.exchanges()) {
            Gauge.builder("geobroker.ticker.rate.target", control, c -> c.current().rateOf(exchange))
                    .description("Configured tickers per second").tag("exchange", exchange).register(registry);
        }
        return control;
    }

    @Bean(destroyMethod = "close")
    TickerSender tickerSender(TickerSettings settings, TickerProperties properties, MeterRegistry registry) {
        Map<String, RegionProducer> producerOfRegion = new LinkedHashMap<>();
        List<TickerSender.Route> routes = new ArrayList<>();
        for (TickerSettings.PublishedExchange e : settings.exchanges()) {
            RegionProducer producer = producerOfRegion.computeIfAbsent(e.region(),
                    region -> Producers.create(region, e.kafkaBootstrap(), properties.producer()));
            routes.add(new TickerSender.Route(e.exchange(), e.region(), settings.topics().tickers(e.exchange()), producer));
        }
        return new TickerSender(routes, registry);
    }

    @Bean
    FillPressure fillPressure(TickerProperties properties, SymbolDirectory directory) {
        TickerProperties.Fills fills = properties.fills();
        return fills.enabled()
                ? new FillPressure(directory.symbols(), fills.sharesPerTick(), fills.maxTicksPerStep())
                : FillPressure.none();
    }

    @Bean
    PublishingService publishingService(TickerSettings settings, TickerProperties properties, Topology topology,
                                        SymbolDirectory directory, RateControl rateControl, TickerSender sender,
                                        FillPressure pressure, MeterRegistry registry) {
        List<PublishingService.Loop> loops = new ArrayList<>();
        long maxCatchUp = properties.maxCatchUp().toNanos();
        ReplayFeed replay = null;
        ReplayReport report = null;
        if (properties.replay().file() != null && !properties.replay().file().toString().isBlank()) {
            report = new ReplayReport(properties.replay().file().toString(), properties.replay().repeat());
            replay = new ReplayFeed(properties.replay().file(), properties.replay().repeat(),
                    new ReplayLineParser(directory, settings.exchangeCodes(), settings.sequenceStart()),
                    sender, report, registry);
            loops.add(new PublishingService.Loop(new PacedLoop("ticker-replay",
                    () -> rateControl.current().tickersPerSecond(), maxCatchUp, replay,
                    missedCounter(registry, "replay")::increment), topicsOf(settings, settings.exchanges())));
        } else {
            PriceModel model = new PriceModel(properties.seed(), settings.model(), pressure);
            for (TickerSettings.PublishedExchange e : settings.exchanges()) {
                ExchangeTickers tickers = new ExchangeTickers(e.exchange(), e.symbols(), model, settings.sequenceStart());
                loops.add(new PublishingService.Loop(new PacedLoop("ticker-" + e.exchange(),
                        () -> rateControl.current().rateOf(e.exchange()), maxCatchUp, scheduledMicros -> {
                            sender.send(tickers.next(scheduledMicros));
                            return true;
                        }, missedCounter(registry, e.exchange())::increment), topicsOf(settings, List.of(e))));
            }
        }
        List<FillsConsumer> consumers = new ArrayList<>();
        if (properties.fills().enabled()) {
            for (Topology.RegionEndpoints region : topology.regions()) {
                consumers.add(new FillsConsumer(region.name(), settings.topics().fills(),
                        fillsConsumer(region, properties.fills()), pressure, registry));
            }
        }
        return new PublishingService(loops, consumers, replay, report, sender);
    }

    private static TopicReadiness topicsOf(TickerSettings settings, List<TickerSettings.PublishedExchange> exchanges) {
        return new TopicReadiness("ticker-service-topics", exchanges.stream()
                .map(e -> new TopicReadiness.Target(e.region(), e.kafkaBootstrap(), settings.topics().tickers(e.exchange())))
                .toList());
    }

    private static Counter missedCounter(MeterRegistry registry, String loop) {
        return Counter.builder("geobroker.ticker.pacing.missed")
                .description("Tickers not published because publishing fell further behind schedule than max-catch-up")
                .tag("loop", loop).register(registry);
    }

    private static KafkaConsumer<String, byte[]> fillsConsumer(Topology.RegionEndpoints region, TickerProperties.Fills fills) {
        Map<String, Object> config = new LinkedHashMap<>();
        config.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, region.kafkaBootstrap());
        config.put(ConsumerConfig.GROUP_ID_CONFIG, fills.groupId() + "-" + region.name());
        config.put(ConsumerConfig.CLIENT_ID_CONFIG, "ticker-service-fills-" + region.name());
        // Only fills from now on move prices; old fills are history.
        config.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "latest");
        config.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class);
        config.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class);
        return new KafkaConsumer<>(config);
    }
}
