package io.geobroker.broker.matching;

import io.geobroker.broker.order.Order;
import io.geobroker.domain.OrderStatus;
import io.geobroker.domain.OrderType;
import io.geobroker.domain.Side;
import io.geobroker.domain.TimeInForce;

import java.time.Instant;
import java.util.UUID;

/**
 * The engine's mutable copy of one order. Only the engine thread touches it. {@code bookLimit} is
 * the price the order may trade at once it is a limit order: its limit price, the protection price
 * of a BUY STOP, or 0 for a SELL STOP (any price).
 */
final class OrderState {

    final UUID id;
    final String customerId;
    final String clientOrderId;
    final String symbol;
    final String exchange;
    final String currency;
    final Side side;
    final OrderType type;
    final TimeInForce timeInForce;
    final boolean allOrNone;
    final long quantity;
    final Long limitPrice;
    final Long stopPrice;
    final long bookLimit;
    final Instant expiresAt;
    final Instant placedAt;
    final String homeRegion;
    final String placedRegion;
    /** Time priority within the symbol: acceptance order at the home broker. */
    final long sequence;

    boolean triggered;
    OrderStatus status;
    long filledQuantity;
    long filledNotional;
    long reserved;
    String rejectReason;
    Instant updatedAt;
    /** Whether the full orders row was written (later writes update only the columns that change). */
    boolean rowWritten;
    /**
     * Whether the order's orders_by_customer entry was written by the region it was placed in (with
     * its PENDING row), so this engine does not write it again.
     */
    boolean listedWherePlaced;
    /** The symbol_orders generation holding this order's row, or -1 when it has none. */
    int persistedGeneration = -1;

    OrderState(UUID id, String customerId, String clientOrderId, String symbol, String exchange, String currency,
               Side side, OrderType type, TimeInForce timeInForce, boolean allOrNone, long quantity, Long limitPrice,
               Long stopPrice, long bookLimit, Instant expiresAt, Instant placedAt, String homeRegion,
               String placedRegion, long sequence) {
        this.id = id;
        this.customerId = customerId;
        this.clientOrderId = clientOrderId;
        this.symbol = symbol;
        this.exchange = exchange;
        this.currency = currency;
        this.side = side;
        this.type = type;
        this.timeInForce = timeInForce;
        this.allOrNone = allOrNone;
        this.quantity = quantity;
        this.limitPrice = limitPrice;
        this.stopPrice = stopPrice;
        this.bookLimit = bookLimit;
        this.expiresAt = expiresAt;
        this.placedAt = placedAt;
        this.homeRegion = homeRegion;
        this.placedRegion = placedRegion;
        this.sequence = sequence;
        this.updatedAt = placedAt;
    }

    long remaining() {
        return quantity - filledQuantity;
    }

    boolean isLive() {
        return !status.isTerminal();
    }

    /** Cash (buys) or shares (sells) that one filled share releases from the reservation. */
    long reservationPerShare() {
        return side == Side.BUY ? bookLimit : 1;
    }

    Order snapshot() {
        return new Order(id, customerId, clientOrderId, symbol, exchange, currency, side, type, timeInForce, allOrNone,
                quantity, limitPrice, stopPrice, triggered, status, filledQuantity, filledNotional, reserved,
                rejectReason, expiresAt, placedAt, updatedAt, homeRegion, placedRegion);
    }

    static OrderState restore(Order o, long bookLimit, long sequence) {
        OrderState s = new OrderState(o.orderId(), o.customerId(), o.clientOrderId(), o.symbol(), o.exchange(),
                o.currency(), o.side(), o.type(), o.timeInForce(), o.allOrNone(), o.quantity(), o.limitPrice(),
                o.stopPrice(), bookLimit, o.expiresAt(), o.placedAt(), o.homeRegion(), o.placedRegion(), sequence);
        s.triggered = o.triggered();
        s.status = o.status();
        s.filledQuantity = o.filledQuantity();
        s.filledNotional = o.filledNotional();
        s.reserved = o.reserved();
        s.rejectReason = o.rejectReason();
        s.updatedAt = o.updatedAt();
        s.rowWritten = true;
        return s;
    }
}
