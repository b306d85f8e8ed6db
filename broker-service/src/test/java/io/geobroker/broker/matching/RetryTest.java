package io.geobroker.broker.matching;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;

class RetryTest {

    private final List<Long> waits = new ArrayList<>();
    private final Retry retry = new Retry(waits::add);

    @Test
    void a_call_is_made_again_until_it_is_answered_and_each_failure_is_counted() {
        Counter failures = new SimpleMeterRegistry().counter("failures");
        AtomicInteger attempts = new AtomicInteger();

        String answer = retry.untilAnswered("reading", failures, () -> {
            if (attempts.incrementAndGet() < 4) {
                throw new IllegalStateException("no node");
            }
            return "answer";
        });

        assertThat(answer).isEqualTo("answer");
        assertThat(attempts).hasValue(4);
        assertThat(failures.count()).isEqualTo(3);
        assertThat(waits).containsExactly(50L, 100L, 200L);
    }

    @Test
    void the_backoff_doubles_up_to_two_seconds() {
        AtomicInteger attempts = new AtomicInteger();

        retry.write("writing", () -> {
            if (attempts.incrementAndGet() <= 8) {
                throw new IllegalStateException("timeout");
            }
        });

        assertThat(waits).containsExactly(50L, 100L, 200L, 400L, 800L, 1_600L, 2_000L, 2_000L);
    }

    @Test
    void an_answered_call_waits_for_nothing() {
        retry.write("writing", () -> { });

        assertThat(waits).isEmpty();
    }
}
