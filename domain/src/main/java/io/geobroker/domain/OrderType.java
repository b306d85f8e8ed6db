package io.geobroker.domain;

/**
 * Order types of SPEC §2. A STOP becomes a market order once triggered; a STOP_LIMIT becomes a
 * limit order once triggered.
 */
public enum OrderType {
    MARKET(false, false),
    LIMIT(true, false),
    STOP(false, true),
    STOP_LIMIT(true, true);

    private final boolean hasLimitPrice;
    private final boolean hasStopPrice;

    OrderType(boolean hasLimitPrice, boolean hasStopPrice) {
        this.hasLimitPrice = hasLimitPrice;
        this.hasStopPrice = hasStopPrice;
    }

    /** Whether an order of this type must carry a limit price (and any other type must not). */
    public boolean hasLimitPrice() {
        return hasLimitPrice;
    }

    /** Whether an order of this type must carry a stop price (and any other type must not). */
    public boolean hasStopPrice() {
        return hasStopPrice;
    }
}
