package io.geobroker.loadgen.chaos;

import java.util.Set;

/**
 * One order as a region's REST API shows it ({@code GET /api/v1/orders}): the fields the
 * invariants compare, quantities in shares, {@code placedAtMillis} epoch milliseconds.
 */
public record OrderView(String orderId, String customerId, String symbol, String side, String type, String status,
                        long quantity, long filledQuantity, long placedAtMillis, String homeRegion, Set<String> fillIds) {

    public OrderView {
        fillIds = Set.copyOf(fillIds);
    }

    /** Status and filled quantity: what must be equal in every region. */
    public String state() {
        return status + " " + filledQuantity + "/" + quantity;
    }
}
