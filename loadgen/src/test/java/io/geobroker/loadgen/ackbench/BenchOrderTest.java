package io.geobroker.loadgen.ackbench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.geobroker.domain.SymbolDirectory;
import io.geobroker.domain.SymbolInfo;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class BenchOrderTest {

    @Test
    void the_resting_price_is_on_the_tick_grid_and_at_most_half_the_start_price() {
        for (SymbolInfo s : SymbolDirectory.standard().symbols()) {
            long price = BenchOrder.restingBuyPrice(s);
            assertThat(s.isValidPrice(price)).as(s.symbol()).isTrue();
            assertThat(price).as(s.symbol()).isLessThanOrEqualTo(Math.max(s.tickSize(), s.startPrice() / 2));
            assertThat(price).as(s.symbol()).isGreaterThan(s.startPrice() / 2 - s.tickSize());
        }
    }

    @Test
    void a_coarse_tick_rounds_down_and_never_below_one_tick() {
        SymbolInfo coarse = new SymbolInfo("X", "NYSE", "x", "x", 25, 1_003);
        long price = BenchOrder.restingBuyPrice(coarse);
        assertThat(price % 25).isZero();
        assertThat(price).isLessThanOrEqualTo(1_003 / 2).isGreaterThan(1_003 / 2 - 25);
        assertThat(BenchOrder.restingBuyPrice(new SymbolInfo("Y", "NYSE", "y", "y", 25, 30))).isEqualTo(25);
    }

    @Test
    void the_rest_body_is_a_day_limit_buy_of_one_share_in_minor_units() throws Exception {
        BenchOrder order = new BenchOrder("ab1-25c-3-7", "AAPL", 9_500, 2);
        JsonNode body = new ObjectMapper().readTree(order.json());
        assertThat(body.path("clientOrderId").asText()).isEqualTo(order.clientOrderId());
        assertThat(body.path("symbol").asText()).isEqualTo("AAPL");
        assertThat(body.path("side").asText()).isEqualTo("BUY");
        assertThat(body.path("type").asText()).isEqualTo("LIMIT");
        assertThat(body.path("quantity").asLong()).isEqualTo(BenchOrder.QUANTITY);
        assertThat(body.path("limitPrice").isIntegralNumber()).isTrue();
        assertThat(body.path("limitPrice").asLong()).isEqualTo(9_500);
        assertThat(body.path("timeInForce").asText()).isEqualTo("DAY");
    }
}
