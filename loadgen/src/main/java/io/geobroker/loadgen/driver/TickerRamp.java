package io.geobroker.loadgen.driver;

import io.geobroker.loadgen.metrics.RampedSchedule;

import java.io.IOException;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.LongAdder;

/**
 * Sets the rate of a ticker service whose rate the load generator controls: during a run so that
 * it follows the warm-up ramp, and after it to the rate the service is to be left at. A failure to
 * set it is reported once for the driver's whole life, not once per step.
 */
final class TickerRamp {

    /** How often the rate of the ticker service is set while it follows the ramp. */
    static final Duration RATE_STEP = Duration.ofMillis(500);

    private final TickerRateClient rate;
    private final AtomicBoolean failureReported = new AtomicBoolean();

    TickerRamp(TickerRateClient rate) {
        this.rate = rate;
    }

    /**
     * Sets the ticker service's rate to follow the tickers' ramped schedule: every {@link #RATE_STEP}
     * during the ramp, the rate of the middle of the coming step; the full rate once the ramp is over
     * (then the thread ends). The service stamps each ticker with its own scheduled time, so ticker
     * timing stays free of coordinated omission; only the rate comes from here.
     */
    void follow(RampedSchedule schedule, AtomicBoolean stop, LongAdder liveErrors) {
        long step = RATE_STEP.toNanos();
        long rampEnd = schedule.startNanos() + schedule.rampNanos();
        for (long at = schedule.startNanos(); !stop.get(); at += step) {
            Threads.waitUntil(at, stop);
            if (stop.get()) {
                return;
            }
            boolean last = at >= rampEnd;
            set(last ? schedule.ratePerSecond() : schedule.rateAt(at + step / 2), liveErrors);
            if (last) {
                return;
            }
        }
    }

    /** Sets the rate; a failure counts in {@code liveErrors} when there is one (during a run). */
    void set(double perSecond, LongAdder liveErrors) {
        try {
            rate.set(perSecond);
        } catch (IOException e) {
            if (liveErrors != null) {
                liveErrors.increment();
            }
            if (failureReported.compareAndSet(false, true)) {
                System.err.println(System.lineSeparator() + "loadgen: could not set the ticker service's rate ("
                        + e.getClass().getSimpleName() + (e.getMessage() == null ? "" : ": " + e.getMessage()) + ")");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
