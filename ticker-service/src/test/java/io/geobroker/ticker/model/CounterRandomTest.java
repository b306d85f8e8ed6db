package io.geobroker.ticker.model;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

class CounterRandomTest {

    @Test
    void a_draw_depends_only_on_seed_stream_and_counter() {
        CounterRandom one = new CounterRandom(42);
        CounterRandom other = new CounterRandom(42);
        long key = CounterRandom.key("symbol:AAPL");
        other.bits(key, 5);
        assertThat(one.bits(key, 17)).isEqualTo(other.bits(key, 17));
        assertThat(one.bits(key, 17)).isNotEqualTo(one.bits(key, 18));
        assertThat(one.bits(key, 17)).isNotEqualTo(new CounterRandom(43).bits(key, 17));
        assertThat(CounterRandom.key("sector:Energy")).isNotEqualTo(CounterRandom.key("sector:Energ"));
    }

    @Test
    void gaussian_draws_have_mean_zero_and_variance_one() {
        CounterRandom random = new CounterRandom(1);
        long key = CounterRandom.key("test");
        int n = 200_000;
        double sum = 0;
        double sumSquares = 0;
        for (int i = 0; i < n; i++) {
            double z = random.gaussian(key, i);
            sum += z;
            sumSquares += z * z;
        }
        assertThat(sum / n).isCloseTo(0, within(0.01));
        assertThat(sumSquares / n).isCloseTo(1, within(0.02));
    }

    @Test
    void uniform_draws_stay_in_the_unit_interval() {
        CounterRandom random = new CounterRandom(2);
        for (int i = 0; i < 100_000; i++) {
            assertThat(random.uniform(3, i)).isGreaterThanOrEqualTo(0).isLessThan(1);
        }
    }
}
