package io.geobroker.loadgen;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class DemoCommandTest {

    @Test
    void the_default_load_gets_the_linger_once_two_tickers_of_a_region_fall_in_it() {
        // 600 tickers/s over two regions: 300 a second each, 2.4 in 8 ms
        assertThat(DemoCommand.autoTickerLingerMs(600, 2)).isEqualTo(DemoCommand.AUTO_LINGER_MS);
        // 250 a second each: exactly 2
        assertThat(DemoCommand.autoTickerLingerMs(500, 2)).isEqualTo(DemoCommand.AUTO_LINGER_MS);
    }

    @Test
    void lower_rates_send_each_ticker_at_once() {
        assertThat(DemoCommand.autoTickerLingerMs(450, 2)).isZero();  // three quarters of the load
        assertThat(DemoCommand.autoTickerLingerMs(60, 2)).isZero();   // a tenth
        assertThat(DemoCommand.autoTickerLingerMs(600, 3)).isZero();  // 200 a second in each of three regions
    }
}
