package io.geobroker.ticker.config;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/**
 * Settings of the ticker service, under {@code geobroker.ticker}. The ones an operator changes most
 * also have short command-line flags ({@code --rate}, {@code --split}, {@code --seed},
 * {@code --exchanges}, {@code --replay}, {@code --benchmark}; see {@code application.yml}).
 * Checked at start by {@link TickerSettings#resolve}: a bad value stops the service with one message.
 *
 * @param exchanges        exchanges to publish; empty means every exchange of the topology's regions
 * @param symbols          symbols to publish, each of a published exchange; empty means every symbol of the
 *                         published exchanges. A load test that trades a few symbols names them, so that all
 *                         the rate goes to the symbols its orders are for
 * @param tickersPerSecond total tickers per second over all exchanges (0 pauses); changeable at runtime
 * @param split            fraction per exchange, e.g. {@code NYSE:0.4,NASDAQ:0.4,ASX:0.2}; empty means
 *                         proportional to each exchange's number of symbols (every symbol ticks equally often)
 * @param seed             seed of the price model: the same seed gives the same tickers per symbol
 * @param sequenceStart    the first sequence number of every symbol; empty means the start time in
 *                         microseconds since the epoch, so that a restarted service never reuses a
 *                         sequence a consumer has already seen (consumers drop tickers they think are replays)
 * @param topicPrefix      prefix of the topic names (see {@code Topics}); empty in a deployment
 * @param maxCatchUp       how far behind schedule publishing may catch up in a burst after a stall; a
 *                         longer stall drops the excess (counted in {@code geobroker.ticker.pacing.missed}).
 *                         Longer keeps the average rate through GC pauses and CPU starvation, shorter avoids
 *                         bursts. Measured at 50,000 tickers/s on a loaded 2-core machine: 100 ms dropped a
 *                         quarter of the tickers, 1 s none.
 */
@ConfigurationProperties("geobroker.ticker")
public record TickerProperties(
        @DefaultValue List<String> exchanges,
        @DefaultValue List<String> symbols,
        @DefaultValue("600") double tickersPerSecond,
        @DefaultValue("") String split,
        @DefaultValue("42") long seed,
        Long sequenceStart,
        @DefaultValue("") String topicPrefix,
        @DefaultValue("1s") Duration maxCatchUp,
        @DefaultValue Model model,
        @DefaultValue Fills fills,
        @DefaultValue Replay replay,
        @DefaultValue Producer producer,
        @DefaultValue Benchmark benchmark) {

    /** See {@link io.geobroker.ticker.model.ModelParameters} for what each knob does. */
    public record Model(
            @DefaultValue("0.0005") double volatilityPerStep,
            @DefaultValue("0.5") double sectorCorrelation,
            @DefaultValue("0.0001") double meanReversion,
            @DefaultValue("300") long medianVolume,
            @DefaultValue("0.8") double volumeSpread) {
    }

    /**
     * Moving prices by fills (off by default: it makes tickers depend on trading, so no longer
     * reproducible from the seed).
     *
     * @param enabled         consume the fills topic of every region of the topology
     * @param sharesPerTick   net shares bought (sold) that push a price up (down) by one tick
     * @param maxTicksPerStep most ticks of fill impact applied to one ticker; the rest carries over
     * @param groupId         Kafka consumer group of the fills consumers
     */
    public record Fills(
            @DefaultValue("false") boolean enabled,
            @DefaultValue("100") long sharesPerTick,
            @DefaultValue("5") long maxTicksPerStep,
            @DefaultValue("ticker-service-fills") String groupId) {
    }

    /**
     * Replay mode: publish the tickers of a CSV file instead of generating them.
     *
     * @param file   the CSV (format in the README); empty means generate
     * @param repeat how many times to publish the file
     */
    public record Replay(Path file, @DefaultValue("1") int repeat) {
    }

    /**
     * Producer tuning. Idempotence and {@code acks=all} are always on.
     *
     * @param lingerMs       how long the producer waits to fill a batch. Higher means fewer, larger requests
     *                       (more tickers/s per core) but adds up to that much to every ticker's latency at
     *                       low rates; at high rates batches fill before the linger expires. 5 ms was the
     *                       better tail at 10k msg/s on a 2-core machine; 0 sends every ticker at once.
     * @param lingerFrom     a region's rate (tickers a second, measured every 250 ms) from which its tickers
     *                       linger; below 80 % of it each goes at once, through a second producer. The
     *                       default is two tickers per default linger: below that a linger often finds no
     *                       second ticker and only delays the one it holds. 0 lingers at every rate (one
     *                       producer).
     * @param batchSizeBytes most bytes per partition batch; larger helps throughput, costs memory per partition
     * @param compression    none, lz4, zstd, snappy or gzip; on loopback none is cheapest, over a WAN lz4 saves
     *                       bandwidth for some CPU
     * @param bufferBytes    memory for records not yet sent; when full, sending blocks (back-pressure).
     *                       Sized for a 256 MB heap.
     * @param maxInFlight    produce requests under way per broker connection (1 to 5). A Kafka broker
     *                       handles one request of a connection at a time, so a second one only waits
     *                       there behind the first: with 5, at the demo's 600 tickers/s the producer kept
     *                       5 under way, each answered ~80 ms after it was sent (the broker's own time
     *                       ~20 ms), 3-7 tickers a request; with 1, what comes meanwhile goes in the next.
     */
    public record Producer(
            @DefaultValue("5") int lingerMs,
            @DefaultValue("262144") int batchSizeBytes,
            @DefaultValue("none") String compression,
            @DefaultValue("16777216") long bufferBytes,
            @DefaultValue("1") int maxInFlight,
            @DefaultValue("400") double lingerFrom) {
    }

    /**
     * Benchmark mode: publish as fast as Kafka acknowledges for {@code duration} after {@code warmup},
     * report acknowledged tickers per second and exit.
     *
     * @param duration how long to measure; empty means no benchmark
     * @param rate     the target rate during the benchmark (far above what one instance reaches means
     *                 "as fast as possible")
     */
    public record Benchmark(Duration duration, @DefaultValue("5s") Duration warmup,
                            @DefaultValue("5000000") double rate) {
    }
}
