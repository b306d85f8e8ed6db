package io.geobroker.broker.matching;

/**
 * Write timestamps for {@code USING TIMESTAMP}: microseconds since the epoch, strictly increasing
 * within the process, so a later group always wins over an earlier one (a re-inserted row over its
 * own older delete included) even if the wall clock steps back.
 */
final class WriteClock {

    private long last;

    /**
     * Makes every later timestamp greater than {@code micros}: a row another region wrote (a
     * PENDING order) must lose to what this engine writes about it, even if that region's clock is ahead.
     */
    void advancePast(long micros) {
        last = Math.max(last, micros);
    }

    long next() {
        long now = System.currentTimeMillis() * 1000;
        last = Math.max(now, last + 1);
        return last;
    }
}
