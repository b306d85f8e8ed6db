package io.geobroker.loadgen.report;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.geobroker.loadgen.metrics.LatencySeries;
import io.geobroker.loadgen.metrics.Metrics;
import io.geobroker.loadgen.metrics.SeriesKey;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramIterationValue;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * The result of one run, as written to {@code report.json} and read back by {@code calc
 * --from-report}. Latencies in microseconds; rates per second of the measured phase. {@code chaos}
 * only in a chaos run, {@code resources} (the {@link Resources} sampled over the measured phase:
 * memory per process, heap after GC per JVM, consumer lag per broker, Cassandra's backlog per node)
 * only where they were sampled; each is absent from the JSON otherwise, and a report written before
 * them reads back without them.
 */
public record RunReport(String schema, String title, String scenario, String startedAt,
                        Map<String, String> conditions, long measuredMillis, List<RegionSummary> regions,
                        List<SeriesSummary> series, Map<String, List<long[]>> throughput, List<SweepStep> sweep,
                        @JsonInclude(JsonInclude.Include.NON_NULL) ChaosReport chaos,
                        @JsonInclude(JsonInclude.Include.NON_NULL) Resources resources) {

    public static final String SCHEMA = "geobroker-loadgen-report/1";

    /** Counters of one region over the measured phase. */
    public record RegionSummary(String region, long ordersSent, long ordersAccepted, long ordersRejected,
                                long errors, long fills, long tickers) {
    }

    /** One point of the percentile distribution. */
    public record Percentile(double percentile, long micros) {
    }

    /** One latency series over the measured phase. */
    public record SeriesSummary(String name, String kind, String region, String orderType, long count, long errors,
                                double throughputPerSecond, long p50Micros, long p90Micros, long p99Micros,
                                long p999Micros, long maxMicros, double meanMicros, List<Percentile> distribution,
                                List<LatencySeries.Interval> timeline) {
    }

    /** One step of a sweep: offered load and what came of it (ticker-to-fill over all regions). */
    public record SweepStep(double offeredOrdersPerSecond, double offeredTickersPerSecond, double fillsPerSecond,
                            long count, long p50Micros, long p99Micros, long maxMicros, long errors) {
    }

    public RunReport {
        conditions = Map.copyOf(conditions);
        regions = List.copyOf(regions);
        series = List.copyOf(series);
        throughput = Map.copyOf(throughput);
        sweep = List.copyOf(sweep);
    }

    /** Counter names the driver uses; {@code <name>/<region>}. */
    public static final String ORDERS_SENT = "orders.sent";
    public static final String ORDERS_ACCEPTED = "orders.accepted";
    public static final String ORDERS_REJECTED = "orders.rejected";
    public static final String ORDERS_ERRORS = "orders.errors";
    /** Prefix of the per-cause error counters: {@code orders.error.<cause>/<region>}. */
    public static final String ORDER_ERROR_CAUSE = "orders.error.";
    /** Prefix of the per-reason rejection counters: {@code orders.rejected.<reason>/<region>}. */
    public static final String ORDER_REJECT_REASON = "orders.rejected.";
    public static final String FILLS = "fills";
    public static final String TICKERS = "tickers";

    public static RunReport from(Metrics metrics, String title, String scenario, String startedAt,
                                 Map<String, String> conditions, long measuredMillis, List<SweepStep> sweep) {
        Map<String, Long> counters = metrics.counters();
        TreeSet<String> regionNames = new TreeSet<>();
        for (String name : counters.keySet()) {
            int slash = name.indexOf('/');
            if (slash > 0) {
                regionNames.add(name.substring(slash + 1));
            }
        }
        List<RegionSummary> regions = new ArrayList<>();
        for (String region : regionNames) {
            regions.add(new RegionSummary(region,
                    counters.getOrDefault(ORDERS_SENT + "/" + region, 0L),
                    counters.getOrDefault(ORDERS_ACCEPTED + "/" + region, 0L),
                    counters.getOrDefault(ORDERS_REJECTED + "/" + region, 0L),
                    counters.getOrDefault(ORDERS_ERRORS + "/" + region, 0L),
                    counters.getOrDefault(FILLS + "/" + region, 0L),
                    counters.getOrDefault(TICKERS + "/" + region, 0L)));
        }
        List<SeriesSummary> series = new ArrayList<>();
        for (LatencySeries s : metrics.allSeries()) {
            series.add(summarise(s.key(), s.total(), s.errors(), s.timeline(), measuredMillis));
        }
        Map<String, List<long[]>> throughput = new LinkedHashMap<>(metrics.counterTimeline());
        return new RunReport(SCHEMA, title, scenario, startedAt, conditions, measuredMillis, regions, series,
                throughput, sweep, null, null);
    }

    static SeriesSummary summarise(SeriesKey key, Histogram h, long errors, List<LatencySeries.Interval> timeline,
                                   long measuredMillis) {
        long n = h.getTotalCount();
        List<Percentile> distribution = new ArrayList<>();
        if (n > 0) {
            for (HistogramIterationValue v : h.percentiles(5)) {
                double p = v.getPercentileLevelIteratedTo();
                distribution.add(new Percentile(p, v.getValueIteratedTo()));
                if (p >= 100.0 || distribution.size() >= 200) {
                    break;
                }
            }
        }
        double throughput = measuredMillis <= 0 ? 0 : n * 1000.0 / measuredMillis;
        return new SeriesSummary(key.name(), key.kind().label(), key.region(), key.orderType(), n, errors, throughput,
                n == 0 ? 0 : h.getValueAtPercentile(50), n == 0 ? 0 : h.getValueAtPercentile(90),
                n == 0 ? 0 : h.getValueAtPercentile(99), n == 0 ? 0 : h.getValueAtPercentile(99.9),
                n == 0 ? 0 : h.getMaxValue(), n == 0 ? 0 : h.getMean(), distribution, timeline);
    }

    /** This report with the chaos scenario's faults and invariants. */
    public RunReport withChaos(ChaosReport chaosReport) {
        return new RunReport(schema, title, scenario, startedAt, conditions, measuredMillis, regions, series, throughput,
                sweep, chaosReport, resources);
    }

    /** This report with the resources sampled over its measured phase. */
    public RunReport withResources(Resources sampled) {
        return new RunReport(schema, title, scenario, startedAt, conditions, measuredMillis, regions, series, throughput,
                sweep, chaos, sampled);
    }

    /** The series of one kind, in name order. */
    public List<SeriesSummary> seriesOf(SeriesKey.Kind kind) {
        return series.stream().filter(s -> s.kind().equals(kind.label())).toList();
    }
}
