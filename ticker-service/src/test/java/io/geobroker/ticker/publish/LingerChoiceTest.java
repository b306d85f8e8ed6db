package io.geobroker.ticker.publish;

import org.junit.jupiter.api.Test;

import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class LingerChoiceTest {

    private static final long MS = TimeUnit.MILLISECONDS.toNanos(1);

    /** Sends {@code perSecond} evenly from {@code start} for {@code millis}; returns the last choice. */
    private static boolean sendAt(LingerChoice choice, double perSecond, long start, long millis) {
        long interval = (long) (1e9 / perSecond);
        boolean linger = false;
        for (long t = start; t < start + millis * MS; t += interval) {
            linger = choice.onSend(t);
        }
        return linger;
    }

    @Test
    void tickers_go_at_once_below_the_rate_and_linger_from_it() {
        LingerChoice slow = new LingerChoice(125, 0);
        assertThat(sendAt(slow, 75, 0, 2_000)).isFalse();

        LingerChoice fast = new LingerChoice(125, 0);
        assertThat(fast.onSend(0)).isFalse();
        assertThat(sendAt(fast, 300, 1, 2_000)).isTrue();
    }

    @Test
    void a_rate_between_the_threshold_and_its_hysteresis_keeps_the_choice_made() {
        LingerChoice choice = new LingerChoice(125, 0);
        assertThat(sendAt(choice, 300, 0, 1_000)).isTrue();
        assertThat(sendAt(choice, 110, 1_000 * MS, 2_000)).as("110/s is above 80 %% of 125").isTrue();
        assertThat(sendAt(choice, 90, 3_000 * MS, 2_000)).as("90/s is below it").isFalse();
        assertThat(sendAt(choice, 110, 5_000 * MS, 2_000)).as("and 110/s is below 125").isFalse();
    }

    @Test
    void the_first_ticker_after_a_pause_goes_at_once() {
        LingerChoice choice = new LingerChoice(125, 0);
        assertThat(sendAt(choice, 300, 0, 1_000)).isTrue();

        assertThat(choice.onSend(10_000 * MS)).isFalse();
    }

    @Test
    void a_threshold_of_zero_lingers_always_and_a_negative_one_is_refused() {
        LingerChoice always = new LingerChoice(0, 0);
        assertThat(always.onSend(0)).isTrue();
        assertThat(always.onSend(10_000 * MS)).isTrue();
        assertThatThrownBy(() -> new LingerChoice(-1, 0)).isInstanceOf(IllegalArgumentException.class);
    }
}
