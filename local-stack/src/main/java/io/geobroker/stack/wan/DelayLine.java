package io.geobroker.stack.wan;

import java.util.ArrayDeque;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The packets on their way to one region: a FIFO where each packet becomes due a fixed delay after
 * it arrived. With one fixed delay, arrival order is due order, so the line preserves packet order
 * (TCP sees no reordering) without a priority queue.
 *
 * <p>Bounded in bytes like a router's buffer: when full, new packets are dropped (tail drop) and
 * TCP backs off.
 */
final class DelayLine {

    /** A packet, where it came from and when it may leave. */
    record Packet(int source, byte[] data, long dueNanos) {}

    private final long delayNanos;
    private final long capacityBytes;
    private final ArrayDeque<Packet> queue = new ArrayDeque<>();
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition changed = lock.newCondition();
    private long queuedBytes;
    private long dropped;

    DelayLine(long delayNanos, long capacityBytes) {
        if (delayNanos < 0 || capacityBytes <= 0) {
            throw new IllegalArgumentException("delay must be >= 0 and capacity > 0");
        }
        this.delayNanos = delayNanos;
        this.capacityBytes = capacityBytes;
    }

    /** Queues a packet that arrived at {@code nowNanos}; false (and dropped) when the line is full. */
    boolean offer(int source, byte[] data, long nowNanos) {
        lock.lock();
        try {
            if (queuedBytes + data.length > capacityBytes) {
                dropped++;
                return false;
            }
            boolean wasEmpty = queue.isEmpty();
            queue.addLast(new Packet(source, data, nowNanos + delayNanos));
            queuedBytes += data.length;
            if (wasEmpty) {
                changed.signal();
            }
            return true;
        } finally {
            lock.unlock();
        }
    }

    /** The oldest packet if it is due at {@code nowNanos}, else null. */
    Packet pollDue(long nowNanos) {
        lock.lock();
        try {
            Packet head = queue.peekFirst();
            if (head == null || head.dueNanos() - nowNanos > 0) {
                return null;
            }
            return removeHead();
        } finally {
            lock.unlock();
        }
    }

    /** Waits for the oldest packet to become due (by {@link System#nanoTime()}) and removes it. */
    Packet take() throws InterruptedException {
        lock.lockInterruptibly();
        try {
            while (true) {
                Packet head = queue.peekFirst();
                if (head == null) {
                    changed.await();
                    continue;
                }
                long wait = head.dueNanos() - System.nanoTime();
                if (wait <= 0) {
                    return removeHead();
                }
                changed.awaitNanos(wait);
            }
        } finally {
            lock.unlock();
        }
    }

    private Packet removeHead() {
        Packet p = queue.removeFirst();
        queuedBytes -= p.data().length;
        return p;
    }

    int size() {
        lock.lock();
        try {
            return queue.size();
        } finally {
            lock.unlock();
        }
    }

    long dropped() {
        lock.lock();
        try {
            return dropped;
        } finally {
            lock.unlock();
        }
    }
}
