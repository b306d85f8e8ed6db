package io.geobroker.loadgen.ackbench;

import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

import static org.assertj.core.api.Assertions.assertThat;

class ClosedLoopTest {

    /**
     * A broker stand-in for one client: answers after {@code delayMicros}, rejects every
     * {@code rejectEvery}-th order and fails every {@code failEvery}-th; notes any overlap of calls.
     */
    private static final class Counterparty implements OrderEntry {
        final List<String> seen = new ArrayList<>();
        final AtomicBoolean busy = new AtomicBoolean();
        final AtomicBoolean overlapped = new AtomicBoolean();
        final long delayMicros;
        final int rejectEvery;
        final int failEvery;
        final AtomicLong fills;

        Counterparty(long delayMicros, int rejectEvery, int failEvery, AtomicLong fills) {
            this.delayMicros = delayMicros;
            this.rejectEvery = rejectEvery;
            this.failEvery = failEvery;
            this.fills = fills;
        }

        @Override
        public Ack place(BenchOrder order) {
            if (!busy.compareAndSet(false, true)) {
                overlapped.set(true);
            }
            try {
                LockSupport.parkNanos(delayMicros * 1_000);
                seen.add(order.clientOrderId());
                int n = seen.size();
                if (n % failEvery == 0) {
                    return Ack.error("timeout");
                }
                if (n % rejectEvery == 0) {
                    return Ack.rejected("no");
                }
                fills.incrementAndGet();
                return Ack.ACCEPTED;
            } finally {
                busy.set(false);
            }
        }
    }

    private static ClosedLoop.Orders orders() {
        return (client, i) -> new BenchOrder("r-" + client + "-" + i, "AAPL", 9_500, 2);
    }

    @Test
    void every_client_sends_its_orders_one_after_another_and_every_outcome_is_counted() throws Exception {
        int clients = 4;
        int orders = 60;
        AtomicLong fills = new AtomicLong();
        List<Counterparty> entries = new ArrayList<>();
        for (int c = 0; c < clients; c++) {
            entries.add(new Counterparty(200, 7, 11, fills));
        }

        RoundResult r = ClosedLoop.run(entries, orders, orders(), Duration.ofSeconds(30), Duration.ofSeconds(1),
                fills::get, List.of());

        long rejectsPerClient = orders / 7 - orders / 77;
        long errorsPerClient = orders / 11;
        for (int c = 0; c < clients; c++) {
            Counterparty e = entries.get(c);
            assertThat(e.overlapped).as("client %d waited for each ack", c).isFalse();
            assertThat(e.seen).hasSize(orders).first().isEqualTo("r-" + c + "-0");
            assertThat(e.seen).last().isEqualTo("r-" + c + "-" + (orders - 1));
        }
        assertThat(r.clients()).isEqualTo(clients);
        assertThat(r.orders()).isEqualTo((long) clients * orders);
        assertThat(r.errors()).isEqualTo(clients * errorsPerClient);
        assertThat(r.rejected()).isEqualTo(clients * rejectsPerClient);
        assertThat(r.accepted() + r.rejected() + r.errors()).isEqualTo(r.orders());
        assertThat(r.fills()).as("fills counted during the round").isEqualTo(r.accepted());
        assertThat(r.latency().count()).as("answered orders are timed, errors not").isEqualTo(r.accepted() + r.rejected());
        assertThat(r.latency().p50()).isGreaterThanOrEqualTo(200);
        assertThat(r.latency().max()).isGreaterThanOrEqualTo(r.latency().p99()).isGreaterThanOrEqualTo(r.latency().p50());
        assertThat(r.wallNanos()).as("each client's orders took at least their delays")
                .isGreaterThanOrEqualTo(orders * 200_000L);
        assertThat(r.ordersPerSecond()).isEqualTo(r.accepted() * 1e9 / r.wallNanos());
        assertThat(r.causes()).containsEntry("error: timeout", clients * errorsPerClient)
                .containsEntry("rejected: no", clients * rejectsPerClient);
    }

    @Test
    void orders_not_sent_by_the_rounds_deadline_are_errors() throws Exception {
        AtomicLong fills = new AtomicLong();
        AtomicInteger placed = new AtomicInteger();
        OrderEntry slow = order -> {
            placed.incrementAndGet();
            LockSupport.parkNanos(20_000_000L);
            return Ack.ACCEPTED;
        };

        RoundResult r = ClosedLoop.run(List.of(slow, slow), 1_000, orders(), Duration.ofMillis(200), Duration.ofSeconds(1),
                () -> -1, List.of());

        assertThat(r.accepted()).isEqualTo(placed.get()).isLessThan(2 * 1_000);
        assertThat(r.errors()).isEqualTo(2 * 1_000 - r.accepted());
        assertThat(r.causes()).containsEntry("error: not-sent", r.errors());
        assertThat(r.fillsKnown()).isFalse();
        assertThat(fills.get()).isZero();
    }
}
