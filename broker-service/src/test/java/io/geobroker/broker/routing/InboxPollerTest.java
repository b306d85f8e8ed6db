package io.geobroker.broker.routing;

import com.datastax.oss.driver.api.core.uuid.Uuids;
import io.geobroker.broker.config.BrokerProperties;
import io.geobroker.broker.order.Order;
import io.geobroker.domain.OrderStatus;
import io.geobroker.domain.OrderType;
import io.geobroker.domain.Side;
import io.geobroker.domain.TimeInForce;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

class InboxPollerTest {

    @Test
    void after_a_heal_the_inbox_is_swept_every_half_second_until_the_heal_sweeps_end() {
        long healed = 100_000;
        long until = healed + InboxPoller.HEAL_SWEEPS_MILLIS;
        assertThat(InboxPoller.nextHealSweep(healed, until)).isEqualTo(healed + InboxPoller.HEAL_SWEEP_INTERVAL_MILLIS);
        assertThat(InboxPoller.nextHealSweep(until - InboxPoller.HEAL_SWEEP_INTERVAL_MILLIS - 1, until))
                .isEqualTo(until - 1);
        assertThat(InboxPoller.nextHealSweep(until - InboxPoller.HEAL_SWEEP_INTERVAL_MILLIS, until))
                .as("no heal sweep after the heal's sweeps end").isEqualTo(Long.MAX_VALUE);
        assertThat(InboxPoller.nextHealSweep(healed, -1)).as("no heal yet").isEqualTo(Long.MAX_VALUE);
    }

    @Test
    void a_heals_sweeps_start_a_margin_before_the_cut_was_noticed() {
        assertThat(InboxPoller.healSweepFrom(40_000, 100_000, 11_000)).isEqualTo(29_000);
        assertThat(InboxPoller.healSweepFrom(-1, 100_000, 11_000)).as("the cut's start unknown").isEqualTo(89_000);
        assertThat(InboxPoller.healSweepFrom(120_000, 100_000, 11_000)).as("a start after the heal is not taken")
                .isEqualTo(89_000);
    }

    @Test
    void a_heals_sweeps_say_how_many_orders_they_handed_and_when() {
        InboxPoller.HealSweeps sweeps = new InboxPoller.HealSweeps();
        sweeps.add(80, new InboxPoller.Taken(0, 0));
        sweeps.add(4_500, new InboxPoller.Taken(39, 2));
        sweeps.add(5_000, new InboxPoller.Taken(0, 1));
        sweeps.add(11_200, new InboxPoller.Taken(9, 0));

        assertThat(sweeps.summary(0)).isEqualTo("4 sweeps handed 48 orders placed before it in other regions to the engine, "
                + "4500 to 11200 ms after the heal (reads that found an inbox row before its order row: 3)");
        assertThat(new InboxPoller.HealSweeps().summary(0)).as("nothing handed")
                .isEqualTo("0 sweeps handed 0 orders placed before it in other regions to the engine (reads that found an inbox row before its order row: 0)");
        assertThat(new InboxPoller.Taken(1, 2).plus(new InboxPoller.Taken(3, 4))).isEqualTo(new InboxPoller.Taken(4, 6));
    }

    @Test
    void a_heals_summary_counts_the_late_announcements_and_those_taken_from_the_message() {
        long healSeen = 50_000;
        InboxPoller.HealSweeps before = new InboxPoller.HealSweeps();
        before.announced(16, 14, healSeen - 300);
        InboxPoller.HealSweeps sweeps = before.forHeal();
        sweeps.add(500, new InboxPoller.Taken(2, 0));
        sweeps.announced(5, 5, healSeen + 1_350);

        assertThat(sweeps.summary(healSeen)).as("the announcements that came before the heal was seen count too")
                .isEqualTo("1 sweeps handed 2 orders placed before it in other regions to the engine, "
                + "500 to 500 ms after the heal (reads that found an inbox row before its order row: 0); "
                + "late announcements read and handed: 21, 19 of them from the message (no row here yet), "
                + "-300 to 1350 ms after the heal was seen");
        assertThat(before.summary(healSeen)).endsWith("-300 to -300 ms after the heal was seen");
    }

    @Test
    void only_an_announcement_of_an_order_placed_since_the_start_and_in_the_last_seconds_is_taken_unread() {
        long started = 1_000_000;
        long now = started + 60_000;
        long maxAge = InboxPoller.ANNOUNCEMENT_MAX_AGE_MILLIS;
        assertThat(InboxPoller.fresh(now - 100, now, started, maxAge)).isTrue();
        assertThat(InboxPoller.fresh(now - maxAge, now, started, maxAge)).isTrue();
        assertThat(InboxPoller.fresh(now - maxAge - 1, now, started, maxAge))
                .as("placed during a cut, announced after it").isFalse();
        assertThat(InboxPoller.fresh(started - 1, started + 100, started, maxAge)).as("placed before this broker started")
                .isFalse();
    }

    /**
     * The poller's stand-ins for the inbox and the engine: the first read of the inbox's unprocessed
     * rows (the sweep at start) waits until the test lets it end and then returns {@code rows}; the
     * engine takes what it is handed into {@code accepted}.
     */
    private static final class Held implements InboxPoller.Sources {
        final CountDownLatch readStarted = new CountDownLatch(1);
        final CountDownLatch readReleased = new CountDownLatch(1);
        final CountDownLatch sweepDone = new CountDownLatch(1);
        final BlockingQueue<OrderInbox.Entry> accepted = new LinkedBlockingQueue<>();
        /** The customers whose rows were read for announcements, and the reads' answers, which the test completes. */
        final BlockingQueue<String> customersRead = new LinkedBlockingQueue<>();
        final CompletableFuture<Map<UUID, OrderInbox.Stored>> announcedRows = new CompletableFuture<>();
        volatile boolean holdAnnouncedRows;
        /** When set, the engine keeps the caller of its first accept until this opens (its queue full). */
        volatile CountDownLatch acceptHeld;
        volatile List<OrderInbox.Entry> rows = List.of();
        volatile Map<UUID, OrderInbox.Stored> stored = Map.of();

        @Override
        public List<OrderInbox.Entry> unprocessed(String region, long minute) {
            readStarted.countDown();
            try {
                readReleased.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
            return rows;
        }

        @Override
        public List<OrderInbox.Entry> after(String region, long minute, long afterMillis) {
            sweepDone.countDown();
            return List.of();
        }

        @Override
        public CompletableFuture<Map<UUID, OrderInbox.Stored>> orders(String customerId, List<UUID> orderIds) {
            customersRead.add(customerId);
            return holdAnnouncedRows ? announcedRows : CompletableFuture.completedFuture(stored);
        }

        @Override
        public void accept(OrderInbox.Entry entry, Order order, long writeMicros) throws InterruptedException {
            accepted.add(entry);
            CountDownLatch held = acceptHeld;
            if (held != null) {
                acceptHeld = null;
                held.await();
            }
        }

        @Override
        public boolean awaitReady(Duration timeout) {
            return true;
        }

        @Override
        public long lastHealMillis() {
            return -1;
        }

        @Override
        public long lastCutSinceMillis() {
            return -1;
        }
    }

    private static InboxPoller poller(Held held) {
        return poller(held, InboxPoller.ANNOUNCEMENT_MAX_AGE_MILLIS);
    }

    private static InboxPoller poller(Held held, long maxAnnouncementAgeMillis) {
        BrokerProperties.CrossRegion config = new BrokerProperties.CrossRegion(Duration.ofMillis(250), Duration.ofSeconds(1),
                Duration.ofSeconds(15), Duration.ofMinutes(10), Duration.ofSeconds(1), Duration.ofMillis(1200),
                Duration.ofSeconds(1), 1, Duration.ofSeconds(20), 1, Duration.ofSeconds(1), Duration.ofSeconds(10), 0);
        return new InboxPoller(held, "nvirginia", config, true, maxAnnouncementAgeMillis);
    }

    private static OrderInbox.Entry placedNow() {
        return placed(Uuids.timeBased(), "c1");
    }

    private static OrderInbox.Entry placed(UUID placedAt, String customerId) {
        return new OrderInbox.Entry("nvirginia", OrderInbox.minuteOf(Uuids.unixTimestamp(placedAt)), placedAt,
                UUID.randomUUID(), customerId, "sydney", false);
    }

    private static Order pending(OrderInbox.Entry entry) {
        return new Order(entry.orderId(), entry.customerId(), "x1", "AAPL", "NASDAQ", "USD", Side.BUY, OrderType.LIMIT,
                TimeInForce.GTC, false, 10, 150_00L, null, false, OrderStatus.PENDING, 0, 0, 0, null, null,
                Instant.ofEpochMilli(entry.placedAtMillis()), Instant.ofEpochMilli(entry.placedAtMillis()), "nvirginia",
                "sydney");
    }

    @Test
    void an_announced_order_is_handed_to_the_engine_while_a_read_of_the_inbox_is_under_way() throws Exception {
        Held held = new Held();
        InboxPoller poller = poller(held);
        poller.start();
        try {
            assertThat(held.readStarted.await(10, TimeUnit.SECONDS)).as("the sweep at start reads the inbox").isTrue();
            OrderInbox.Entry entry = placedNow();
            poller.announced(entry, pending(entry), 1);
            assertThat(held.accepted.poll(10, TimeUnit.SECONDS)).as("handed while the sweep's read has not ended")
                    .isEqualTo(entry);
        } finally {
            held.readReleased.countDown();
            poller.stop();
        }
    }

    @Test
    void an_order_announced_and_then_found_by_a_read_is_handed_once() throws Exception {
        Held held = new Held();
        InboxPoller poller = poller(held);
        poller.start();
        try {
            assertThat(held.readStarted.await(10, TimeUnit.SECONDS)).isTrue();
            OrderInbox.Entry entry = placedNow();
            poller.announced(entry, pending(entry), 1);
            assertThat(held.accepted.poll(10, TimeUnit.SECONDS)).isEqualTo(entry);
            held.rows = List.of(entry);
            held.stored = Map.of(entry.orderId(), new OrderInbox.Stored(pending(entry), 1));
            held.readReleased.countDown();
            assertThat(held.sweepDone.await(10, TimeUnit.SECONDS)).as("the sweep ended, the tail came next").isTrue();
            assertThat(held.accepted).as("the sweep found the row handed already").isEmpty();
        } finally {
            held.readReleased.countDown();
            poller.stop();
        }
    }

    @Test
    void a_fresh_announcement_is_handed_while_a_late_ones_read_is_under_way() throws Exception {
        Held held = new Held();
        held.readReleased.countDown();
        held.holdAnnouncedRows = true;
        InboxPoller poller = poller(held);
        poller.start();
        try {
            assertThat(held.sweepDone.await(10, TimeUnit.SECONDS)).isTrue();
            OrderInbox.Entry late = placed(Uuids.startOf(System.currentTimeMillis() - 60_000), "c-late");
            poller.announced(late, pending(late), 1);
            assertThat(held.customersRead.poll(10, TimeUnit.SECONDS)).as("a late announcement is read first")
                    .isEqualTo("c-late");
            OrderInbox.Entry fresh = placedNow();
            poller.announced(fresh, pending(fresh), 1);
            assertThat(held.accepted.poll(10, TimeUnit.SECONDS)).as("handed before the late one's read ended")
                    .isEqualTo(fresh);
            held.announcedRows.complete(Map.of());
            assertThat(held.accepted.poll(10, TimeUnit.SECONDS)).as("the late one, from the message: no row here")
                    .isEqualTo(late);
            assertThat(held.customersRead).as("the fresh one not read").isEmpty();
        } finally {
            poller.stop();
        }
    }

    @Test
    void an_announcement_that_came_fresh_is_taken_from_the_message_however_long_it_waited_here() throws Exception {
        Held held = new Held();
        held.readReleased.countDown();
        long maxAge = 200;
        CountDownLatch engineFree = new CountDownLatch(1);
        held.acceptHeld = engineFree;
        InboxPoller poller = poller(held, maxAge);
        poller.start();
        try {
            assertThat(held.sweepDone.await(10, TimeUnit.SECONDS)).isTrue();
            OrderInbox.Entry first = placedNow();
            poller.announced(first, pending(first), 1);
            assertThat(held.accepted.poll(10, TimeUnit.SECONDS)).as("the engine took the first one and holds its caller")
                    .isEqualTo(first);
            OrderInbox.Entry second = placedNow();
            poller.announced(second, pending(second), 1);
            await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(20))
                    .until(() -> System.currentTimeMillis() - second.placedAtMillis() > 2 * maxAge);
            engineFree.countDown();
            assertThat(held.accepted.poll(10, TimeUnit.SECONDS))
                    .as("the second one, older than the limit when its turn came").isEqualTo(second);
            assertThat(held.customersRead).as("not read: it came fresh").isEmpty();
        } finally {
            engineFree.countDown();
            poller.stop();
        }
    }
}
