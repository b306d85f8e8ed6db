package io.geobroker.broker.order;

import java.nio.charset.StandardCharsets;
import java.util.UUID;

/**
 * Order ids are name-based UUIDs of (customer id, client order id), so every region maps a repeated
 * placement to the same order row; fill ids are name-based UUIDs of (order id, ticker sequence), so
 * a fill published again after a restart carries the same id.
 */
public final class OrderIds {

    private OrderIds() {
    }

    public static UUID orderId(String customerId, String clientOrderId) {
        return UUID.nameUUIDFromBytes(("order\u0000" + customerId + "\u0000" + clientOrderId).getBytes(StandardCharsets.UTF_8));
    }

    public static UUID fillId(UUID orderId, long tickerSequence) {
        return UUID.nameUUIDFromBytes(("fill\u0000" + orderId + "\u0000" + tickerSequence).getBytes(StandardCharsets.UTF_8));
    }
}
