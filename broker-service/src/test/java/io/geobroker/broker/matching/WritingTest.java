package io.geobroker.broker.matching;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class WritingTest {

    private final List<String> visible = new ArrayList<>();
    private final AtomicInteger wakes = new AtomicInteger();

    private Writing writing(int maxGroups) {
        return new Writing(maxGroups, wakes::incrementAndGet, new SimpleMeterRegistry().timer("wait"));
    }

    /** Adds a group whose write is {@code write}, made visible under {@code name}. */
    private void add(Writing writing, String name, CompletableFuture<Void> write) throws InterruptedException {
        writing.add(() -> write, written -> visible.add(name), Map.of(), List.of());
    }

    @Test
    void groups_become_visible_in_the_order_they_were_built_whatever_order_their_writes_are_answered_in()
            throws InterruptedException {
        Writing writing = writing(8);
        CompletableFuture<Void> first = new CompletableFuture<>();
        CompletableFuture<Void> second = new CompletableFuture<>();
        CompletableFuture<Void> third = new CompletableFuture<>();
        add(writing, "g1", first);
        add(writing, "g2", second);
        add(writing, "g3", third);

        second.complete(null);
        third.complete(null);
        writing.answerWritten();
        assertThat(visible).as("g2 and g3 wait for g1").isEmpty();
        assertThat(writing.size()).isEqualTo(3);

        first.complete(null);
        writing.answerWritten();
        assertThat(visible).containsExactly("g1", "g2", "g3");
        assertThat(writing.isEmpty()).isTrue();
        assertThat(wakes).as("each answered write wakes the engine").hasValue(3);
    }

    @Test
    void a_failed_write_still_reaches_its_durable_step_which_writes_it_again_before_the_next_group()
            throws InterruptedException {
        Writing writing = writing(8);
        CompletableFuture<Void> failed = new CompletableFuture<>();
        writing.add(() -> failed, written -> visible.add(written.isCompletedExceptionally()
                ? "g1 failed: written again, then visible" : "g1"), Map.of(), List.of());
        add(writing, "g2", CompletableFuture.completedFuture(null));

        failed.completeExceptionally(new IllegalStateException("write timeout"));
        writing.answerWritten();

        assertThat(visible).containsExactly("g1 failed: written again, then visible", "g2");
    }

    @Test
    void a_full_pipeline_waits_for_its_oldest_write_before_starting_another() throws Exception {
        Writing writing = writing(2);
        CompletableFuture<Void> first = new CompletableFuture<>();
        add(writing, "g1", first);
        add(writing, "g2", new CompletableFuture<>());

        CountDownLatch added = new CountDownLatch(1);
        AtomicInteger started = new AtomicInteger();
        Thread engine = new Thread(() -> {
            try {
                writing.add(() -> {
                    started.incrementAndGet();
                    return new CompletableFuture<>();
                }, written -> visible.add("g3"), Map.of(), List.of());
                added.countDown();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        engine.start();
        assertThat(added.await(200, TimeUnit.MILLISECONDS)).as("g3 waits while two groups are under way").isFalse();
        assertThat(started).as("its write not started").hasValue(0);

        first.complete(null);
        assertThat(added.await(10, TimeUnit.SECONDS)).as("g3 taken once g1 is durable").isTrue();
        engine.join();
        assertThat(started).hasValue(1);
        assertThat(visible).containsExactly("g1");
        assertThat(writing.size()).isEqualTo(2);
    }

    @Test
    void a_group_written_the_older_way_waits_for_every_write_under_way_then_writes() throws Exception {
        Writing writing = writing(4);
        CompletableFuture<Void> first = new CompletableFuture<>();
        CompletableFuture<Void> second = new CompletableFuture<>();
        add(writing, "g1", first);
        add(writing, "g2", second);
        CompletableFuture.runAsync(() -> {
            first.complete(null);
            second.complete(null);
        }, CompletableFuture.delayedExecutor(50, TimeUnit.MILLISECONDS));

        writing.writeNow(List.of(), () -> visible.add("g3 written"));

        assertThat(visible).containsExactly("g1", "g2", "g3 written");
        assertThat(writing.isEmpty()).isTrue();
    }

    @Test
    void a_group_holds_its_tickers_back_while_the_groups_before_it_become_visible() throws Exception {
        Command.TickerReceived quote = new Command.TickerReceived(null, "tickers.NASDAQ", 0, 110, 0);
        List<List<Command.TickerReceived>> heldWhenVisible = new ArrayList<>();
        Writing writing = writing(1);
        CompletableFuture<Void> first = new CompletableFuture<>();
        writing.add(() -> first, written -> heldWhenVisible.add(writing.held()), Map.of(), List.of());
        first.complete(null);
        // g2 released its symbol's held ticker when committed: g1's offsets must still stop before it
        writing.add(CompletableFuture::new, written -> { }, Map.of(), List.of(quote));
        assertThat(heldWhenVisible).containsExactly(List.of(quote));

        CompletableFuture<Void> third = new CompletableFuture<>();
        Writing other = writing(4);
        other.add(() -> third, written -> heldWhenVisible.add(other.held()), Map.of(), List.of());
        third.complete(null);
        other.writeNow(List.of(quote), () -> heldWhenVisible.add(other.held()));
        assertThat(heldWhenVisible).as("while the groups before it become visible and while it is written")
                .containsExactly(List.of(quote), List.of(quote), List.of(quote));
        assertThat(other.held()).as("once written").isEmpty();
    }

    @Test
    void the_groups_under_way_keep_their_fills_republish_point_and_their_held_offsets() throws InterruptedException {
        SymbolState aapl = TestOrders.symbol("AAPL");
        SymbolState msft = TestOrders.symbol("MSFT");
        Command.TickerReceived held1 = new Command.TickerReceived(null, "tickers.NASDAQ", 0, 17, 0);
        Command.TickerReceived held2 = new Command.TickerReceived(null, "tickers.NASDAQ", 0, 9, 0);
        Writing writing = writing(4);
        CompletableFuture<Void> first = new CompletableFuture<>();
        writing.add(() -> first, written -> { }, Map.of(aapl, 40L), List.of(held1));
        writing.add(CompletableFuture::new, written -> { }, Map.of(aapl, 44L, msft, 50L), List.of(held2));

        assertThat(writing.firstSequence(aapl)).as("the oldest group under way that fills AAPL").isEqualTo(40L);
        assertThat(writing.firstSequence(msft)).isEqualTo(50L);
        assertThat(writing.firstSequence(TestOrders.symbol("IBM"))).isNull();
        assertThat(InFlight.committable(InFlight.held(List.of(aapl, msft), writing.held()), "tickers.NASDAQ", 0, 30))
                .as("offsets stop at the first ticker a group under way holds back").isEqualTo(9);

        first.complete(null);
        writing.answerWritten();
        assertThat(writing.firstSequence(aapl)).as("once the first group is durable").isEqualTo(44L);
        assertThat(writing.held()).containsExactly(held2);
    }

    @Test
    void between_one_and_the_slots_a_start_clears_may_be_under_way() {
        assertThatThrownBy(() -> writing(0)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> writing(EngineLog.MAX_GROUPS_IN_FLIGHT + 1)).isInstanceOf(IllegalArgumentException.class);
        assertThat(writing(EngineLog.MAX_GROUPS_IN_FLIGHT).isEmpty()).isTrue();
    }
}
