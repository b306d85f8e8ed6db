package io.geobroker.ticker.config;

import io.geobroker.domain.SymbolDirectory;
import io.geobroker.domain.SymbolInfo;
import io.geobroker.domain.Topics;
import io.geobroker.domain.Topology;
import io.geobroker.ticker.model.ModelParameters;
import io.geobroker.ticker.rate.InvalidRateException;
import io.geobroker.ticker.rate.RateSettings;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The settings the service runs with, derived from {@link TickerProperties}, the topology and the
 * symbol directory, and checked together: {@link #resolve} reports every problem at once.
 *
 * @param exchanges     what this instance publishes, in topology order
 * @param initialRate   the rate and split at start
 * @param sequenceStart the first sequence number of every symbol
 */
public record TickerSettings(List<PublishedExchange> exchanges, RateSettings initialRate, long sequenceStart,
                             Topics topics, ModelParameters model) {

    private static final List<String> COMPRESSIONS = List.of("none", "lz4", "zstd", "snappy", "gzip");

    /** An exchange this instance publishes, its home region's Kafka and its symbols. */
    public record PublishedExchange(String exchange, String region, String kafkaBootstrap, List<SymbolInfo> symbols) {
        public PublishedExchange {
            symbols = List.copyOf(symbols);
        }
    }

    public TickerSettings {
        exchanges = List.copyOf(exchanges);
    }

    public List<String> exchangeCodes() {
        return exchanges.stream().map(PublishedExchange::exchange).toList();
    }

    /**
     * Checks and derives the settings.
     *
     * @param nowMicros the current time, the default first sequence number
     * @throws InvalidConfigurationException listing every problem found
     */
    public static TickerSettings resolve(TickerProperties p, Topology topology, SymbolDirectory directory,
                                         long nowMicros) {
        List<String> problems = new ArrayList<>();
        boolean replay = p.replay().file() != null && !p.replay().file().toString().isBlank();

        Map<String, Topology.RegionEndpoints> runByTopology = new LinkedHashMap<>();
        topology.regions().forEach(r -> r.region().exchanges().forEach(e -> runByTopology.put(e, r)));
        Set<String> requested = new LinkedHashSet<>();
        for (String e : p.exchanges()) {
            if (!e.isBlank()) {
                requested.add(e.trim());
            }
        }
        if (requested.isEmpty()) {
            runByTopology.keySet().stream().filter(e -> replay || !directory.symbolsOf(e).isEmpty())
                    .forEach(requested::add);
        }
        List<PublishedExchange> exchanges = new ArrayList<>();
        for (String exchange : requested) {
            Topology.RegionEndpoints home = runByTopology.get(exchange);
            if (home == null) {
                problems.add("unknown exchange '" + exchange + "': the topology's regions "
                        + topology.regions().stream().map(Topology.RegionEndpoints::name).toList() + " run "
                        + runByTopology.keySet());
                continue;
            }
            if (home.kafkaBootstrap().isBlank()) {
                problems.add("region " + home.name() + " (home of " + exchange + ") has no Kafka: set "
                        + Topology.PREFIX + "region." + home.name() + ".kafka");
                continue;
            }
            List<SymbolInfo> symbols = directory.symbolsOf(exchange);
            if (symbols.isEmpty() && !replay) {
                problems.add("exchange " + exchange + " has no symbols in the symbol directory");
                continue;
            }
            exchanges.add(new PublishedExchange(exchange, home.name(), home.kafkaBootstrap(), symbols));
        }
        if (requested.isEmpty() && problems.isEmpty()) {
            problems.add("nothing to publish: the topology's regions run no exchange with symbols");
        }
        exchanges = onlySymbols(exchanges, p.symbols(), directory, replay, problems);

        RateSettings rate = null;
        List<String> codes = exchanges.stream().map(PublishedExchange::exchange).toList();
        try {
            Map<String, Double> split = p.split().isBlank()
                    ? RateSettings.proportional(symbolCounts(exchanges))
                    : RateSettings.parseSplit(p.split());
            if (!codes.isEmpty()) {
                rate = RateSettings.of(p.tickersPerSecond(), split, codes);
            }
        } catch (InvalidRateException e) {
            e.problems().forEach(problem -> problems.add(problem.replace("tickersPerSecond", "rate")));
        }

        if (p.sequenceStart() != null && p.sequenceStart() < 0) {
            problems.add("sequence-start must be zero or positive, was " + p.sequenceStart());
        }
        Topics topics = null;
        try {
            topics = new Topics(p.topicPrefix());
        } catch (IllegalArgumentException e) {
            problems.add(e.getMessage());
        }
        TickerProperties.Model m = p.model();
        ModelParameters model = new ModelParameters(m.volatilityPerStep(), m.sectorCorrelation(), m.meanReversion(),
                m.medianVolume(), m.volumeSpread());
        problems.addAll(model.problems());
        if (p.maxCatchUp().isNegative()) {
            problems.add("max-catch-up must not be negative, was " + p.maxCatchUp());
        }
        checkReplay(p.replay(), replay, problems);
        checkFills(p.fills(), topology, problems);
        checkProducer(p.producer(), problems);
        Optional.ofNullable(p.benchmark().duration()).filter(d -> d.isZero() || d.isNegative())
                .ifPresent(d -> problems.add("benchmark duration must be positive, was " + d));
        if (p.benchmark().warmup().isNegative()) {
            problems.add("benchmark warmup must not be negative, was " + p.benchmark().warmup());
        }

        if (!problems.isEmpty()) {
            throw new InvalidConfigurationException(problems);
        }
        long sequenceStart = p.sequenceStart() != null ? p.sequenceStart() : nowMicros;
        return new TickerSettings(exchanges, rate, sequenceStart, topics, model);
    }

    /**
     * The exchanges restricted to the chosen symbols (directory order kept); an exchange none of whose
     * symbols is chosen is not published. Unknown symbols and symbols of an exchange not published are
     * problems. No choice (an empty list) keeps every symbol.
     */
    private static List<PublishedExchange> onlySymbols(List<PublishedExchange> exchanges, List<String> symbols,
                                                       SymbolDirectory directory, boolean replay, List<String> problems) {
        Set<String> chosen = new LinkedHashSet<>();
        symbols.stream().filter(s -> !s.isBlank()).map(String::trim).forEach(chosen::add);
        if (chosen.isEmpty()) {
            return exchanges;
        }
        if (replay) {
            problems.add("symbols cannot be chosen for a replay: the file says what is published");
            return exchanges;
        }
        Set<String> published = new LinkedHashSet<>();
        exchanges.forEach(e -> published.add(e.exchange()));
        for (String symbol : chosen) {
            Optional<SymbolInfo> info = directory.symbol(symbol);
            if (info.isEmpty()) {
                problems.add("unknown symbol '" + symbol + "'");
            } else if (!published.contains(info.get().exchange())) {
                problems.add("symbol " + symbol + " is traded on " + info.get().exchange() + ", which this instance does not publish "
                        + published);
            }
        }
        List<PublishedExchange> restricted = new ArrayList<>();
        for (PublishedExchange e : exchanges) {
            List<SymbolInfo> kept = e.symbols().stream().filter(s -> chosen.contains(s.symbol())).toList();
            if (!kept.isEmpty()) {
                restricted.add(new PublishedExchange(e.exchange(), e.region(), e.kafkaBootstrap(), kept));
            }
        }
        return restricted;
    }

    private static Map<String, Integer> symbolCounts(List<PublishedExchange> exchanges) {
        Map<String, Integer> counts = new LinkedHashMap<>();
        exchanges.forEach(e -> counts.put(e.exchange(), Math.max(1, e.symbols().size())));
        return counts;
    }

    private static void checkReplay(TickerProperties.Replay replay, boolean enabled, List<String> problems) {
        if (replay.repeat() < 1) {
            problems.add("replay repeat must be at least 1, was " + replay.repeat());
        }
        if (enabled) {
            Path file = replay.file();
            if (!Files.isRegularFile(file) || !Files.isReadable(file)) {
                problems.add("replay file " + file.toAbsolutePath() + " does not exist or cannot be read");
            }
        }
    }

    private static void checkFills(TickerProperties.Fills fills, Topology topology, List<String> problems) {
        if (fills.sharesPerTick() < 1) {
            problems.add("fills.shares-per-tick must be at least 1, was " + fills.sharesPerTick());
        }
        if (fills.maxTicksPerStep() < 0) {
            problems.add("fills.max-ticks-per-step must not be negative, was " + fills.maxTicksPerStep());
        }
        if (fills.enabled()) {
            topology.regions().stream().filter(r -> r.kafkaBootstrap().isBlank()).forEach(r -> problems.add(
                    "fills are enabled but region " + r.name() + " has no Kafka: set " + Topology.PREFIX
                            + "region." + r.name() + ".kafka"));
            if (fills.groupId().isBlank()) {
                problems.add("fills.group-id must not be empty");
            }
        }
    }

    private static void checkProducer(TickerProperties.Producer producer, List<String> problems) {
        if (producer.lingerMs() < 0) {
            problems.add("producer.linger-ms must not be negative, was " + producer.lingerMs());
        }
        if (!(producer.lingerFrom() >= 0) || Double.isInfinite(producer.lingerFrom())) {
            problems.add("producer.linger-from must be zero or a positive rate, was " + producer.lingerFrom());
        }
        if (producer.batchSizeBytes() < 1) {
            problems.add("producer.batch-size-bytes must be positive, was " + producer.batchSizeBytes());
        }
        if (!COMPRESSIONS.contains(producer.compression())) {
            problems.add("producer.compression must be one of " + COMPRESSIONS + ", was '" + producer.compression() + "'");
        }
        if (producer.maxInFlight() < 1 || producer.maxInFlight() > 5) {
            problems.add("producer.max-in-flight must be from 1 to 5 (idempotence allows no more), was "
                    + producer.maxInFlight());
        }
        if (producer.bufferBytes() < 1 << 20) {
            problems.add("producer.buffer-bytes must be at least 1 MiB, was " + producer.bufferBytes());
        }
    }
}
