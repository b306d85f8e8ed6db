package io.geobroker.broker.order;

import io.geobroker.domain.Fill;
import io.geobroker.domain.OrderStatus;
import io.geobroker.domain.OrderType;
import io.geobroker.domain.Side;
import io.geobroker.domain.TimeInForce;

import java.time.Instant;
import java.util.List;
import java.util.UUID;

/**
 * An order as the API shows it. Prices and amounts are integer minor units; {@code averagePrice}
 * is the filled notional divided by the filled quantity, rounded half up to a minor unit.
 * {@code fills} is present only in the answer to a placement that filled at once (market orders).
 */
public record OrderResponse(UUID orderId, String clientOrderId, String symbol, String exchange, Side side,
                            OrderType type, TimeInForce timeInForce, boolean allOrNone, long quantity, Long limitPrice,
                            Long stopPrice, OrderStatus status, long filledQuantity, Long averagePrice,
                            String rejectReason, Instant placedAt, Instant updatedAt, String homeRegion,
                            String placedRegion, List<FillView> fills) {

    /** One execution of the order. */
    public record FillView(String fillId, long price, long quantity, long tickerSequence) {
    }

    public static OrderResponse of(Order o) {
        return of(o, null);
    }

    public static OrderResponse of(Order o, List<Fill> fills) {
        Long average = o.filledQuantity() == 0 ? null
                : (2 * o.filledNotional() + o.filledQuantity()) / (2 * o.filledQuantity());
        List<FillView> views = fills == null || fills.isEmpty() ? null
                : fills.stream().map(f -> new FillView(f.fillId(), f.price(), f.quantity(), f.tickerSequence())).toList();
        return new OrderResponse(o.orderId(), o.clientOrderId(), o.symbol(), o.exchange(), o.side(), o.type(),
                o.timeInForce(), o.allOrNone(), o.quantity(), o.limitPrice(), o.stopPrice(), o.status(),
                o.filledQuantity(), average, o.rejectReason(), o.placedAt(), o.updatedAt(), o.homeRegion(),
                o.placedRegion(), views);
    }
}
