package io.geobroker.loadgen.driver;

import java.time.Duration;

/**
 * What one run offers: constant rates (already multiplied by the scale), the order mix in
 * percent, how many customers and symbols, and how long. The defaults are the prototype's
 * workload: 300 new orders/s and 600 tickers/s across both regions, a mix of limit, stop and market
 * orders chosen so that about 200 fills/s happen.
 */
public record Workload(double ordersPerSecond, double tickersPerSecond, int limitPercent, int stopPercent,
                       int marketPercent, int marketablePercent, int customersPerRegion, int symbolsPerExchange,
                       Duration warmup, Duration ramp, Duration duration, long seed, int maxInFlight) {

    /** Where the warm-up's ramp starts, as a fraction of the full rates. */
    public static final double RAMP_FROM = 0.1;

    public static final double DEFAULT_ORDERS_PER_SECOND = 300;
    public static final double DEFAULT_TICKERS_PER_SECOND = 600;

    public Workload {
        if (!(ordersPerSecond > 0) || !(tickersPerSecond > 0)) {
            throw new IllegalArgumentException("order and ticker rates must be positive");
        }
        if (limitPercent < 0 || stopPercent < 0 || marketPercent < 0 || limitPercent + stopPercent + marketPercent != 100) {
            throw new IllegalArgumentException("the order mix (limit, stop, market %) must add up to 100");
        }
        if (marketablePercent < 0 || marketablePercent > 100) {
            throw new IllegalArgumentException("marketable % must be 0..100");
        }
        if (customersPerRegion < 1 || symbolsPerExchange < 1 || maxInFlight < 1) {
            throw new IllegalArgumentException("customers per region, symbols per exchange and max in flight must be at least 1");
        }
        if (duration.isNegative() || duration.isZero() || warmup.isNegative()) {
            throw new IllegalArgumentException("duration must be positive and warm-up not negative");
        }
        if (ramp.isNegative() || ramp.compareTo(warmup) > 0) {
            throw new IllegalArgumentException("the ramp must not be negative nor longer than the warm-up");
        }
    }

    /** The same workload with every rate multiplied by {@code factor}. */
    public Workload scaled(double factor) {
        return new Workload(ordersPerSecond * factor, tickersPerSecond * factor, limitPercent, stopPercent,
                marketPercent, marketablePercent, customersPerRegion, symbolsPerExchange, warmup, ramp, duration, seed,
                maxInFlight);
    }

    /** The same workload, warm-up and ramp measured for {@code newDuration} (a sweep's first step). */
    public Workload withDuration(Duration newDuration) {
        return new Workload(ordersPerSecond, tickersPerSecond, limitPercent, stopPercent, marketPercent,
                marketablePercent, customersPerRegion, symbolsPerExchange, warmup, ramp, newDuration, seed, maxInFlight);
    }

    /** The same workload with other durations and no ramp (each later step of a sweep starts at its full rates). */
    public Workload withDurations(Duration newWarmup, Duration newDuration) {
        return new Workload(ordersPerSecond, tickersPerSecond, limitPercent, stopPercent, marketPercent,
                marketablePercent, customersPerRegion, symbolsPerExchange, newWarmup, Duration.ZERO, newDuration, seed,
                maxInFlight);
    }
}
