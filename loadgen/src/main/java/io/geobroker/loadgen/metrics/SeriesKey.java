package io.geobroker.loadgen.metrics;

/**
 * Names one latency series of a run: what is measured ({@link Kind}), in which region and for
 * which order type ({@code ALL} when not broken down).
 */
public record SeriesKey(Kind kind, String region, String orderType) implements Comparable<SeriesKey> {

    /** What a series measures. */
    public enum Kind {
        /**
         * Exchange time of the ticker that filled a waiting order (limit, stop) to the fill being
         * durable in Cassandra (the fill's own timestamp).
         */
        TICKER_TO_FILL("ticker-to-fill"),
        /** The same tickers' exchange time to the load generator reading the fill from the fills topic. */
        TICKER_TO_FILL_OBSERVED("ticker-to-fill-observed"),
        /** Intended send time of an order to its HTTP response (orders placed in their home region). */
        PLACEMENT("order-placement"),
        /** Intended send time to response for market orders placed outside the symbol's home region. */
        CROSS_REGION_MARKET("cross-region-market"),
        /**
         * Exchange time of the quote a market order executed at to its fill being durable. A market
         * order fills when it is placed, at the latest price: this is mostly how long before the
         * order that price was quoted, which the ticker rate decides, so it is kept apart from
         * ticker-to-fill. The market order's own latency is its placement series.
         */
        MARKET_QUOTE_AGE("market-fill-quote-age");

        private final String label;

        Kind(String label) {
            this.label = label;
        }

        public String label() {
            return label;
        }
    }

    public String name() {
        return kind.label() + "/" + region + "/" + orderType;
    }

    @Override
    public int compareTo(SeriesKey o) {
        return name().compareTo(o.name());
    }
}
