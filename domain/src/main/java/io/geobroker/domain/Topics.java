package io.geobroker.domain;

/** Kafka topic names, defined once. Each region runs its own Kafka cluster with these topics. */
public final class Topics {

    /** Fill events of the region's broker, keyed by order id. */
    public static final String FILLS = "fills";

    /** Ticker messages that could not be decoded or validated, with the reason in a header. */
    public static final String TICKERS_DEAD_LETTER = "tickers.dead-letter";

    /** The header of a dead-letter record that says why it was rejected. */
    public static final String REASON_HEADER = "geobroker-reject-reason";

    private Topics() {
    }

    /** The ticker topic of one exchange (e.g. {@code tickers.NYSE}), keyed by symbol. */
    public static String tickers(String exchange) {
        return "tickers." + exchange;
    }
}
