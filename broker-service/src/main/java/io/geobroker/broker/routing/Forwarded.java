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
     * {@code deadlineEpochMillis} is when the home must have taken the order: a request that reaches
     * the home (or its engine) later — e.g. retransmitted when a cut link heals — is not executed.
     * The placing broker awaits the answer for a grace beyond it (the commit of an order taken just
     * before, and the way back), and only then answers 503, so a customer told 503 was not traded
     * behind their back unless that commit or the way back took longer than the grace.
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
     * An order just stored PENDING in {@code placedRegion}'s DC (its rows written at
     * {@code writeMicros}) and the key of its inbox row, sent to the home region so its engine takes
     * the order at once: no wait for Cassandra to replicate the row, no read of it. Only a shortcut:
     * one that is lost costs the inbox poll interval, nothing more.
     */
    public record InboxRow(String homeRegion, long minute, UUID placedAt, UUID orderId, String placedRegion,
                           Order order, long writeMicros) {
    }
}
