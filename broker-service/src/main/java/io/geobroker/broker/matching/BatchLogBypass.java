package io.geobroker.broker.matching;

import com.datastax.oss.driver.api.core.servererrors.DefaultWriteType;
import com.datastax.oss.driver.api.core.servererrors.WriteTimeoutException;

import java.util.concurrent.TimeUnit;

/**
 * A window in which logged batches are not tried: it opens when Cassandra could not write a logged
 * batch's batch log (a {@code BATCH_LOG} write timeout, after which nothing of the batch was
 * applied). At three nodes per DC the batch log goes to the coordinator DC's two other nodes, so
 * while one of them is dead but not yet convicted by the failure detector (~20 s after a SIGKILL),
 * every logged batch would wait out the write timeout and fail. Writers that can do without the
 * batch log for a while ({@link BatchWriter}, the inbox's order rows) ask {@link #active()} first.
 */
public final class BatchLogBypass {

    /** How long the window stays open. */
    static final long WINDOW_NANOS = TimeUnit.SECONDS.toNanos(30);

    /** Until when (System.nanoTime()) the window is open; 0 when it is closed. */
    private volatile long untilNanos;

    /** Whether the window is open. */
    public boolean active() {
        long until = untilNanos;
        return until != 0 && System.nanoTime() - until < 0;
    }

    /** Opens the window and returns true when {@code e} says a batch log could not be written. */
    public boolean opensOn(RuntimeException e) {
        if (e instanceof WriteTimeoutException timeout && timeout.getWriteType() == DefaultWriteType.BATCH_LOG) {
            untilNanos = System.nanoTime() + WINDOW_NANOS;
            return true;
        }
        return false;
    }

    /** The window's length in seconds, for messages. */
    public static long windowSeconds() {
        return TimeUnit.NANOSECONDS.toSeconds(WINDOW_NANOS);
    }
}
