package io.geobroker.domain;

/**
 * One execution of (part of) an order, as published on the region's fills topic. The
 * {@code fillId} is derived from the order and the triggering ticker, so a fill that is published
 * again after a restart carries the same id and consumers can drop the duplicate.
 * {@code tickerExchangeTimeMicros} is copied from the triggering ticker (market orders: the ticker
 * they executed against); {@code durableTimeMicros} is when the fill was recorded in Cassandra.
 */
public record Fill(String fillId, String orderId, String customerId, String symbol, String exchange,
                   Side side, OrderType orderType, long price, long quantity, String currency,
                   long tickerSequence, long tickerExchangeTimeMicros, long durableTimeMicros, String region) {
}
