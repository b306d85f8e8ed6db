package io.geobroker.loadgen.driver;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

class ConcurrencyGateTest {

    /** A task the test completes by hand; records when it started. */
    private static final class Manual implements ConcurrencyGate.Task {
        final int id;
        final List<Integer> startOrder;
        final CompletableFuture<Void> done = new CompletableFuture<>();

        Manual(int id, List<Integer> startOrder) {
            this.id = id;
            this.startOrder = startOrder;
        }

        @Override
        public CompletionStage<?> start() {
            startOrder.add(id);
            return done;
        }
    }

    @Test
    void starts_at_most_the_limit_and_the_waiting_ones_in_arrival_order_as_slots_free() {
        List<Integer> started = new ArrayList<>();
        ConcurrencyGate<Manual> gate = new ConcurrencyGate<>(2);
        List<Manual> tasks = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            Manual t = new Manual(i, started);
            tasks.add(t);
            gate.submit(t);
        }
        assertThat(started).containsExactly(0, 1);
        assertThat(gate.running()).isEqualTo(2);
        assertThat(gate.waiting()).isEqualTo(3);

        tasks.get(1).done.complete(null);
        assertThat(started).containsExactly(0, 1, 2);
        tasks.get(0).done.completeExceptionally(new IllegalStateException("a failed request frees its slot too"));
        assertThat(started).containsExactly(0, 1, 2, 3);
        assertThat(gate.running()).isEqualTo(2);
        assertThat(gate.waiting()).isEqualTo(1);
    }

    @Test
    void close_returns_the_tasks_that_never_started_and_starts_nothing_more() {
        List<Integer> started = new ArrayList<>();
        ConcurrencyGate<Manual> gate = new ConcurrencyGate<>(1);
        Manual first = new Manual(0, started);
        gate.submit(first);
        gate.submit(new Manual(1, started));
        gate.submit(new Manual(2, started));

        List<Manual> never = gate.close();
        first.done.complete(null);
        gate.submit(new Manual(3, started));

        assertThat(never).extracting(m -> m.id).containsExactly(1, 2);
        assertThat(started).containsExactly(0);
        assertThat(gate.running()).isZero();
        assertThat(gate.waiting()).isZero();
    }

    @Test
    void tasks_that_complete_at_once_or_throw_run_through_without_recursion() {
        ConcurrencyGate<ConcurrencyGate.Task> gate = new ConcurrencyGate<>(1);
        Manual blocker = new Manual(-1, new ArrayList<>());
        gate.submit(blocker);
        AtomicInteger ran = new AtomicInteger();
        int many = 100_000;
        for (int i = 0; i < many; i++) {
            boolean fail = i % 2 == 0;
            gate.submit(() -> {
                ran.incrementAndGet();
                if (fail) {
                    throw new IllegalStateException("cannot send");
                }
                return CompletableFuture.completedFuture(null);
            });
        }
        assertThat(gate.waiting()).isEqualTo(many);

        // 100 000 tasks queued behind one slot: recursion per task would overflow the stack here
        blocker.done.complete(null);

        assertThat(ran).hasValue(many);
        assertThat(gate.running()).isZero();
        assertThat(gate.waiting()).isZero();
    }

    @Test
    void never_exceeds_the_limit_when_tasks_complete_on_other_threads() throws Exception {
        int limit = 4;
        ConcurrencyGate<ConcurrencyGate.Task> gate = new ConcurrencyGate<>(limit);
        ExecutorService completer = Executors.newFixedThreadPool(4);
        AtomicInteger running = new AtomicInteger();
        AtomicInteger highest = new AtomicInteger();
        AtomicInteger finished = new AtomicInteger();
        int tasks = 20_000;
        try {
            for (int i = 0; i < tasks; i++) {
                gate.submit(() -> {
                    highest.accumulateAndGet(running.incrementAndGet(), Math::max);
                    return CompletableFuture.runAsync(() -> {
                        running.decrementAndGet();
                        finished.incrementAndGet();
                    }, completer);
                });
            }
            // every task starts (the gate hands free slots on from the completing threads)
            await().atMost(30, TimeUnit.SECONDS).until(() -> finished.get() == tasks);
        } finally {
            completer.shutdownNow();
        }
        assertThat(highest.get()).isBetween(1, limit);
        assertThat(gate.running()).isZero();
    }

    @Test
    void a_limit_below_one_is_refused() {
        assertThatThrownBy(() -> new ConcurrencyGate<>(0)).isInstanceOf(IllegalArgumentException.class);
    }
}
