package io.geobroker.domain;

/** Life cycle of an order. Terminal states never change again. */
public enum OrderStatus {
    /** Stored in the region where it was placed; the home region has not accepted it yet. */
    PENDING,
    /** Accepted by the home region and resting (stop orders: waiting for their trigger). */
    OPEN,
    PARTIALLY_FILLED,
    FILLED,
    CANCELLED,
    EXPIRED,
    REJECTED;

    public boolean isTerminal() {
        return this == FILLED || this == CANCELLED || this == EXPIRED || this == REJECTED;
    }
}
