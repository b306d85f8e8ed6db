package io.geobroker.loadgen.driver;

import org.junit.jupiter.api.Test;

import java.io.IOException;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class TickerRateClientTest {

    @Test
    void the_total_rate_is_read_from_the_services_answer() throws Exception {
        String answer = "{\"tickersPerSecond\":600.0,\"split\":{\"ASX\":0.333,\"NYSE\":0.333,\"NASDAQ\":0.334},"
                + "\"perExchange\":{\"ASX\":200.0,\"NYSE\":200.0,\"NASDAQ\":200.0}}";

        assertThat(TickerRateClient.totalRate(answer)).isEqualTo(600.0);
        assertThat(TickerRateClient.totalRate("{\"tickersPerSecond\":0}")).isZero();
    }

    @Test
    void an_answer_without_a_rate_is_an_error_that_quotes_it() {
        assertThatThrownBy(() -> TickerRateClient.totalRate("{\"status\":\"UP\"}"))
                .isInstanceOf(IOException.class).hasMessageContaining("{\"status\":\"UP\"}");
        assertThatThrownBy(() -> TickerRateClient.totalRate("{\"tickersPerSecond\":\"fast\"}"))
                .isInstanceOf(IOException.class);
        assertThatThrownBy(() -> TickerRateClient.totalRate("{\"tickersPerSecond\":-1}"))
                .isInstanceOf(IOException.class);
        assertThatThrownBy(() -> TickerRateClient.totalRate("not json")).isInstanceOf(IOException.class);
    }
}
