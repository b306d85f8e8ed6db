package io.geobroker.domain;

/** Which side of a trade an order is on. */
public enum Side {
    BUY,
    SELL;

    public Side opposite() {
        return this == BUY ? SELL : BUY;
    }
}
