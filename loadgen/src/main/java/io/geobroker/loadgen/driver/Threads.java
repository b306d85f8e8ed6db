package io.geobroker.loadgen.driver;

import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

/**
 * The driver's threads: daemon threads and pools, so a run never keeps the JVM alive, and waiting
 * for an intended send time without ever oversleeping a stop by more than 50 ms.
 */
final class Threads {

    private Threads() {
    }

    /** Parks until {@code nanos} on {@link System#nanoTime()}, or until {@code stop} is set. */
    static void waitUntil(long nanos, AtomicBoolean stop) {
        while (!stop.get()) {
            long left = nanos - System.nanoTime();
            if (left <= 0) {
                return;
            }
            LockSupport.parkNanos(Math.min(left, 50_000_000L));
        }
    }

    static Thread start(String name, Runnable body) {
        Thread t = new Thread(body, name);
        t.setDaemon(true);
        t.start();
        return t;
    }

    static ThreadFactory daemon(String name) {
        AtomicLong n = new AtomicLong();
        return r -> {
            Thread t = new Thread(r, name + "-" + n.incrementAndGet());
            t.setDaemon(true);
            return t;
        };
    }
}
