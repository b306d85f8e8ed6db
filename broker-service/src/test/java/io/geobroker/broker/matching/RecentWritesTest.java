package io.geobroker.broker.matching;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class RecentWritesTest {

    private static List<Long> timestamps(List<RecentWrites.Entry<String>> entries) {
        return entries.stream().map(RecentWrites.Entry::timestampMicros).toList();
    }

    @Test
    void without_a_cut_only_the_last_window_is_kept() {
        RecentWrites<String> recent = new RecentWrites<>(1_000, 1 << 20);
        recent.add(0, 1, List.of("a"), 10);
        recent.add(500, 2, List.of("b"), 10);
        recent.add(1_200, 3, List.of("c"), 10);

        assertThat(recent.size()).as("the batch of t=0 is older than 1 s at t=1200").isEqualTo(2);
        assertThat(recent.bytes()).isEqualTo(20);
        assertThat(recent.holding()).isFalse();
    }

    @Test
    void a_cut_keeps_the_window_before_it_and_everything_after_until_released() {
        RecentWrites<String> recent = new RecentWrites<>(1_000, 1 << 20);
        recent.add(0, 1, List.of("a"), 10);
        recent.add(4_500, 2, List.of("b"), 10);
        recent.hold(5_000);
        recent.add(6_000, 3, List.of("c"), 10);
        recent.add(30_000, 4, List.of("d", "e"), 20);

        assertThat(recent.holding()).isTrue();
        List<RecentWrites.Entry<String>> held = recent.release(30_100);
        assertThat(timestamps(held)).as("from 1 s before the cut was noticed, in order").containsExactly(2L, 3L, 4L);
        assertThat(held.get(2).statements()).containsExactly("d", "e");
        assertThat(recent.holding()).isFalse();
        assertThat(recent.size()).as("after the release only the last second is kept").isEqualTo(1);
    }

    @Test
    void the_held_batches_are_read_in_release_order_without_ending_the_hold() {
        RecentWrites<String> recent = new RecentWrites<>(1_000, 1 << 20);
        recent.add(0, 1, List.of("before the window"), 10);
        recent.hold(2_000);
        recent.add(1_500, 2, List.of("engine"), 10);
        recent.add(1_600, 3, List.of("inbox"), 10, true);

        assertThat(timestamps(recent.held())).as("first ones first, as release gives them").containsExactly(3L, 2L);
        assertThat(recent.holding()).isTrue();
        recent.add(1_700, 4, List.of("engine"), 10);
        assertThat(timestamps(recent.release(1_800))).as("the hold went on").containsExactly(3L, 2L, 4L);
        assertThat(recent.held()).as("nothing held after the release").isEmpty();
    }

    @Test
    void batches_marked_first_are_released_before_the_others_each_in_the_order_written() {
        RecentWrites<String> recent = new RecentWrites<>(1_000, 1 << 20);
        recent.hold(0);
        recent.add(100, 1, List.of("engine"), 10);
        recent.add(200, 2, List.of("inbox"), 10, true);
        recent.add(300, 3, List.of("engine"), 10);
        recent.add(400, 4, List.of("inbox"), 10, true);

        assertThat(timestamps(recent.release(500))).containsExactly(2L, 4L, 1L, 3L);
    }

    @Test
    void a_second_hold_keeps_the_earlier_start() {
        RecentWrites<String> recent = new RecentWrites<>(100, 1 << 20);
        recent.add(950, 1, List.of("a"), 1);
        recent.hold(1_000);
        recent.hold(5_000);
        recent.add(5_000, 2, List.of("b"), 1);

        assertThat(timestamps(recent.release(5_000))).containsExactly(1L, 2L);
    }

    @Test
    void the_byte_bound_drops_the_oldest_even_while_holding_and_counts_them() {
        RecentWrites<String> recent = new RecentWrites<>(1_000, 25);
        recent.hold(0);
        recent.add(1, 1, List.of("a"), 10);
        recent.add(2, 2, List.of("b"), 10);
        recent.add(3, 3, List.of("c"), 10);

        assertThat(recent.bytes()).isEqualTo(20);
        assertThat(recent.takeDropped()).isEqualTo(1);
        assertThat(recent.takeDropped()).isZero();
        assertThat(timestamps(recent.release(4))).containsExactly(2L, 3L);
    }

    @Test
    void a_zero_byte_bound_keeps_nothing() {
        RecentWrites<String> recent = new RecentWrites<>(1_000, 0);
        recent.hold(0);
        recent.add(1, 1, List.of("a"), 10);
        assertThat(recent.release(2)).isEmpty();
        assertThatThrownBy(() -> new RecentWrites<String>(-1, 0)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void the_latest_held_batch_is_the_last_written_since_the_hold_and_later_ones_are_released_with_it() {
        RecentWrites<String> recent = new RecentWrites<>(1_000, 1 << 20);
        recent.add(0, 1, List.of("a"), 10);
        assertThat(recent.latestHeld()).as("nothing is held before a cut").isNull();

        recent.hold(5_000);
        assertThat(recent.latestHeld()).as("the hold starts a window before the cut: t=0 is older").isNull();
        recent.add(5_100, 2, List.of("b"), 10);
        assertThat(recent.latestHeld().timestampMicros()).isEqualTo(2);
        // written after the link was back, before the other DC acknowledged the latest batch
        recent.add(9_000, 3, List.of("c"), 10);
        assertThat(recent.latestHeld().timestampMicros()).isEqualTo(3);

        assertThat(timestamps(recent.release(9_500))).containsExactly(2L, 3L);
        assertThat(recent.latestHeld()).as("released: nothing held").isNull();
    }
}
