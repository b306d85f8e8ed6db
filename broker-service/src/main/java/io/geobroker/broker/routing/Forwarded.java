package io.geobroker.broker.routing;

import java.util.UUID;

import io.geobroker.broker.order.Order;
import io.geobroker.broker.order.PlaceOrderRequest;

/** Bodies of the broker-to-broker calls ({@code /internal/v1/**}). */
public final class Forwarded {

    private Forwarded() {
    }

    /**
     * A customer's market order placed in {@code placedRegion}, for the home region to execute.
     * {@code deadlineEpochMillis} is when the placing broker stops waiting and answers 503: a request
     * that reaches the home (or its engine) later — e.g. retransmitted when a cut link heals — is
     * not executed, so a customer told 503 was not traded behind their back.
     */
    public record Placement(String customerId, String placedRegion, long deadlineEpochMillis, PlaceOrderRequest order) {
    }

    /**
     * A customer's cancel placed in another region. {@code pending} is the order as that region
     * stores it when it is still PENDING there (the home region may not have its row yet), with the
     * write time of that row; null otherwise.
     */
    public record Cancel(String customerId, Order pending, long pendingWriteMicros) {
    }

    /**
     * The key of the inbox row of an order just stored PENDING in {@code placedRegion}'s DC, sent to
     * the home region so it reads the order at once instead of at its next inbox poll. Only a hint:
     * one that is lost or arrives before the order row costs the poll interval, nothing more.
     */
    public record InboxRow(String homeRegion, long minute, UUID placedAt, UUID orderId, String placedRegion) {
    }
}
