package io.geobroker.domain;

/**
 * An order that ended without filling in full, as published on the home region's order events
 * topic after the change is durable: cancelled (by any means) or expired (a DAY order at its
 * exchange's close). {@code eventId} is derived from the order id and the status, so an order has at
 * most one event of each kind and a consumer (a FIX session's ExecID) can drop a repeat.
 * {@code filledQuantity} and {@code filledNotional} (minor units) are the order's totals when it
 * ended; {@code eventTimeMicros} is when the home region's engine ended it.
 */
public record OrderEvent(String eventId, OrderStatus status, String orderId, String customerId, String clientOrderId,
                         String symbol, String exchange, Side side, OrderType orderType, long quantity,
                         long filledQuantity, long filledNotional, String currency, long eventTimeMicros,
                         String region) {

    /** Whether {@code status} is a kind of event this topic carries. */
    public static boolean published(OrderStatus status) {
        return status == OrderStatus.CANCELLED || status == OrderStatus.EXPIRED;
    }

    /** The quantity left unfilled when the order ended. */
    public long leavesQuantity() {
        return quantity - filledQuantity;
    }
}
