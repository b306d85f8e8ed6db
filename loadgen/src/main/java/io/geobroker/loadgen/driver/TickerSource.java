package io.geobroker.loadgen.driver;

import java.util.Locale;

/** Where a run's tickers come from ({@code --tickers}). */
public enum TickerSource {

    /**
     * The ticker service: the demo's own (whose rate the load generator sets, following the ramp) or
     * the deployment's. The load generator learns the quotes by consuming the exchanges' ticker topics.
     */
    SERVICE,

    /**
     * The load generator publishes the tickers itself on its own constant-rate schedule; kept to compare
     * with the service. Against a running deployment, its ticker service must then be paused, or two
     * sources would tick the same symbols with different sequences.
     */
    LOADGEN;

    /** The option's spelling: {@code service} or {@code loadgen}. */
    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }

    public static TickerSource parse(String value) {
        for (TickerSource s : values()) {
            if (s.label().equalsIgnoreCase(value.trim())) {
                return s;
            }
        }
        throw new IllegalArgumentException("'" + value + "' is not a ticker source: service or loadgen");
    }
}
