package io.geobroker.matching;

import io.geobroker.domain.OrderType;
import io.geobroker.domain.Side;

import java.util.Objects;

/**
 * An order as the matching index needs it: no customer, no money, only what decides whether and
 * when it fills. Prices are minor units; a price that the type does not use must be 0.
 *
 * <p>A {@link OrderType#MARKET MARKET} order in the book is one waiting for the next ticker, which
 * it fills against before any limit order. The broker uses that type to put back a STOP order that
 * had already triggered (and LIMIT for a triggered STOP_LIMIT) when it rebuilds the index after a
 * restart.
 *
 * @param id              the broker's internal id for the order, unique within the book
 * @param side            BUY or SELL
 * @param type            MARKET, LIMIT, STOP or STOP_LIMIT
 * @param limitPrice      the limit (LIMIT, STOP_LIMIT), otherwise 0
 * @param stopPrice       the stop (STOP, STOP_LIMIT), otherwise 0
 * @param quantity        shares still to fill, &gt; 0
 * @param allOrNone       whether the order may only fill completely, in one fill
 * @param sequence        time priority: lower fills first among orders of equal price priority
 * @param expiresAtMicros when the order expires (a DAY order: its exchange's close), in epoch
 *                        microseconds; {@link #GOOD_TILL_CANCELLED} for a GTC order
 */
public record RestingOrder(long id, Side side, OrderType type, long limitPrice, long stopPrice,
                           long quantity, boolean allOrNone, long sequence, long expiresAtMicros) {

    /** The expiry of an order that never expires. */
    public static final long GOOD_TILL_CANCELLED = Long.MAX_VALUE;

    public RestingOrder {
        Objects.requireNonNull(side, "side");
        Objects.requireNonNull(type, "type");
        if (quantity <= 0) {
            throw new IllegalArgumentException("quantity must be positive, was " + quantity);
        }
        if (expiresAtMicros <= 0) {
            throw new IllegalArgumentException("expiresAtMicros must be positive, was " + expiresAtMicros);
        }
        checkPrice("limitPrice", limitPrice, type.hasLimitPrice(), type);
        checkPrice("stopPrice", stopPrice, type.hasStopPrice(), type);
    }

    private static void checkPrice(String name, long price, boolean required, OrderType type) {
        if (required && price <= 0) {
            throw new IllegalArgumentException(name + " must be positive for " + type + ", was " + price);
        }
        if (!required && price != 0) {
            throw new IllegalArgumentException(name + " must be 0 for " + type + ", was " + price);
        }
    }

    /** A good-till-cancelled limit order. */
    public static RestingOrder limit(long id, Side side, long limitPrice, long quantity, long sequence) {
        return new RestingOrder(id, side, OrderType.LIMIT, limitPrice, 0, quantity, false, sequence,
                GOOD_TILL_CANCELLED);
    }

    /** A good-till-cancelled stop order. */
    public static RestingOrder stop(long id, Side side, long stopPrice, long quantity, long sequence) {
        return new RestingOrder(id, side, OrderType.STOP, 0, stopPrice, quantity, false, sequence,
                GOOD_TILL_CANCELLED);
    }

    /** A good-till-cancelled stop-limit order. */
    public static RestingOrder stopLimit(long id, Side side, long stopPrice, long limitPrice, long quantity,
                                         long sequence) {
        return new RestingOrder(id, side, OrderType.STOP_LIMIT, limitPrice, stopPrice, quantity, false,
                sequence, GOOD_TILL_CANCELLED);
    }

    /** This order as all-or-none. */
    public RestingOrder allOrNoneOrder() {
        return new RestingOrder(id, side, type, limitPrice, stopPrice, quantity, true, sequence, expiresAtMicros);
    }

    /** This order expiring at {@code micros} (a DAY order). */
    public RestingOrder expiringAt(long micros) {
        return new RestingOrder(id, side, type, limitPrice, stopPrice, quantity, allOrNone, sequence, micros);
    }
}
