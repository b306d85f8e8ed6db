package io.geobroker.ticker.rate;

import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * How many tickers per second to publish in total and which fraction goes to each exchange. The
 * split holds every published exchange (0 pauses one) and its fractions add up to exactly 1.
 * Rates are not money: doubles are fine here.
 */
public record RateSettings(double tickersPerSecond, Map<String, Double> split) {

    /** Far above what one instance can publish; guards against typos such as an extra few zeros. */
    public static final double MAX_TICKERS_PER_SECOND = 10_000_000;

    /** How far the fractions of a split may be off 1 (they are then scaled to add up to exactly 1). */
    private static final double SPLIT_TOLERANCE = 0.001;

    public RateSettings {
        split = Map.copyOf(split);
    }

    public double rateOf(String exchange) {
        return tickersPerSecond * split.getOrDefault(exchange, 0.0);
    }

    /**
     * Validated settings for the given published exchanges.
     *
     * @throws InvalidRateException listing every problem (negative or absurd rate, unknown exchange,
     *                              negative fraction, fractions not adding up to 1)
     */
    public static RateSettings of(double tickersPerSecond, Map<String, Double> split, Collection<String> exchanges) {
        List<String> problems = new ArrayList<>();
        if (!(tickersPerSecond >= 0)) {
            problems.add("tickersPerSecond must be zero or positive, was " + tickersPerSecond);
        } else if (tickersPerSecond > MAX_TICKERS_PER_SECOND) {
            problems.add("tickersPerSecond must be at most " + (long) MAX_TICKERS_PER_SECOND + ", was " + tickersPerSecond);
        }
        Map<String, Double> complete = new LinkedHashMap<>();
        exchanges.forEach(e -> complete.put(e, 0.0));
        double sum = 0;
        if (split.isEmpty()) {
            problems.add("split names no exchange; give a fraction for each of " + exchanges);
        }
        for (Map.Entry<String, Double> entry : split.entrySet()) {
            Double fraction = entry.getValue();
            if (!exchanges.contains(entry.getKey())) {
                problems.add("split names exchange '" + entry.getKey() + "', which this instance does not publish; it publishes "
                        + exchanges);
            } else if (fraction == null || !(fraction >= 0) || fraction.isInfinite()) {
                problems.add("split fraction of " + entry.getKey() + " must be zero or positive, was " + fraction);
            } else {
                complete.put(entry.getKey(), fraction);
                sum += fraction;
            }
        }
        if (problems.isEmpty() && Math.abs(sum - 1) > SPLIT_TOLERANCE) {
            problems.add("split fractions must add up to 1, they add up to " + sum);
        }
        if (!problems.isEmpty()) {
            throw new InvalidRateException(problems);
        }
        double total = sum;
        complete.replaceAll((e, f) -> f / total);
        return new RateSettings(tickersPerSecond, complete);
    }

    /**
     * Parses a split written as {@code NYSE:0.4,NASDAQ:0.4,ASX:0.2} (also {@code =} instead of {@code :}).
     * Only the syntax is checked here; {@link #of} checks the values.
     */
    public static Map<String, Double> parseSplit(String text) {
        Map<String, Double> split = new LinkedHashMap<>();
        List<String> problems = new ArrayList<>();
        for (String part : text.split(",")) {
            if (part.isBlank()) {
                continue;
            }
            String[] kv = part.trim().split("\\s*[:=]\\s*", -1);
            if (kv.length != 2 || kv[0].isEmpty()) {
                problems.add("split entry '" + part.trim() + "' is not EXCHANGE:FRACTION");
                continue;
            }
            try {
                split.put(kv[0], Double.parseDouble(kv[1]));
            } catch (NumberFormatException e) {
                problems.add("split fraction of " + kv[0] + " is not a number: '" + kv[1] + "'");
            }
        }
        if (!problems.isEmpty()) {
            throw new InvalidRateException(problems);
        }
        return split;
    }

    /**
     * A split proportional to the number of symbols of each exchange, so that every symbol ticks
     * equally often (and same-sector stocks on different exchanges step in step).
     */
    public static Map<String, Double> proportional(Map<String, Integer> symbolsPerExchange) {
        double total = symbolsPerExchange.values().stream().mapToInt(Integer::intValue).sum();
        Map<String, Double> split = new LinkedHashMap<>();
        symbolsPerExchange.forEach((e, n) -> split.put(e, total == 0 ? 0 : n / total));
        return split;
    }
}
