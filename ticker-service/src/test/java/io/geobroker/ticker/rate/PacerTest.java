package io.geobroker.ticker.rate;

import org.junit.jupiter.api.Test;

import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

class PacerTest {

    private static final long MS = 1_000_000;
    private static final long SECOND = 1_000 * MS;

    /** Runs a pacer from {@code start} to {@code end} waking up at irregular times; returns how many it sent. */
    private static long run(Pacer pacer, double rate, long start, long end, long seed) {
        Random random = new Random(seed);
        long now = start;
        long sent = 0;
        while (now < end) {
            pacer.rate(rate, now);
            int due = pacer.due(now, 1_000);
            pacer.sent(due);
            sent += due;
            now += due > 0 ? random.nextInt(50_000) : Math.min(pacer.nanosUntilNext(now), 10 * MS) + random.nextInt(80_000);
        }
        return sent;
    }

    @Test
    void sends_the_rate_by_absolute_time_whatever_the_wake_up_jitter() {
        Pacer pacer = new Pacer(100 * MS);
        long sent = run(pacer, 50_000, 0, 10 * SECOND, 1);
        assertThat(sent).isBetween(499_990L, 500_010L);
        assertThat(pacer.missed()).isZero();
    }

    @Test
    void a_low_rate_does_not_drift() {
        Pacer pacer = new Pacer(100 * MS);
        assertThat(run(pacer, 7, 0, 1_000 * SECOND, 2)).isBetween(6_999L, 7_001L);
    }

    @Test
    void catches_up_after_a_stall_but_only_as_far_as_the_bound() {
        Pacer pacer = new Pacer(100 * MS);
        pacer.rate(1_000, 0);
        pacer.sent(pacer.due(0, 1_000));
        int burst = pacer.due(2 * SECOND, 100_000);
        assertThat(burst).isEqualTo(101);
        assertThat(pacer.missed()).isEqualTo(2_000 - 101);
    }

    @Test
    void a_burst_is_limited_and_the_rest_follows_at_once() {
        Pacer pacer = new Pacer(SECOND);
        pacer.rate(10_000, 0);
        assertThat(pacer.due(SECOND / 2, 1_000)).isEqualTo(1_000);
        pacer.sent(1_000);
        assertThat(pacer.due(SECOND / 2, 100_000)).isEqualTo(4_001);
        assertThat(pacer.nanosUntilNext(SECOND / 2)).isZero();
    }

    @Test
    void a_rate_change_applies_from_the_moment_it_is_seen() {
        Pacer pacer = new Pacer(100 * MS);
        long sent = run(pacer, 100, 0, 5 * SECOND, 3);
        sent += run(pacer, 2_000, 5 * SECOND, 10 * SECOND, 4);
        assertThat(sent).isBetween(500L + 10_000 - 2, 500L + 10_000 + 2);
    }

    @Test
    void rate_zero_sends_nothing() {
        Pacer pacer = new Pacer(100 * MS);
        assertThat(run(pacer, 0, 0, 5 * SECOND, 5)).isZero();
        assertThat(pacer.nanosUntilNext(0)).isEqualTo(Long.MAX_VALUE);
    }
}
