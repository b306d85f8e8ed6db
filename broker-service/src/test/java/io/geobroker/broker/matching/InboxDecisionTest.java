package io.geobroker.broker.matching;

import io.geobroker.domain.OrderStatus;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * One client order id placed, repeated and cancelled through the home region and another region in
 * any interleaving, against a model of what the brokers write: two Cassandra DCs whose cells are
 * last-write-wins by write time and replicate in any order, the placing region's PENDING writes at
 * its own (skewed) clock, announcements that may be lost or come late (after a WAN cut, or after the
 * home broker restarted and forgot the orders it no longer holds open: the home then reads the
 * order's row in its DC first, {@code routing.InboxPoller}), inbox rows read whenever the poller runs,
 * the home broker restarting (its engine then remembers only open orders), and the home engine
 * deciding with {@link InboxDecision}, the placing region writing its PENDING rows
 * {@link InboxDecision#PENDING_WRITE_LAG_MICROS} below its clock. Whatever the interleaving, once
 * everything has replicated and every inbox row has been read, both DCs hold the status and
 * placement time the home engine decided, the order is listed once in each, and the engine opened it
 * once.
 */
class InboxDecisionTest {

    enum Step { PLACE_HOME, PLACE_OTHER, REPLICATE, ANNOUNCE, ANNOUNCE_LATE, RESTART, POLL, CANCEL_HOME, CANCEL_OTHER, TICK }

    @Example
    void an_order_the_engine_knows_is_written_again_above_the_pending_write() {
        assertThat(InboxDecision.of(true, OrderStatus.PENDING)).isEqualTo(InboxDecision.REWRITE);
        assertThat(InboxDecision.of(true, OrderStatus.OPEN)).isEqualTo(InboxDecision.REWRITE);
        assertThat(InboxDecision.of(false, OrderStatus.PENDING)).isEqualTo(InboxDecision.ACCEPT);
        assertThat(InboxDecision.of(false, OrderStatus.FILLED)).isEqualTo(InboxDecision.MARK);
        assertThat(InboxDecision.writeAbove(5_000_000, 1)).isEqualTo(5_000_000);
        assertThat(InboxDecision.writeAbove(0, 7_000)).isEqualTo(7_001_000);
    }

    @Property(tries = 2_000)
    void every_interleaving_ends_with_the_home_decision_everywhere_and_one_listing(
            @ForAll("steps") List<Step> steps, @ForAll("picks") List<Integer> picks,
            @ForAll @IntRange(min = -500_000, max = 500_000) int otherClockSkewMicros) {
        World world = new World(otherClockSkewMicros, true, true, InboxDecision.PENDING_WRITE_LAG_MICROS);
        world.run(steps, picks);
        world.settle();
        world.assertConverged();
    }

    /** The rule before: a known order's inbox row was only marked, and the poller took one row per order. */
    @Example
    void the_rule_before_the_fix_leaves_the_order_pending_in_both_regions() {
        World world = new World(0, false, true, 0);
        world.run(List.of(Step.PLACE_HOME, Step.TICK, Step.PLACE_OTHER, Step.ANNOUNCE), List.of(0));
        world.settle();
        assertThat(world.home.status.value).isEqualTo("PENDING");
        assertThat(world.other.status.value).isEqualTo("PENDING");
        assertThat(world.engineStatus).isEqualTo("OPEN");
    }

    /**
     * Why PENDING rows are written below the placing broker's clock: placed at home, cancelled there,
     * placed again through the other region before the cancel reached it (a client retrying there;
     * the link cut), and the home broker restarted before that placement's inbox row came. Written at
     * the clock, the PENDING row wins over the cancel, and the restarted engine, which no longer knows
     * the order, opens it again; written a day below, the cancel stands everywhere.
     */
    @Example
    void a_pending_write_after_the_homes_cancel_and_a_restart_does_not_open_the_order_again() {
        List<Step> steps = List.of(Step.PLACE_HOME, Step.CANCEL_HOME, Step.TICK, Step.PLACE_OTHER, Step.RESTART);
        World atTheClock = new World(0, true, true, 0);
        atTheClock.run(steps, List.of(0));
        atTheClock.settle();
        assertThat(atTheClock.opened).as("cancelled, then opened again").isEqualTo(2);
        assertThat(atTheClock.home.status.value).isEqualTo("OPEN");

        World below = new World(0, true, true, InboxDecision.PENDING_WRITE_LAG_MICROS);
        below.run(steps, List.of(0));
        below.settle();
        below.assertConverged();
        assertThat(below.home.status.value).isEqualTo("CANCELLED");
        assertThat(below.other.status.value).isEqualTo("CANCELLED");
    }

    @Provide
    Arbitrary<List<Step>> steps() {
        return Arbitraries.of(Step.class).list().ofMinSize(1).ofMaxSize(30);
    }

    @Provide
    Arbitrary<List<Integer>> picks() {
        return Arbitraries.integers().between(0, 1_000).list().ofMinSize(1).ofMaxSize(30);
    }

    /** One last-write-wins cell. */
    static final class Cell {
        String value;
        long writeMicros = Long.MIN_VALUE;

        void write(String v, long micros) {
            if (micros > writeMicros) {
                value = v;
                writeMicros = micros;
            }
        }
    }

    /** The order's row and listing entries in one DC. */
    static final class Dc {
        final Cell status = new Cell();
        final Cell placedAt = new Cell();
        final Set<String> entries = new HashSet<>();
        final List<Long> inboxRows = new ArrayList<>();

        boolean hasRow() {
            return status.value != null;
        }
    }

    /** A write on its way to a DC: cells (null when not written) and a listing entry or inbox row. */
    record Write(Dc to, String status, String placedAt, long micros, Long inboxRow) {
    }

    /**
     * Why a late announcement is taken only after a read of the home DC: taken from the message, the
     * announcement of an order the home cancelled while it was pending, coming after a restart of the
     * home broker, would open it.
     */
    @Example
    void a_late_announcement_taken_unread_opens_an_order_cancelled_before_a_restart() {
        List<Step> steps = List.of(Step.PLACE_OTHER, Step.CANCEL_OTHER, Step.RESTART, Step.ANNOUNCE_LATE);
        World unread = new World(0, true, false, InboxDecision.PENDING_WRITE_LAG_MICROS);
        unread.run(steps, List.of(0));
        assertThat(unread.engineStatus).isEqualTo("OPEN");
        assertThat(unread.opened).as("cancelled, then opened").isEqualTo(2);

        World read = new World(0, true, true, InboxDecision.PENDING_WRITE_LAG_MICROS);
        read.run(steps, List.of(0));
        read.settle();
        read.assertConverged();
        assertThat(read.engineStatus).isEqualTo("CANCELLED");
    }

    record Announcement(long inboxRow, long pendingMicros) {
    }

    static final class World {
        final Dc home = new Dc();
        final Dc other = new Dc();
        final List<Write> inFlight = new ArrayList<>();
        final List<Announcement> announcements = new ArrayList<>();
        final Set<Long> handed = new HashSet<>();
        final int skew;
        final boolean fixed;
        final boolean lateRead;
        /** How far below its clock the placing region writes its PENDING rows. */
        final long pendingLag;
        /** The home broker restarted since the order was placed: a fresh announcement is a late one now. */
        boolean restarted;
        /** The engine decided the order and then restarted: it no longer holds it (it is not open). */
        boolean forgotten;
        long wallMicros = 1_796_000_000_000_000L;
        long homeClock;
        long otherClock;
        String engineStatus;
        String enginePlacedAt;
        int opened;
        int nextPick;
        List<Integer> picks = List.of(0);

        World(int skew, boolean fixed, boolean lateRead, long pendingLag) {
            this.skew = skew;
            this.fixed = fixed;
            this.lateRead = lateRead;
            this.pendingLag = pendingLag;
        }

        void run(List<Step> steps, List<Integer> picks) {
            this.picks = picks;
            for (Step step : steps) {
                wallMicros += 1 + pick() % 50_000;
                switch (step) {
                    case PLACE_HOME -> placeHome();
                    case PLACE_OTHER -> placeOther();
                    case REPLICATE -> replicateOne();
                    case ANNOUNCE -> announceOne(restarted);
                    case ANNOUNCE_LATE -> announceOne(true);
                    case RESTART -> restart();
                    case POLL -> poll();
                    case CANCEL_HOME -> cancel(false);
                    case CANCEL_OTHER -> cancel(true);
                    case TICK -> wallMicros += 200_000;
                }
            }
        }

        /** Everything replicated, every announcement either delivered or lost, every inbox row read. */
        void settle() {
            for (int round = 0; round < 100 && (!inFlight.isEmpty() || !allHanded()); round++) {
                while (!inFlight.isEmpty()) {
                    deliver(inFlight.remove(0));
                }
                announcements.clear();
                wallMicros += 250_000;
                poll();
            }
        }

        void assertConverged() {
            if (home.entries.isEmpty() && other.entries.isEmpty()) {
                assertThat(engineStatus).isNull();
                return;
            }
            assertThat(opened).as("orders opened").isEqualTo(1);
            for (Dc dc : List.of(home, other)) {
                assertThat(dc.status.value).as("status").isEqualTo(engineStatus);
                assertThat(dc.placedAt.value).as("placed_at").isEqualTo(enginePlacedAt);
                assertThat(dc.entries.stream().filter(e -> e.equals(dc.placedAt.value)).count())
                        .as("listing entries shown").isEqualTo(1);
            }
        }

        private boolean allHanded() {
            return handed.containsAll(home.inboxRows) && home.inboxRows.size() == other.inboxRows.size();
        }

        private int pick() {
            return picks.get(nextPick++ % picks.size());
        }

        private long homeWrite() {
            homeClock = Math.max(wallMicros, homeClock + 1);
            return homeClock;
        }

        private void writeEverywhere(String status, String placedAt, long micros, Long inboxRow, Dc local) {
            Write here = new Write(local, status, placedAt, micros, inboxRow);
            deliver(here);
            inFlight.add(new Write(local == home ? other : home, status, placedAt, micros, inboxRow));
        }

        private void deliver(Write w) {
            if (w.status() != null) {
                w.to().status.write(w.status(), w.micros());
            }
            if (w.placedAt() != null) {
                w.to().placedAt.write(w.placedAt(), w.micros());
                w.to().entries.add(w.placedAt());
            }
            if (w.inboxRow() != null && !w.to().inboxRows.contains(w.inboxRow())) {
                w.to().inboxRows.add(w.inboxRow());
            }
        }

        /** OrderService.place at home: a repeat if the DC or the engine has the order, else the engine opens it. */
        private void placeHome() {
            if (home.hasRow() || engineStatus != null) {
                return;
            }
            engineStatus = "OPEN";
            enginePlacedAt = "home@" + wallMicros / 1000;
            opened++;
            writeEverywhere(engineStatus, enginePlacedAt, homeWrite(), null, home);
        }

        /** OrderService.place in the other region: a repeat if its DC has the order, else stored PENDING. */
        private void placeOther() {
            if (other.hasRow()) {
                return;
            }
            long otherWall = wallMicros + skew;
            otherClock = Math.max(otherWall, otherClock + 1);
            long inboxRow = otherClock / 1000;
            long written = otherClock - pendingLag;
            writeEverywhere("PENDING", "other@" + inboxRow, written, inboxRow, other);
            announcements.add(new Announcement(inboxRow, written));
        }

        private void replicateOne() {
            if (!inFlight.isEmpty()) {
                deliver(inFlight.remove(pick() % inFlight.size()));
            }
        }

        /**
         * InboxPoller: a fresh announcement is handed as it came, unless the poller handed its row
         * already; a late one (the poller's memory may be gone) with the home DC's row when there is one.
         */
        private void announceOne(boolean late) {
            if (announcements.isEmpty()) {
                return;
            }
            Announcement a = announcements.remove(pick() % announcements.size());
            if (!late) {
                if (!alreadyHanded(a.inboxRow())) {
                    hand(a.inboxRow(), "PENDING", "other@" + a.inboxRow(), a.pendingMicros());
                }
            } else if (!restarted && alreadyHanded(a.inboxRow())) {
                return;
            } else if (lateRead && home.hasRow()) {
                hand(a.inboxRow(), home.status.value, home.placedAt.value, home.status.writeMicros);
            } else {
                hand(a.inboxRow(), "PENDING", "other@" + a.inboxRow(), a.pendingMicros());
            }
        }

        /** The home broker restarts: its engine holds the order again only if it is open. */
        private void restart() {
            restarted = true;
            forgotten = engineStatus != null && !engineStatus.equals("OPEN");
        }

        /** The home poller: every inbox row in the home DC not handed yet whose order row has arrived. */
        private void poll() {
            for (Long row : List.copyOf(home.inboxRows)) {
                if (!alreadyHanded(row) && home.hasRow()) {
                    hand(row, home.status.value, home.placedAt.value, home.status.writeMicros);
                }
            }
        }

        private boolean alreadyHanded(long inboxRow) {
            return fixed ? handed.contains(inboxRow) : !handed.isEmpty();
        }

        /** Engine.onAccept. */
        private void hand(long inboxRow, String rowStatus, String rowPlacedAt, long writeMicros) {
            handed.add(inboxRow);
            boolean known = engineStatus != null && !forgotten;
            InboxDecision decision = fixed ? InboxDecision.of(known, OrderStatus.valueOf(rowStatus))
                    : known || !rowStatus.equals("PENDING") ? InboxDecision.MARK : InboxDecision.ACCEPT;
            if (decision == InboxDecision.MARK) {
                return;
            }
            forgotten = false;
            long above = fixed ? InboxDecision.writeAbove(writeMicros, inboxRow) : writeMicros;
            homeClock = Math.max(homeClock, above);
            if (decision == InboxDecision.ACCEPT) {
                engineStatus = "OPEN";
                enginePlacedAt = rowPlacedAt;
                opened++;
            }
            writeEverywhere(engineStatus, enginePlacedAt, homeWrite(), null, home);
        }

        /**
         * A cancel through the home or the other region: forwarded to the engine, with the PENDING
         * row when the placing region still shows it (written CANCELLED above that row if the engine
         * does not know the order yet); an open order's cancel writes only its status.
         */
        private void cancel(boolean viaOther) {
            Dc dc = viaOther ? other : home;
            if (!dc.hasRow()) {
                return;
            }
            if (engineStatus == null) {
                if (!dc.status.value.equals("PENDING")) {
                    return;
                }
                homeClock = Math.max(homeClock, dc.status.writeMicros);
                engineStatus = "CANCELLED";
                enginePlacedAt = dc.placedAt.value;
                opened++;
                writeEverywhere(engineStatus, enginePlacedAt, homeWrite(), null, home);
                return;
            }
            if (engineStatus.equals("OPEN")) {
                engineStatus = "CANCELLED";
                writeEverywhere(engineStatus, null, homeWrite(), null, home);
            }
        }
    }
}
