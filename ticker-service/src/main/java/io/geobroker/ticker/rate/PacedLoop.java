package io.geobroker.ticker.rate;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.geobroker.domain.WallClock;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.DoubleSupplier;
import java.util.function.LongConsumer;
import java.util.function.LongSupplier;

/**
 * A publishing loop paced by a {@link Pacer}: it reads the current rate on every iteration (so a
 * change applies within {@link #MAX_PARK_NANOS}), sends what is due in bursts of at most
 * {@link #BURST} and sleeps until the next send is due. An unexpected error is logged, the loop
 * backs off for a second and goes on: it never stops silently.
 *
 * <p>Each send is given its <em>scheduled</em> time on the wall clock (microseconds since the
 * epoch), not the time the loop got round to it: a loop that falls behind (GC, a blocked send, a
 * starved CPU) then shows up as latency measured from that time, instead of silently delaying the
 * clock (no coordinated omission). The scheduled time is taken as the wall clock now minus how late
 * the send is on the monotonic clock, so it follows wall-clock adjustments without drifting.
 */
public final class PacedLoop implements Runnable {

    /** One unit of work of the loop. */
    @FunctionalInterface
    public interface Step {
        /**
         * Publishes one item stamped {@code scheduledMicros}; returns false when there is nothing more
         * to publish (the loop then ends).
         */
        boolean publishOne(long scheduledMicros);
    }

    /** Longest sleep, so that a rate change (e.g. from 0) is seen quickly. */
    static final long MAX_PARK_NANOS = TimeUnit.MILLISECONDS.toNanos(10);
    /** Most sends per iteration before the rate is read again. */
    static final int BURST = 1_000;
    private static final long ERROR_BACKOFF_NANOS = TimeUnit.SECONDS.toNanos(1);
    private static final Logger LOG = LoggerFactory.getLogger(PacedLoop.class);

    private final String name;
    private final DoubleSupplier rate;
    private final Pacer pacer;
    private final Step step;
    private final LongConsumer missed;
    private final LongSupplier nanoClock;
    private final LongSupplier wallClockMicros;
    private volatile boolean stopped;

    /**
     * @param rate            the current rate per second, read every iteration
     * @param maxCatchUpNanos how far behind the loop may catch up in a burst (see {@link Pacer})
     * @param missed          told how many sends were dropped each time the loop fell too far behind
     */
    public PacedLoop(String name, DoubleSupplier rate, long maxCatchUpNanos, Step step, LongConsumer missed) {
        this(name, rate, maxCatchUpNanos, step, missed, System::nanoTime, WallClock::nowMicros);
    }

    /** With the clocks given: the monotonic one (nanoseconds) that paces, the wall clock (microseconds) that stamps. */
    PacedLoop(String name, DoubleSupplier rate, long maxCatchUpNanos, Step step, LongConsumer missed,
              LongSupplier nanoClock, LongSupplier wallClockMicros) {
        this.name = name;
        this.rate = rate;
        this.pacer = new Pacer(maxCatchUpNanos);
        this.step = step;
        this.missed = missed;
        this.nanoClock = nanoClock;
        this.wallClockMicros = wallClockMicros;
    }

    public String name() {
        return name;
    }

    public void stop() {
        stopped = true;
    }

    @Override
    public void run() {
        long reportedMissed = 0;
        while (!stopped) {
            try {
                long now = nanoClock.getAsLong();
                pacer.rate(rate.getAsDouble(), now);
                int due = pacer.due(now, BURST);
                if (pacer.missed() != reportedMissed) {
                    missed.accept(pacer.missed() - reportedMissed);
                    reportedMissed = pacer.missed();
                }
                if (due == 0) {
                    LockSupport.parkNanos(Math.min(pacer.nanosUntilNext(now), MAX_PARK_NANOS));
                    continue;
                }
                for (int i = 0; i < due; i++) {
                    if (stopped) {
                        return;
                    }
                    long lateNanos = nanoClock.getAsLong() - pacer.nextSlot();
                    if (!step.publishOne(wallClockMicros.getAsLong() - lateNanos / 1_000)) {
                        return;
                    }
                    pacer.sent(1);
                }
            } catch (RuntimeException e) {
                if (stopped) {
                    return;
                }
                LOG.error("Publishing loop {} failed, retrying in 1 s", name, e);
                LockSupport.parkNanos(ERROR_BACKOFF_NANOS);
            }
        }
    }
}
