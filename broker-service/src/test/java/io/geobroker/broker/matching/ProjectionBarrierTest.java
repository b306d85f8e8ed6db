package io.geobroker.broker.matching;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ProjectionBarrierTest {

    private final AtomicInteger rounds = new AtomicInteger();

    private ProjectionBarrier started(long projected) {
        ProjectionBarrier barrier = new ProjectionBarrier(true, 10_000);
        barrier.started(projected, rounds::incrementAndGet);
        return barrier;
    }

    @Test
    void a_customer_with_nothing_logged_reads_at_once() {
        ProjectionBarrier barrier = started(7);
        barrier.logged(8, List.of("alice"));

        assertThat(barrier.customer("bob")).isCompleted();
        assertThat(rounds).hasValue(0);
    }

    @Test
    void a_read_waits_for_the_last_group_of_its_customer_and_asks_for_a_round() {
        ProjectionBarrier barrier = started(7);
        barrier.logged(8, List.of("alice", "bob"));
        barrier.logged(9, List.of("alice"));

        CompletableFuture<Void> alice = barrier.customer("alice");
        CompletableFuture<Void> bob = barrier.customer("bob");
        assertThat(rounds).hasValue(2);

        barrier.projected(8);
        assertThat(bob).isCompleted();
        assertThat(alice).isNotDone();

        barrier.projected(9);
        assertThat(alice).isCompleted();
        assertThat(barrier.pendingCustomers()).isZero();
        assertThat(barrier.customer("alice")).isCompleted();
    }

    @Test
    void all_waits_for_every_group_logged_before_it() {
        ProjectionBarrier barrier = started(0);
        barrier.logged(1, List.of());
        barrier.logged(2, List.of("alice"));

        CompletableFuture<Void> all = barrier.all();
        barrier.logged(3, List.of("bob"));
        barrier.projected(2);

        assertThat(all).as("groups logged after the call are not waited for").isCompleted();
        assertThat(barrier.all()).isNotDone();
    }

    @Test
    void reads_before_the_start_wait_for_it_without_asking_for_rounds() {
        ProjectionBarrier barrier = new ProjectionBarrier(true, 10_000);

        CompletableFuture<Void> early = barrier.customer("alice");
        assertThat(early).isNotDone();

        barrier.started(0, rounds::incrementAndGet);
        assertThat(early).as("a start writes what the log held first").isCompleted();
        assertThat(rounds).hasValue(0);
    }

    @Test
    void off_when_customers_rows_are_not_logged() {
        ProjectionBarrier barrier = new ProjectionBarrier(false, 10_000);
        barrier.logged(5, List.of("alice"));

        assertThat(barrier.customer("alice")).isCompleted();
        assertThat(barrier.all()).isCompleted();
        barrier.awaitCustomer("alice");
    }

    @Test
    void a_read_that_waits_too_long_is_answered_busy() {
        ProjectionBarrier barrier = new ProjectionBarrier(true, 50);
        barrier.started(3, rounds::incrementAndGet);
        barrier.logged(4, List.of("alice"));

        assertThatThrownBy(() -> barrier.awaitCustomer("alice")).isInstanceOf(Engine.EngineBusyException.class);
        assertThat(barrier.customer("alice")).failsWithin(java.time.Duration.ofSeconds(5))
                .withThrowableOfType(java.util.concurrent.ExecutionException.class)
                .withCauseInstanceOf(Engine.EngineBusyException.class);
    }
}
