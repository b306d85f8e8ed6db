package io.geobroker.domain;

/**
 * One execution of (part of) an order, as published on the region's fills topic. The
 * {@code fillId} is derived from the order and the triggering ticker, so a fill that is published
 * again after a restart carries the same id and consumers can drop the duplicate.
 * {@code clientOrderId}, {@code orderQuantity} and the order's filled quantity and notional once this
 * fill is counted let a reader report the fill without reading the order; fills published from
 * rows written before they were recorded carry nulls there.
 * {@code tickerExchangeTimeMicros} is copied from the triggering ticker (market orders: the ticker
 * they executed against); {@code durableTimeMicros} is when the fill was recorded in Cassandra.
 */
public record Fill(String fillId, String orderId, String customerId, String symbol, String exchange,
                   Side side, OrderType orderType, long price, long quantity, String currency,
                   long tickerSequence, long tickerExchangeTimeMicros, long durableTimeMicros, String region,
                   String clientOrderId, Long orderQuantity, Long orderFilledQuantity, Long orderFilledNotional) {

    /** A fill without the order's totals (published from a row written before they were recorded). */
    public Fill(String fillId, String orderId, String customerId, String symbol, String exchange, Side side,
                OrderType orderType, long price, long quantity, String currency, long tickerSequence,
                long tickerExchangeTimeMicros, long durableTimeMicros, String region) {
        this(fillId, orderId, customerId, symbol, exchange, side, orderType, price, quantity, currency, tickerSequence,
                tickerExchangeTimeMicros, durableTimeMicros, region, null, null, null, null);
    }

    /** Whether the order's client order id, quantity and filled totals after this fill are known. */
    public boolean hasOrderTotals() {
        return clientOrderId != null && orderQuantity != null && orderFilledQuantity != null && orderFilledNotional != null;
    }
}
