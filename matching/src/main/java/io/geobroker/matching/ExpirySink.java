package io.geobroker.matching;

/** Receives the orders removed by {@link OrderBook#expireUpTo}. */
@FunctionalInterface
public interface ExpirySink {

    /**
     * An order reached its expiry time and left the book.
     *
     * @param orderId   the order's id
     * @param remaining the shares that were still unfilled (to release their reservation)
     */
    void onExpired(long orderId, long remaining);
}
