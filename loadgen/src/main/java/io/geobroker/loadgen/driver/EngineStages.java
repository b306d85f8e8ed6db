package io.geobroker.loadgen.driver;

import java.util.Locale;
import java.util.Optional;
import java.util.TreeMap;

/**
 * What a broker's matching engine did over the measured phase, from two readings of its
 * {@code geobroker_engine_stage_seconds} timers: how often it committed a group (one logged batch
 * each), how long a batch took, what share of the phase the engine spent waiting on batches (its
 * {@code wait} stage: with several groups' writes under way it waits only when they are as many as
 * allowed; a broker without that stage waited for every batch, its {@code persist} stage), and how
 * long a ticker took from its exchange time to the broker's consumer ({@value #DELIVERY}) and then
 * waited from the consumer to the engine. One line of the report per region: where the
 * ticker-to-fill latency goes, the way to the broker, the queue and the batch.
 */
public record EngineStages(double commits, double batchSeconds, double waitSeconds, BrokerHistogram batches, double statements,
                           double partitions, double unreplicated, double tickers, double tickerWaitSeconds, BrokerHistogram tickerWaits,
                           BrokerHistogram deliveries, double elapsedSeconds, Projected projected) {

    /**
     * The engine's projection rounds: each writes the symbol rows of the groups logged since the last,
     * coalesced.
     *
     * @param rounds     rounds in the phase
     * @param partitions partitions (mutations) they wrote
     * @param statements statements they wrote
     * @param dropped    statements not written because a later group overwrote or deleted their rows
     */
    public record Projected(double rounds, double partitions, double statements, double dropped) {
    }

    /** The engine's projection timer, one sample per round. */
    public static final String PROJECTION = "geobroker_engine_projection_seconds";
    public static final String PROJECTION_PARTITIONS = "geobroker_engine_projection_partitions";
    public static final String PROJECTION_STATEMENTS = "geobroker_engine_projection_statements";
    public static final String PROJECTION_DROPPED = "geobroker_engine_projection_dropped_total";


    public static final String NAME = "geobroker_engine_stage_seconds";
    /** The engine's statements-per-group summary; its sum is every CQL statement its groups wrote. */
    public static final String STATEMENTS = "geobroker_engine_group_statements";
    /** The engine's partitions-per-group summary: the Cassandra mutations its groups wrote. */
    public static final String PARTITIONS = "geobroker_engine_group_partitions";
    /** The engine's counter of its groups' partitions no other DC replicates (its log's slots, in its DC's own keyspace). */
    public static final String UNREPLICATED = "geobroker_engine_group_unreplicated_partitions_total";
    /** The broker's timer from a ticker's exchange time to its consumer receiving it. */
    public static final String DELIVERY = "geobroker_ticker_delivery_seconds";

    /**
     * The engine's work between two Prometheus pages of one broker read {@code elapsedSeconds}
     * apart; empty when either page lacks the persist or consume stage.
     */
    public static Optional<EngineStages> between(String before, String after, double elapsedSeconds) {
        Optional<BrokerHistogram> persist = stage(after, "persist").flatMap(a -> stage(before, "persist").map(a::minus));
        Optional<BrokerHistogram> consume = stage(after, "consume").flatMap(a -> stage(before, "consume").map(a::minus));
        if (persist.isEmpty() || consume.isEmpty() || elapsedSeconds <= 0) {
            return Optional.empty();
        }
        BrokerHistogram p = persist.get();
        double waited = stage(after, "wait").flatMap(a -> stage(before, "wait").map(a::minus))
                .map(BrokerHistogram::sumSeconds).orElse(p.sumSeconds());
        BrokerHistogram c = consume.get();
        double statements = Math.max(0, sum(after, STATEMENTS) - sum(before, STATEMENTS));
        double partitions = Math.max(0, sum(after, PARTITIONS) - sum(before, PARTITIONS));
        BrokerHistogram deliveries = BrokerHistogram.between(before, after, DELIVERY)
                .orElse(new BrokerHistogram(new TreeMap<>(), 0, 0, 0));
        double rounds = BrokerHistogram.parse(after, PROJECTION).map(BrokerHistogram::count).orElse(0.0)
                - BrokerHistogram.parse(before, PROJECTION).map(BrokerHistogram::count).orElse(0.0);
        Projected projected = new Projected(Math.max(0, rounds),
                Math.max(0, sum(after, PROJECTION_PARTITIONS) - sum(before, PROJECTION_PARTITIONS)),
                Math.max(0, sum(after, PROJECTION_STATEMENTS) - sum(before, PROJECTION_STATEMENTS)),
                Math.max(0, counter(after, PROJECTION_DROPPED) - counter(before, PROJECTION_DROPPED)));
        double unreplicated = Math.max(0, counter(after, UNREPLICATED) - counter(before, UNREPLICATED));
        return Optional.of(new EngineStages(p.count(), p.sumSeconds(), waited, p, statements, partitions, unreplicated, c.count(),
                c.sumSeconds(), c, deliveries, elapsedSeconds, projected));
    }

    /**
     * The Cassandra mutations (partitions) the engine wrote in the phase to tables every DC
     * replicates: its groups' and its projection rounds', less its log's slots in its DC's own keyspace.
     */
    public long mutations() {
        return Math.max(0, Math.round(partitions + projected.partitions() - unreplicated));
    }

    /** A counter's value summed over its label sets (0 when the page has none). */
    static double counter(String page, String name) {
        double total = 0;
        for (String line : page.split("\n")) {
            if (line.startsWith(name + " ") || line.startsWith(name + "{")) {
                try {
                    total += Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1).trim());
                } catch (NumberFormatException e) {
                    // not a sample line
                }
            }
        }
        return total;
    }

    /** What the page's summary of that name counted (0 when it has none); parsed like a histogram, whose sum it is. */
    private static double sum(String page, String summary) {
        return BrokerHistogram.parse(page, summary).map(BrokerHistogram::sumSeconds).orElse(0.0);
    }

    private static Optional<BrokerHistogram> stage(String page, String stage) {
        return BrokerHistogram.parse(page, NAME, "stage", stage);
    }

    /** One line for the report (times in ms; percentiles as the broker's bucket bounds). */
    public String describe() {
        if (commits <= 0) {
            return "no group committed";
        }
        StringBuilder line = new StringBuilder(String.format(Locale.ROOT,
                "%.1f commits/s, logged batch mean %.0f ms (p50 <= %.0f ms, p99 <= %.0f ms)",
                commits / elapsedSeconds, batchSeconds / commits * 1000, batches.upperBoundSeconds(0.5) * 1000,
                batches.upperBoundSeconds(0.99) * 1000));
        if (statements > 0) {
            line.append(String.format(Locale.ROOT, " of %.0f statements", statements / commits));
            if (partitions > 0) {
                line.append(String.format(Locale.ROOT, " in %.0f partitions", partitions / commits));
            }
            line.append(" on average");
        }
        line.append(String.format(Locale.ROOT, ", waiting on batches %.0f %% of the time",
                Math.min(100, waitSeconds / elapsedSeconds * 100)));
        if (tickers > 0) {
            line.append(String.format(Locale.ROOT, "; %.0f tickers/s, %.0f per commit, each",
                    tickers / elapsedSeconds, tickers / commits));
            if (deliveries.count() > 0) {
                line.append(String.format(Locale.ROOT,
                        " delivered mean %.1f ms (p50 <= %.1f ms) from its exchange time to the consumer, then",
                        deliveries.sumSeconds() / deliveries.count() * 1000, deliveries.upperBoundSeconds(0.5) * 1000));
            }
            line.append(String.format(Locale.ROOT, " waiting mean %.0f ms (p50 <= %.0f ms) from the consumer to the engine",
                    tickerWaitSeconds / tickers * 1000, tickerWaits.upperBoundSeconds(0.5) * 1000));
        }
        if (projected.rounds() > 0) {
            double written = projected.statements();
            line.append(String.format(Locale.ROOT, "; symbol rows projected %.1f times/s, %.0f partitions and %.0f "
                            + "statements a round, %.0f %% of the logged statements not written (overwritten or deleted later)",
                    projected.rounds() / elapsedSeconds, projected.partitions() / projected.rounds(),
                    written / projected.rounds(),
                    written + projected.dropped() == 0 ? 0 : projected.dropped() / (written + projected.dropped()) * 100));
        }
        return line.toString();
    }
}
