package io.geobroker.ticker.rate;

/**
 * Paces a publishing loop by absolute time: send number n is due at {@code origin + n / rate}, so
 * the achieved rate does not drift with the loop's own overhead or with how long a wake-up takes.
 * A loop that falls behind (GC pause, a blocked send) catches up in a burst, but at most
 * {@code maxCatchUpNanos} worth of sends; older ones are dropped and counted as missed, so a long
 * stall never turns into an unbounded burst. A rate change starts a new schedule at once.
 *
 * <p>Pure logic on a caller-supplied clock (nanoseconds); not thread-safe.
 */
public final class Pacer {

    private static final double NANOS_PER_SECOND = 1e9;

    private final long maxCatchUpNanos;
    private double rate;
    private long origin;
    private long sent;
    private long missed;

    public Pacer(long maxCatchUpNanos) {
        if (maxCatchUpNanos < 0) {
            throw new IllegalArgumentException("maxCatchUpNanos must not be negative");
        }
        this.maxCatchUpNanos = maxCatchUpNanos;
    }

    /** Sets the rate (per second); a different rate than before restarts the schedule at {@code now}. */
    public void rate(double perSecond, long now) {
        if (perSecond != rate) {
            rate = perSecond;
            origin = now;
            sent = 0;
        }
    }

    /** How many sends are due at {@code now}, at most {@code limit}; call {@link #sent(int)} after sending them. */
    public int due(long now, int limit) {
        if (rate <= 0) {
            return 0;
        }
        long dueTotal = (long) Math.floor((now - origin) * rate / NANOS_PER_SECOND) + 1;
        long backlog = dueTotal - sent;
        long maxBacklog = (long) Math.floor(maxCatchUpNanos * rate / NANOS_PER_SECOND) + 1;
        if (backlog > maxBacklog) {
            missed += backlog - maxBacklog;
            sent += backlog - maxBacklog;
            backlog = maxBacklog;
        }
        return (int) Math.max(0, Math.min(backlog, limit));
    }

    public void sent(int count) {
        sent += count;
    }

    /** Nanoseconds from {@code now} until the next send is due (0 if due already); {@code Long.MAX_VALUE} at rate 0. */
    public long nanosUntilNext(long now) {
        if (rate <= 0) {
            return Long.MAX_VALUE;
        }
        return Math.max(0, nextSlot() - now);
    }

    /**
     * When the next send was scheduled (its slot on the caller's clock), however late the loop gets
     * round to it: the ticker's exchange time, so that a late publisher shows up as latency downstream
     * instead of moving the clock latency is measured from. Only meaningful while the rate is positive.
     */
    public long nextSlot() {
        return origin + (long) Math.ceil(sent * NANOS_PER_SECOND / rate);
    }

    /** Sends dropped so far because the loop fell more than the catch-up bound behind. */
    public long missed() {
        return missed;
    }
}
