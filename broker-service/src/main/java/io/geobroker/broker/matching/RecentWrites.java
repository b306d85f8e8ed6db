package io.geobroker.broker.matching;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;

/**
 * The engine's latest confirmed batches, kept so that they can be written again once a cut link to
 * another region is back ({@link HealResend}). Normally only the last {@code keepMillis} are kept;
 * from the moment a cut is noticed ({@link #hold}) everything written since {@code keepMillis}
 * before it is kept until {@link #release}, within {@code maxBytes} (the oldest go first: Cassandra's
 * hints still carry those, only later). Called from the engine thread (add) and the resend thread.
 *
 * @param <S> a batch's statements
 */
final class RecentWrites<S> {

    /**
     * One confirmed batch: when it was written (ms), its write timestamp, its statements and size, and
     * whether it goes before the others when written again.
     */
    record Entry<S>(long writtenMillis, long timestampMicros, List<S> statements, long bytes, boolean first) {
    }

    private final long keepMillis;
    private final long maxBytes;
    private final ArrayDeque<Entry<S>> entries = new ArrayDeque<>();
    private long bytes;
    private long holdFromMillis = Long.MAX_VALUE;
    private long dropped;

    RecentWrites(long keepMillis, long maxBytes) {
        if (keepMillis < 0 || maxBytes < 0) {
            throw new IllegalArgumentException("keepMillis and maxBytes must not be negative");
        }
        this.keepMillis = keepMillis;
        this.maxBytes = maxBytes;
    }

    /** A batch Cassandra confirmed at {@code nowMillis}. */
    synchronized void add(long nowMillis, long timestampMicros, List<S> statements, long size) {
        add(nowMillis, timestampMicros, statements, size, false);
    }

    /** A batch Cassandra confirmed at {@code nowMillis}; {@code first}: written again before the others. */
    synchronized void add(long nowMillis, long timestampMicros, List<S> statements, long size, boolean first) {
        if (maxBytes == 0) {
            return;
        }
        entries.addLast(new Entry<>(nowMillis, timestampMicros, List.copyOf(statements), size, first));
        bytes += size;
        trim(nowMillis);
    }

    /** A cut was noticed at {@code nowMillis}: keep everything from {@code keepMillis} before it on. */
    synchronized void hold(long nowMillis) {
        holdFromMillis = Math.min(holdFromMillis, nowMillis - keepMillis);
    }

    /** Whether a cut is being held for. */
    synchronized boolean holding() {
        return holdFromMillis != Long.MAX_VALUE;
    }

    /**
     * The link is back: the batches written since the hold began, those marked {@code first} before
     * the others, each kind in the order written; and back to normal keeping.
     */
    synchronized List<Entry<S>> release(long nowMillis) {
        List<Entry<S>> held = held();
        holdFromMillis = Long.MAX_VALUE;
        trim(nowMillis);
        return held;
    }

    /**
     * The batches written since the hold began, in the order {@link #release} gives them, without
     * releasing them: to make them ready to be written again while the link's return is confirmed.
     */
    synchronized List<Entry<S>> held() {
        List<Entry<S>> held = new ArrayList<>();
        List<Entry<S>> later = new ArrayList<>();
        for (Entry<S> e : entries) {
            if (e.writtenMillis() >= holdFromMillis) {
                (e.first() ? held : later).add(e);
            }
        }
        held.addAll(later);
        return held;
    }

    /** The latest batch kept since the hold began, or null: what is written first when the link is back. */
    synchronized Entry<S> latestHeld() {
        Entry<S> last = entries.peekLast();
        return last != null && last.writtenMillis() >= holdFromMillis ? last : null;
    }

    /** Batches dropped while holding because of {@code maxBytes} since the last call. */
    synchronized long takeDropped() {
        long d = dropped;
        dropped = 0;
        return d;
    }

    synchronized int size() {
        return entries.size();
    }

    synchronized long bytes() {
        return bytes;
    }

    private void trim(long nowMillis) {
        long oldest = Math.min(nowMillis - keepMillis, holdFromMillis);
        while (!entries.isEmpty() && (entries.peekFirst().writtenMillis() < oldest || bytes > maxBytes)) {
            Entry<S> e = entries.removeFirst();
            bytes -= e.bytes();
            if (e.writtenMillis() >= holdFromMillis) {
                dropped++;
            }
        }
    }
}
