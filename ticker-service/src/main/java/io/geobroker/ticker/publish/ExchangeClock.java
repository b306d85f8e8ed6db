package io.geobroker.ticker.publish;

import io.geobroker.domain.WallClock;

/** The exchange timestamp of a ticker: the wall clock in microseconds since the epoch. */
public final class ExchangeClock {

    private ExchangeClock() {
    }

    public static long nowMicros() {
        return WallClock.nowMicros();
    }
}
