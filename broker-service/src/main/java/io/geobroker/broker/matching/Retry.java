package io.geobroker.broker.matching;

import io.micrometer.core.instrument.Counter;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.function.LongConsumer;
import java.util.function.Supplier;

/**
 * Cassandra calls the engine makes until they are answered: a group's batch, the journal, a lazy
 * account read. The engine waits instead of stopping halfway through a command or a group, so
 * memory never runs ahead of an unknown outcome. Every call must be idempotent.
 */
final class Retry {

    /** Logged under the engine's name, like everything the engine thread does. */
    private static final Logger log = LoggerFactory.getLogger(Engine.class);
    static final long FIRST_BACKOFF_MILLIS = 50;
    static final long MAX_BACKOFF_MILLIS = 2_000;

    private final LongConsumer sleeper;

    Retry() {
        this(Retry::sleep);
    }

    /** {@code sleeper} waits the given milliseconds between attempts. */
    Retry(LongConsumer sleeper) {
        this.sleeper = sleeper;
    }

    /** Runs a write until Cassandra confirms it; the write must be idempotent. */
    void write(String what, Runnable write) {
        untilAnswered(what, null, () -> {
            write.run();
            return null;
        });
    }

    /**
     * Runs a Cassandra call until it is answered, backing off from 50 ms to 2 s between attempts;
     * the call must be idempotent. Each failed attempt is logged and counted on {@code failures}.
     */
    <T> T untilAnswered(String what, Counter failures, Supplier<T> call) {
        long backoffMillis = FIRST_BACKOFF_MILLIS;
        while (true) {
            try {
                return call.get();
            } catch (RuntimeException e) {
                if (failures != null) {
                    failures.increment();
                }
                log.warn("{} failed ({}); trying again", what, e.toString());
                sleeper.accept(backoffMillis);
                backoffMillis = nextBackoff(backoffMillis);
            }
        }
    }

    static long nextBackoff(long backoffMillis) {
        return Math.min(backoffMillis * 2, MAX_BACKOFF_MILLIS);
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting to call Cassandra again", e);
        }
    }
}
