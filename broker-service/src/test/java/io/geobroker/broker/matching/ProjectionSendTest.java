package io.geobroker.broker.matching;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;

class ProjectionSendTest {

    /** Each write completes on another thread a little later, counting how many are under way at once. */
    private static final class Writes {
        final AtomicInteger underWay = new AtomicInteger();
        final AtomicInteger most = new AtomicInteger();
        final List<String> started = new ArrayList<>();
        final Executor later = CompletableFuture.delayedExecutor(2, TimeUnit.MILLISECONDS);

        CompletableFuture<?> write(String item) {
            started.add(item);
            most.accumulateAndGet(underWay.incrementAndGet(), Math::max);
            return CompletableFuture.supplyAsync(() -> {
                underWay.decrementAndGet();
                if (item.startsWith("bad")) {
                    throw new IllegalStateException("write timed out: " + item);
                }
                return item;
            }, later);
        }
    }

    @Test
    void one_batch_in_flight_writes_them_one_after_another_in_order() {
        Writes writes = new Writes();

        Projection.Failed<String> failed = Projection.sendAll(List.of("a", "b", "c", "d"), 1, writes::write);

        assertThat(writes.started).containsExactly("a", "b", "c", "d");
        assertThat(writes.most.get()).isEqualTo(1);
        assertThat(writes.underWay.get()).isZero();
        assertThat(failed.items()).isEmpty();
        assertThat(failed.cause()).isNull();
    }

    @Test
    void never_more_than_the_window_under_way_and_every_write_answered_before_it_returns() {
        Writes writes = new Writes();
        List<String> items = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            items.add("b" + i);
        }

        Projection.sendAll(items, 3, writes::write);

        assertThat(writes.started).containsExactlyElementsOf(items);
        assertThat(writes.most.get()).isBetween(1, 3);
        assertThat(writes.underWay.get()).isZero();
    }

    @Test
    void failed_writes_come_back_in_order_with_their_cause_and_the_rest_are_still_written() {
        Writes writes = new Writes();

        Projection.Failed<String> failed = Projection.sendAll(List.of("a", "bad1", "c", "bad2", "e"), 2,
                writes::write);

        assertThat(writes.started).containsExactly("a", "bad1", "c", "bad2", "e");
        assertThat(failed.items()).containsExactly("bad1", "bad2");
        assertThat(failed.cause()).hasRootCauseMessage("write timed out: bad2");
    }

    @Test
    void the_largest_window_reserves_no_room_for_itself_and_writes_them_all() {
        Writes writes = new Writes();

        Projection.Failed<String> failed = Projection.sendAll(List.of("a", "b", "c"), Integer.MAX_VALUE, writes::write);

        assertThat(writes.started).containsExactly("a", "b", "c");
        assertThat(writes.underWay.get()).isZero();
        assertThat(failed.items()).isEmpty();
    }

    @Test
    void nothing_to_write_writes_nothing() {
        Writes writes = new Writes();

        Projection.Failed<String> failed = Projection.sendAll(List.of(), 1, writes::write);

        assertThat(writes.started).isEmpty();
        assertThat(failed.items()).isEmpty();
    }

    @Test
    void a_round_of_up_to_its_steps_keeps_the_window_and_a_larger_one_widens_it() {
        assertThat(Projection.window(1, 0)).isEqualTo(1);
        assertThat(Projection.window(1, Projection.ROUND_STEPS)).isEqualTo(1);
        assertThat(Projection.window(1, Projection.ROUND_STEPS + 1)).isEqualTo(2);
        assertThat(Projection.window(4, 10)).isEqualTo(4);
        assertThat(Projection.window(1, 1_000)).isEqualTo(63);
    }

    @Test
    void a_round_of_any_size_goes_in_at_most_its_steps_of_batches_one_after_another() {
        for (int batches = 1; batches <= 5_000; batches++) {
            int window = Projection.window(1, batches);
            int steps = (batches + window - 1) / window;
            assertThat(steps).as("%d batches, %d at a time", batches, window).isLessThanOrEqualTo(Projection.ROUND_STEPS);
            if (window > 1) {
                int narrower = (batches + window - 2) / (window - 1);
                assertThat(narrower).as("%d batches, one fewer at a time: no wider than it must be", batches)
                        .isGreaterThan(Projection.ROUND_STEPS);
            }
        }
    }
}
