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
