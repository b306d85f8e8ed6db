package io.geobroker.ticker.rate;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

class RateSettingsTest {

    private static final List<String> EXCHANGES = List.of("ASX", "NYSE", "NASDAQ");

    @Test
    void splits_the_total_rate_between_exchanges() {
        RateSettings settings = RateSettings.of(1_000, Map.of("NYSE", 0.4, "NASDAQ", 0.4, "ASX", 0.2), EXCHANGES);
        assertThat(settings.rateOf("NYSE")).isCloseTo(400, within(1e-9));
        assertThat(settings.rateOf("ASX")).isCloseTo(200, within(1e-9));
    }

    @Test
    void exchanges_left_out_of_a_split_are_paused() {
        RateSettings settings = RateSettings.of(1_000, Map.of("NYSE", 1.0), EXCHANGES);
        assertThat(settings.rateOf("ASX")).isZero();
        assertThat(settings.split()).containsOnlyKeys(EXCHANGES);
    }

    @Test
    void rejects_a_negative_rate_an_unknown_exchange_and_a_negative_fraction_all_at_once() {
        assertThatThrownBy(() -> RateSettings.of(-1, Map.of("XETR", 0.5, "NYSE", -0.5), EXCHANGES))
                .isInstanceOfSatisfying(InvalidRateException.class, e -> assertThat(e.problems()).containsExactlyInAnyOrder(
                        "tickersPerSecond must be zero or positive, was -1.0",
                        "split names exchange 'XETR', which this instance does not publish; it publishes [ASX, NYSE, NASDAQ]",
                        "split fraction of NYSE must be zero or positive, was -0.5"));
    }

    @Test
    void rejects_fractions_that_do_not_add_up_to_one() {
        assertThatThrownBy(() -> RateSettings.of(10, Map.of("NYSE", 0.5, "ASX", 0.4), EXCHANGES))
                .hasMessage("split fractions must add up to 1, they add up to 0.9");
    }

    @Test
    void rejects_not_a_number_and_absurd_rates() {
        assertThatThrownBy(() -> RateSettings.of(Double.NaN, Map.of("NYSE", 1.0), EXCHANGES))
                .hasMessageContaining("must be zero or positive");
        assertThatThrownBy(() -> RateSettings.of(1e9, Map.of("NYSE", 1.0), EXCHANGES))
                .hasMessageContaining("at most 10000000");
    }

    @Test
    void parses_a_split_from_the_command_line() {
        assertThat(RateSettings.parseSplit("NYSE:0.4, NASDAQ=0.4,ASX:0.2"))
                .containsExactly(Map.entry("NYSE", 0.4), Map.entry("NASDAQ", 0.4), Map.entry("ASX", 0.2));
        assertThatThrownBy(() -> RateSettings.parseSplit("NYSE:abc,ASX"))
                .isInstanceOfSatisfying(InvalidRateException.class, e -> assertThat(e.problems()).containsExactly(
                        "split fraction of NYSE is not a number: 'abc'", "split entry 'ASX' is not EXCHANGE:FRACTION"));
    }

    @Test
    void the_default_split_gives_every_symbol_the_same_rate() {
        Map<String, Double> split = RateSettings.proportional(Map.of("NYSE", 50, "ASX", 25, "NASDAQ", 25));
        assertThat(split.get("NYSE")).isCloseTo(0.5, within(1e-12));
        assertThat(split.get("ASX")).isCloseTo(0.25, within(1e-12));
    }

    @Test
    void a_failed_update_keeps_the_current_settings() {
        RateControl control = new RateControl(EXCHANGES, RateSettings.of(100, Map.of("NYSE", 1.0), EXCHANGES));
        assertThatThrownBy(() -> control.update(-5, null)).isInstanceOf(InvalidRateException.class);
        assertThat(control.current().tickersPerSecond()).isEqualTo(100);
        control.update(300, null);
        assertThat(control.current().rateOf("NYSE")).isEqualTo(300);
    }
}
