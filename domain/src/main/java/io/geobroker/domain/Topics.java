package io.geobroker.domain;

/**
 * Kafka topic names, defined once. Each region runs its own Kafka cluster with these topics. An
 * optional prefix lets several independent data sets share one Kafka cluster (each integration
 * test class uses its own); a deployment uses {@link #standard()}.
 */
public record Topics(String prefix) {

    /** The header of a dead-letter record that says why it was rejected. */
    public static final String REASON_HEADER = "geobroker-reject-reason";

    public Topics {
        if (prefix == null || !prefix.matches("[A-Za-z0-9._-]*")) {
            throw new IllegalArgumentException("topic prefix may hold only letters, digits, '.', '_' and '-'");
        }
    }

    public static Topics standard() {
        return new Topics("");
    }

    /** The ticker topic of one exchange (e.g. {@code tickers.NYSE}), keyed by symbol. */
    public String tickers(String exchange) {
        return prefix + "tickers." + exchange;
    }

    /** Fill events of the region's broker, keyed by order id. */
    public String fills() {
        return prefix + "fills";
    }

    /**
     * Order events of the region's broker ({@link OrderEvent}: an order cancelled or expired), keyed
     * by order id, published like fills once the change is durable.
     */
    public String orderEvents() {
        return prefix + "order-events";
    }

    /** Ticker messages that could not be decoded or validated, with the reason in {@link #REASON_HEADER}. */
    public String tickersDeadLetter() {
        return prefix + "tickers.dead-letter";
    }
}
