package io.geobroker.broker.it;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;

/** A UTC clock a test can move forward (to reach an exchange's close without waiting for it). */
final class MovableClock extends Clock {

    private volatile Duration offset = Duration.ZERO;

    void advance(Duration by) {
        offset = offset.plus(by);
    }

    /** Back to the real time: the clock is shared by every broker a test JVM starts. */
    void reset() {
        offset = Duration.ZERO;
    }

    @Override
    public ZoneId getZone() {
        return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(ZoneId zone) {
        throw new UnsupportedOperationException();
    }

    @Override
    public Instant instant() {
        return Instant.now().plus(offset);
    }
}
