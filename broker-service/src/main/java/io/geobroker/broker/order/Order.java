package io.geobroker.broker.order;

import io.geobroker.domain.OrderStatus;
import io.geobroker.domain.OrderType;
import io.geobroker.domain.Side;
import io.geobroker.domain.TimeInForce;

import java.time.Instant;
import java.util.UUID;

/**
 * An order as stored in the {@code orders} table: an immutable snapshot. Prices and
 * {@code filledNotional} are minor units of {@code currency}; {@code reserved} is cash (buys) or
 * shares (sells) still held for the unfilled rest.
 */
public record Order(UUID orderId, String customerId, String clientOrderId, String symbol, String exchange,
                    String currency, Side side, OrderType type, TimeInForce timeInForce, boolean allOrNone,
                    long quantity, Long limitPrice, Long stopPrice, boolean triggered, OrderStatus status,
                    long filledQuantity, long filledNotional, long reserved, String rejectReason,
                    Instant expiresAt, Instant placedAt, Instant updatedAt, String homeRegion, String placedRegion) {

    /** Whether a repeated placement asks for exactly this order (idempotency on the client order id). */
    public boolean sameRequestAs(NewOrder request) {
        return symbol.equals(request.symbol().symbol())
                && side == request.side()
                && type == request.type()
                && timeInForce == request.timeInForce()
                && allOrNone == request.allOrNone()
                && quantity == request.quantity()
                && java.util.Objects.equals(limitPrice, request.limitPrice())
                && java.util.Objects.equals(stopPrice, request.stopPrice());
    }
}
