package io.geobroker.broker.matching;

import io.geobroker.domain.OrderStatus;

/**
 * What the home engine does with one inbox row (or its announcement) of an order placed in another
 * region, and above which write time its writes about that order must go.
 *
 * <p>Each placement stored PENDING in another region writes the order's row there and one inbox
 * row. The same client order id can be placed at home and elsewhere, or in two other regions, within
 * the replication window (a client retrying against another region): then a PENDING row can be
 * written after, and with a later write time than, what the home decided. So an inbox row of an
 * order the engine already knows is not only marked: the engine writes the order's whole row again
 * as it stands, above that PENDING write, and every region ends with the home's decision, one list
 * entry (the one whose {@code placed_at} the row names) and the reservation the home made.
 *
 * <p>That rewrite needs an engine that remembers the order. One that restarted after deciding it
 * (cancelled, rejected, filled) does not, and would take a later PENDING row that won over its
 * decision for a new order and open it. So PENDING rows are written {@link #PENDING_WRITE_LAG_MICROS}
 * below the placing broker's clock: a home's write about the order wins over every PENDING write of
 * it made less than that after it, whichever came first and whatever the clocks say, and the row a
 * restarted home reads shows its own decision.
 */
public enum InboxDecision {
    /** Not known and still PENDING: reserve and open it, or reject it. */
    ACCEPT,
    /** Known to the engine: write its row again, above the PENDING write. */
    REWRITE,
    /** Not known and no longer PENDING where it was read: taken before a restart; only the inbox row is marked. */
    MARK;

    /**
     * Margin above an inbox row's placement time for a PENDING write whose time is not known (the
     * row was read after the home's own write had replaced it): the placing broker takes the write
     * time just before the inbox row's time-based id, so a millisecond covers it.
     */
    static final long PLACEMENT_MARGIN_MICROS = 1_000;

    /**
     * How far below its own clock a placing broker writes an order's PENDING rows (its row, list
     * entry and inbox row): a day, longer than any clock skew and than a cut link keeps a region
     * from reading the home's decision. Nothing else writes below it: every other write of the order
     * is the home's, and the placing region writes an order only while its own DC has no row of it.
     */
    public static final long PENDING_WRITE_LAG_MICROS = 86_400_000_000L;

    public static InboxDecision of(boolean known, OrderStatus rowStatus) {
        if (known) {
            return REWRITE;
        }
        return rowStatus == OrderStatus.PENDING ? ACCEPT : MARK;
    }

    /**
     * The write time the engine's writes about the order must exceed: the PENDING row's as read or
     * announced, and at least the inbox row's placement time (in case the row read was not the
     * PENDING one, which then arrives later but was written earlier than this).
     */
    public static long writeAbove(long pendingWriteMicros, long inboxPlacedAtMillis) {
        return Math.max(pendingWriteMicros, Math.multiplyExact(inboxPlacedAtMillis, 1000L) + PLACEMENT_MARGIN_MICROS);
    }
}
