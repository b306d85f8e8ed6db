package io.geobroker.broker.matching;

import io.geobroker.broker.order.Order;
import io.geobroker.domain.Fill;

import java.util.List;

/** Results of engine commands, handed back to the REST layer once durable. */
public final class Outcomes {

    private Outcomes() {
    }

    /** How a placement ended. */
    public enum PlaceResult {
        /** A new order was accepted (it may already be filled: market orders). */
        CREATED,
        /** The same request was placed before; {@code order} is that order. */
        REPEATED,
        /** The client order id was used before with different parameters. */
        CONFLICT,
        /** The order was recorded as rejected; {@code order.rejectReason()} says why. */
        REJECTED
    }

    public record Placement(PlaceResult result, Order order, List<Fill> fills) {
    }

    /** How a cancel ended. */
    public enum CancelResult {
        CANCELLED,
        /** The order had already reached a terminal state ({@code order} shows which). */
        ALREADY_TERMINAL,
        /** No live order with that id belongs to the customer here. */
        NOT_FOUND
    }

    public record Cancellation(CancelResult result, Order order) {
    }

    /** A deposit, withdrawal or share transfer: applied, or refused with a reason. */
    public record Movement(boolean applied, String reason, long available, long reserved) {
    }

    /** Reject reasons, also the tag of the rejected-orders counter. */
    public static final String INSUFFICIENT_CASH = "insufficient_cash";
    public static final String INSUFFICIENT_SHARES = "insufficient_shares";
    public static final String NO_QUOTE = "no_quote";
    public static final String INSUFFICIENT_VOLUME = "insufficient_volume";
    public static final String NOT_ROUTABLE = "not_routable";
}
