package io.geobroker.matching;

/**
 * Receives what one {@link OrderBook#onTicker ticker} did, synchronously and in order. One sink is
 * meant to be reused across tickers so the matching path allocates nothing. A sink must not call
 * back into the book that is calling it (the book rejects that with an
 * {@link IllegalStateException}); collect the events and act on them after
 * {@code onTicker} returns.
 */
public interface FillSink {

    /**
     * An order was filled, fully or partly, at the ticker price.
     *
     * @param orderId   the order's id
     * @param quantity  shares filled by this ticker, &gt; 0
     * @param price     the ticker price (minor units)
     * @param remaining shares still resting after this fill; 0 means the order left the book
     */
    void onFill(long orderId, long quantity, long price, long remaining);

    /**
     * A STOP or STOP_LIMIT order's stop price was reached: a STOP is now a market order, a
     * STOP_LIMIT a limit order. Reported before any fill of the same order on the same ticker.
     */
    void onTriggered(long orderId);
}
