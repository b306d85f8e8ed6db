package io.geobroker.loadgen;

import io.geobroker.loadgen.driver.TickerSource;
import io.geobroker.loadgen.driver.Workload;
import picocli.CommandLine;
import picocli.CommandLine.Option;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/** The workload and report options shared by {@code demo} and {@code run}. */
public final class WorkloadOptions {

    /** Accepts {@code 90s}, {@code 2m}, {@code 500ms} or plain seconds. */
    public static final class DurationConverter implements CommandLine.ITypeConverter<Duration> {
        @Override
        public Duration convert(String value) {
            String v = value.trim().toLowerCase(Locale.ROOT);
            try {
                if (v.endsWith("ms")) {
                    return Duration.ofMillis(Long.parseLong(v.substring(0, v.length() - 2)));
                }
                if (v.endsWith("s")) {
                    return Duration.ofSeconds(Long.parseLong(v.substring(0, v.length() - 1)));
                }
                if (v.endsWith("m")) {
                    return Duration.ofMinutes(Long.parseLong(v.substring(0, v.length() - 1)));
                }
                return Duration.ofSeconds(Long.parseLong(v));
            } catch (NumberFormatException e) {
                throw new CommandLine.TypeConversionException("'" + value + "' is not a duration (e.g. 60s, 2m, 500ms)");
            }
        }
    }

    /** The scenarios of {@code demo} and {@code run}. */
    public enum Scenario { DEFAULT, REMOTE_DC, SWEEP, CHAOS }

    @Option(names = "--scenario", defaultValue = "default", converter = ScenarioConverter.class,
            description = "default | remote-dc (brokers use the other region's Cassandra DC; demo only) | sweep "
                    + "(offered load in steps up to saturation) | chaos (faults under load, then an invariants table; "
                    + "demo only). Default: ${DEFAULT-VALUE}.")
    Scenario scenario;

    @Option(names = "--scale", defaultValue = "1", description = "Multiply every rate of the default workload. Default: ${DEFAULT-VALUE}.")
    double scale;

    @Option(names = "--orders-per-second", defaultValue = "300", description = "New orders per second across all regions, before --scale.")
    double ordersPerSecond;

    @Option(names = "--tickers-per-second", defaultValue = "600", description = "Tickers per second across all exchanges, before --scale.")
    double tickersPerSecond;

    @Option(names = "--mix", defaultValue = "60,20,20", split = ",",
            description = "Percent of LIMIT,STOP,MARKET orders. Default: 60,20,20.")
    List<Integer> mix;

    @Option(names = "--marketable", defaultValue = "70",
            description = "Percent of limit orders priced through the quote (fill at the next ticker). Default: ${DEFAULT-VALUE}.")
    int marketable;

    @Option(names = "--duration", defaultValue = "60s", converter = DurationConverter.class,
            description = "Measured phase. Default: ${DEFAULT-VALUE}.")
    Duration duration;

    @Option(names = "--warmup", defaultValue = "45s", converter = DurationConverter.class,
            description = "Warm-up before measuring. Default: ${DEFAULT-VALUE}.")
    Duration warmup;

    @Option(names = "--ramp", defaultValue = "30s", converter = DurationConverter.class,
            description = "The first part of the warm-up in which the rates climb linearly from 10 %% to 100 %% "
                    + "(0s: full rates from the start; at most --warmup). Default: ${DEFAULT-VALUE}.")
    Duration ramp;

    @Option(names = "--customers-per-region", defaultValue = "5", description = "Default: ${DEFAULT-VALUE}.")
    int customersPerRegion;

    @Option(names = "--symbols-per-exchange", defaultValue = "10", description = "Default: ${DEFAULT-VALUE}.")
    int symbolsPerExchange;

    @Option(names = "--setup-timeout", defaultValue = "300s", converter = DurationConverter.class,
            description = "Bound on creating and funding the customers. Default: ${DEFAULT-VALUE}.")
    Duration setupTimeout;

    @Option(names = "--max-in-flight", defaultValue = "256",
            description = "Bound on orders awaiting an answer from each region's broker (= its kept-alive HTTP connections); "
                    + "beyond it orders queue in the load generator, and that wait counts as latency. Default: ${DEFAULT-VALUE}.")
    int maxInFlight;

    @Option(names = "--seed", defaultValue = "42", description = "Random seed of the order and price choices.")
    long seed;

    @Option(names = "--sweep-steps", defaultValue = "1,2,4,8,16,32", split = ",",
            description = "Sweep: multiples of the (scaled) workload, run in order until saturation. Default: 1,2,4,8,16,32.")
    List<Double> sweepSteps;

    @Option(names = "--sweep-step-duration", defaultValue = "20s", converter = DurationConverter.class,
            description = "Sweep: measured phase of each step. Default: ${DEFAULT-VALUE}.")
    Duration sweepStepDuration;

    @Option(names = "--resource-interval", defaultValue = "10s", converter = DurationConverter.class,
            description = "How often the measured phase samples the resources series of the report: memory of each process "
                    + "and heap after GC of each JVM on this machine, the brokers' consumer lag, the Cassandra nodes' pending "
                    + "compactions and hints (0s: none). Default: ${DEFAULT-VALUE}.")
    Duration resourceInterval;

    @Option(names = "--out", defaultValue = "loadgen-report", description = "Directory for report.html, report.json and the CSV files.")
    Path out;

    @Option(names = "--no-progress", description = "No progress bar on stderr.")
    boolean noProgress;

    @Option(names = "--tickers", defaultValue = "service", converter = TickerSourceConverter.class,
            description = "service | loadgen: who publishes the tickers. service: the ticker service (the demo starts "
                    + "one and sets its rate; run uses the deployment's), the load generator learns the quotes from the "
                    + "ticker topics. loadgen: the load generator publishes them itself (to compare; with run, pause the "
                    + "deployment's ticker service first). Default: ${DEFAULT-VALUE}.")
    TickerSource tickers;

    public Scenario scenario() {
        return scenario;
    }

    public Workload workload() {
        if (!(scale > 0)) {
            throw new IllegalArgumentException("--scale must be positive");
        }
        if (mix.size() != 3) {
            throw new IllegalArgumentException("--mix takes three percentages: LIMIT,STOP,MARKET");
        }
        return new Workload(ordersPerSecond, tickersPerSecond, mix.get(0), mix.get(1), mix.get(2), marketable,
                customersPerRegion, symbolsPerExchange, warmup, ramp, duration, seed, maxInFlight).scaled(scale);
    }

    public List<Double> sweepSteps() {
        if (sweepSteps.isEmpty() || sweepSteps.stream().anyMatch(s -> !(s > 0))) {
            throw new IllegalArgumentException("--sweep-steps must be positive multiples");
        }
        return sweepSteps;
    }

    public Duration sweepStepDuration() {
        return sweepStepDuration;
    }

    /** How often the resources series is sampled; empty for none. */
    public Optional<Duration> resourceInterval() {
        if (resourceInterval.isNegative()) {
            throw new IllegalArgumentException("--resource-interval must not be negative");
        }
        return resourceInterval.isZero() ? Optional.empty() : Optional.of(resourceInterval);
    }

    public Duration setupTimeout() {
        return setupTimeout;
    }

    public Path out() {
        return out;
    }

    public boolean progress() {
        return !noProgress;
    }

    public double scale() {
        return scale;
    }

    public TickerSource tickers() {
        return tickers;
    }

    public long seed() {
        return seed;
    }

    public int symbolsPerExchange() {
        return symbolsPerExchange;
    }

    /** Parses {@code service} and {@code loadgen}. */
    public static final class TickerSourceConverter implements CommandLine.ITypeConverter<TickerSource> {
        @Override
        public TickerSource convert(String value) {
            try {
                return TickerSource.parse(value);
            } catch (IllegalArgumentException e) {
                throw new CommandLine.TypeConversionException(e.getMessage());
            }
        }
    }

    /** Parses {@code default}, {@code remote-dc}, {@code sweep}, {@code chaos}. */
    public static final class ScenarioConverter implements CommandLine.ITypeConverter<Scenario> {
        @Override
        public Scenario convert(String value) {
            for (Scenario s : Scenario.values()) {
                if (s.name().replace('_', '-').equalsIgnoreCase(value.trim())) {
                    return s;
                }
            }
            throw new CommandLine.TypeConversionException("'" + value + "' is not a scenario: default, remote-dc, sweep or chaos");
        }
    }
}
