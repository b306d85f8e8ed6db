package io.geobroker.ticker.rate;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.List;
import java.util.Map;

/**
 * The current rate settings, changeable while running; publishing loops read them on every
 * iteration, so a change takes effect within one pacing interval. Thread-safe.
 */
public final class RateControl {

    private static final Logger LOG = LoggerFactory.getLogger(RateControl.class);

    private final List<String> exchanges;
    private volatile RateSettings current;

    public RateControl(List<String> exchanges, RateSettings initial) {
        this.exchanges = List.copyOf(exchanges);
        this.current = initial;
    }

    /** The exchanges this instance publishes, in a stable order. */
    public List<String> exchanges() {
        return exchanges;
    }

    public RateSettings current() {
        return current;
    }

    /**
     * Applies a new total rate and, if given, a new split (otherwise the current split is kept).
     *
     * @throws InvalidRateException if the rate or split is invalid; the current settings then stay
     */
    public synchronized RateSettings update(double tickersPerSecond, Map<String, Double> split) {
        RateSettings next = RateSettings.of(tickersPerSecond, split == null ? current.split() : split, exchanges);
        current = next;
        LOG.info("Rate set to {} tickers/s, split {}", next.tickersPerSecond(), next.split());
        return next;
    }
}
