package io.geobroker.ticker.rate;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;

/** The loop's stamps on a simulated clock: every send carries its scheduled time, not the time it went out. */
class PacedLoopTest {

    private static final long MS = 1_000_000;
    private static final long WALL_AT_ZERO_MICROS = 1_700_000_000_000_000L;

    /** A monotonic clock that moves 1 µs per reading and as far as the test says; the wall clock follows it. */
    private final AtomicLong nanos = new AtomicLong();

    private PacedLoop loop(double rate, long maxCatchUpNanos, PacedLoop.Step step) {
        return new PacedLoop("test", () -> rate, maxCatchUpNanos, step, missed -> { },
                () -> nanos.addAndGet(1_000), () -> WALL_AT_ZERO_MICROS + nanos.get() / 1_000);
    }

    @Test
    void a_slow_send_does_not_move_the_stamps_of_the_sends_after_it() {
        List<Long> stamps = new ArrayList<>();
        // 100/s: one send due every 10 ms; each send takes 35 ms, so the loop falls further behind with every send
        PacedLoop loop = loop(100, 10_000 * MS, scheduled -> {
            stamps.add(scheduled);
            nanos.addAndGet(35 * MS);
            return stamps.size() < 6;
        });

        loop.run();

        assertThat(stamps).hasSize(6);
        long first = stamps.get(0);
        assertThat(first - WALL_AT_ZERO_MICROS).isBetween(0L, 10L);
        assertThat(stamps).containsExactly(first, first + 10_000, first + 20_000, first + 30_000, first + 40_000,
                first + 50_000);
        assertThat(nanos.get()).isGreaterThan(6 * 35 * MS);
    }

    @Test
    void sends_dropped_after_a_long_stall_leave_the_stamps_of_the_rest_on_their_own_slots() {
        List<Long> stamps = new ArrayList<>();
        // 1,000/s with 5 ms of catch-up: a 100 ms stall after the first send drops the slots older than 5 ms
        PacedLoop loop = loop(1_000, 5 * MS, scheduled -> {
            stamps.add(scheduled);
            if (stamps.size() == 1) {
                nanos.addAndGet(100 * MS);
            }
            return stamps.size() < 4;
        });

        loop.run();

        long first = stamps.get(0);
        long sinceFirst = stamps.get(1) - first;
        assertThat(sinceFirst).isBetween(94_000L, 96_000L);
        assertThat(stamps.subList(1, 4)).containsExactly(first + sinceFirst, first + sinceFirst + 1_000,
                first + sinceFirst + 2_000);
    }
}
