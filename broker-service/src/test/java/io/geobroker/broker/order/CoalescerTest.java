package io.geobroker.broker.order;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class CoalescerTest {

    /** A request the test answers when it chooses. */
    private record Sent(String lane, List<Integer> items, CompletableFuture<List<String>> answer) {

        void answerEach() {
            answer.complete(items.stream().map(i -> "row " + i).toList());
        }
    }

    private final List<Sent> sent = new ArrayList<>();

    private Coalescer<String, Integer, String> coalescer(int maxItems) {
        return new Coalescer<>((lane, items) -> {
            Sent s = new Sent(lane, items, new CompletableFuture<>());
            sent.add(s);
            return s.answer();
        }, maxItems);
    }

    @Test
    void an_item_that_finds_its_lane_idle_is_sent_at_once_alone() {
        var c = coalescer(64);
        CompletableFuture<String> result = c.submit("alice", 1);

        assertThat(sent).singleElement().extracting(Sent::items).isEqualTo(List.of(1));
        sent.get(0).answerEach();
        assertThat(result.join()).isEqualTo("row 1");
        assertThat(c.busyLanes()).isZero();
    }

    @Test
    void items_that_come_while_a_request_is_under_way_go_together_in_the_next_each_with_its_own_result() {
        var c = coalescer(64);
        var first = c.submit("alice", 1);
        var second = c.submit("alice", 2);
        var third = c.submit("alice", 3);

        assertThat(sent).hasSize(1);
        assertThat(second).isNotDone();
        sent.get(0).answerEach();
        assertThat(first.join()).isEqualTo("row 1");

        assertThat(sent).hasSize(2);
        assertThat(sent.get(1).items()).containsExactly(2, 3);
        sent.get(1).answerEach();
        assertThat(second.join()).isEqualTo("row 2");
        assertThat(third.join()).isEqualTo("row 3");
        assertThat(sent).hasSize(2);
        assertThat(c.busyLanes()).isZero();
    }

    @Test
    void another_lane_does_not_wait_for_a_request_under_way() {
        var c = coalescer(64);
        c.submit("alice", 1);
        var bob = c.submit("bob", 1);

        assertThat(sent).extracting(Sent::lane).containsExactly("alice", "bob");
        sent.get(1).answerEach();
        assertThat(bob.join()).isEqualTo("row 1");
        assertThat(c.busyLanes()).isEqualTo(1);
    }

    @Test
    void a_failed_request_fails_its_items_and_the_next_ones_are_still_sent() {
        var c = coalescer(64);
        var first = c.submit("alice", 1);
        var second = c.submit("alice", 2);
        sent.get(0).answer().completeExceptionally(new IllegalStateException("read timed out"));

        assertThatThrownBy(first::join).isInstanceOf(CompletionException.class)
                .hasCauseInstanceOf(IllegalStateException.class);
        assertThat(sent).hasSize(2);
        sent.get(1).answerEach();
        assertThat(second.join()).isEqualTo("row 2");
    }

    @Test
    void a_sender_that_throws_fails_the_item_without_stalling_its_lane() {
        List<List<Integer>> asked = new ArrayList<>();
        var c = new Coalescer<String, Integer, String>((lane, items) -> {
            asked.add(items);
            if (items.contains(1)) {
                throw new IllegalStateException("no node available");
            }
            return CompletableFuture.completedFuture(List.of("row 2"));
        }, 64);

        assertThatThrownBy(() -> c.submit("alice", 1).join()).hasCauseInstanceOf(IllegalStateException.class);
        assertThat(c.submit("alice", 2).join()).isEqualTo("row 2");
        assertThat(asked).containsExactly(List.of(1), List.of(2));
        assertThat(c.busyLanes()).isZero();
    }

    @Test
    void a_sender_answering_the_wrong_number_of_results_fails_the_items_instead_of_mixing_them_up() {
        var c = coalescer(64);
        c.submit("alice", 1);
        var second = c.submit("alice", 2);
        var third = c.submit("alice", 3);
        sent.get(0).answerEach();
        sent.get(1).answer().complete(List.of("row 2"));

        assertThatThrownBy(second::join).hasCauseInstanceOf(IllegalStateException.class);
        assertThatThrownBy(third::join).hasCauseInstanceOf(IllegalStateException.class);
        assertThat(c.busyLanes()).isZero();
    }

    @Test
    void no_request_carries_more_items_than_its_bound() {
        var c = coalescer(2);
        c.submit("alice", 1);
        var waiting = List.of(c.submit("alice", 2), c.submit("alice", 3), c.submit("alice", 4),
                c.submit("alice", 5), c.submit("alice", 6));

        for (int i = 0; i < 4; i++) {
            sent.get(i).answerEach();
        }

        assertThat(sent).extracting(Sent::items)
                .containsExactly(List.of(1), List.of(2, 3), List.of(4, 5), List.of(6));
        assertThat(waiting).extracting(CompletableFuture::join)
                .containsExactly("row 2", "row 3", "row 4", "row 5", "row 6");
        assertThat(c.busyLanes()).isZero();
    }
}
