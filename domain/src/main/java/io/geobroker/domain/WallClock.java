package io.geobroker.domain;

import java.time.Instant;

/**
 * The wall clock in microseconds since the epoch: the unit of a ticker's exchange time and a fill's
 * durable time, so that latencies between them are differences of two such readings.
 */
public final class WallClock {

    private WallClock() {
    }

    public static long nowMicros() {
        return micros(Instant.now());
    }

    public static long micros(Instant instant) {
        return instant.getEpochSecond() * 1_000_000L + instant.getNano() / 1_000;
    }
}
