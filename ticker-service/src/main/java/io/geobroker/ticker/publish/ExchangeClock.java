package io.geobroker.ticker.publish;

import java.time.Instant;

/** The exchange timestamp of a ticker: the wall clock in microseconds since the epoch. */
public final class ExchangeClock {

    private ExchangeClock() {
    }

    public static long nowMicros() {
        Instant now = Instant.now();
        return now.getEpochSecond() * 1_000_000L + now.getNano() / 1_000;
    }
}
