package io.geobroker.broker.order;

import io.geobroker.domain.OrderStatus;

import java.nio.charset.StandardCharsets;
import java.util.UUID;

/**
 * Order ids are name-based UUIDs of (customer id, client order id), so every region maps a repeated
 * placement to the same order row; fill ids are name-based UUIDs of (order id, ticker sequence), so
 * a fill published again after a restart carries the same id; order event ids are name-based UUIDs
 * of (order id, status), so an order has one cancel and one expiry id whoever reports it (a FIX
 * cancel's answer and the order event carry the same ExecID).
 */
public final class OrderIds {

    private OrderIds() {
    }

    public static UUID orderId(String customerId, String clientOrderId) {
        return UUID.nameUUIDFromBytes(("order\u0000" + customerId + "\u0000" + clientOrderId).getBytes(StandardCharsets.UTF_8));
    }

    /** The id of the event that ended the order with {@code status} (CANCELLED or EXPIRED). */
    public static UUID eventId(UUID orderId, OrderStatus status) {
        return UUID.nameUUIDFromBytes(("order-event\u0000" + orderId + "\u0000" + status.name()).getBytes(StandardCharsets.UTF_8));
    }

    public static UUID fillId(UUID orderId, long tickerSequence) {
        return UUID.nameUUIDFromBytes(("fill\u0000" + orderId + "\u0000" + tickerSequence).getBytes(StandardCharsets.UTF_8));
    }
}
