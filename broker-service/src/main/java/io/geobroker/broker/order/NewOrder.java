package io.geobroker.broker.order;

import io.geobroker.domain.OrderType;
import io.geobroker.domain.Side;
import io.geobroker.domain.SymbolInfo;
import io.geobroker.domain.TimeInForce;

import java.util.UUID;

/** A validated placement request: every field is known to be consistent with its order type. */
public record NewOrder(UUID orderId, String customerId, String clientOrderId, SymbolInfo symbol, String currency,
                       Side side, OrderType type, TimeInForce timeInForce, boolean allOrNone, long quantity,
                       Long limitPrice, Long stopPrice, String homeRegion, String placedRegion) {
}
