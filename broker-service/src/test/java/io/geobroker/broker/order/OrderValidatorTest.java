package io.geobroker.broker.order;

import io.geobroker.broker.web.ApiProblem;
import io.geobroker.domain.OrderType;
import io.geobroker.domain.Side;
import io.geobroker.domain.SymbolDirectory;
import io.geobroker.domain.TimeInForce;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class OrderValidatorTest {

    private final OrderValidator validator = new OrderValidator(SymbolDirectory.standard());

    private NewOrder validate(PlaceOrderRequest r) {
        return validator.validate("c1", r, "nvirginia", "nvirginia");
    }

    private static int status(Throwable t) {
        return ((ApiProblem) t).detail().getStatus();
    }

    @Test
    void a_limit_order_defaults_to_day_and_not_all_or_none() {
        NewOrder o = validate(new PlaceOrderRequest("a", "AAPL", Side.BUY, OrderType.LIMIT, 10L, 19_000L, null, null, null));
        assertThat(o.timeInForce()).isEqualTo(TimeInForce.DAY);
        assertThat(o.allOrNone()).isFalse();
        assertThat(o.currency()).isEqualTo("USD");
        assertThat(o.orderId()).isEqualTo(OrderIds.orderId("c1", "a"));
    }

    @Test
    void rejects_non_positive_quantity_with_400() {
        assertThatThrownBy(() -> validate(new PlaceOrderRequest("a", "AAPL", Side.BUY, OrderType.MARKET, 0L, null, null, null, null)))
                .satisfies(t -> assertThat(status(t)).isEqualTo(400));
    }

    @Test
    void rejects_a_price_on_the_wrong_order_type_with_400() {
        assertThatThrownBy(() -> validate(new PlaceOrderRequest("a", "AAPL", Side.BUY, OrderType.MARKET, 1L, 100L, null, null, null)))
                .satisfies(t -> assertThat(status(t)).isEqualTo(400));
        assertThatThrownBy(() -> validate(new PlaceOrderRequest("a", "AAPL", Side.BUY, OrderType.STOP_LIMIT, 1L, 100L, null, null, null)))
                .satisfies(t -> assertThat(status(t)).isEqualTo(400));
        assertThatThrownBy(() -> validate(new PlaceOrderRequest("a", "AAPL", Side.BUY, OrderType.LIMIT, 1L, 100L, 90L, null, null)))
                .satisfies(t -> assertThat(status(t)).isEqualTo(400));
    }

    @Test
    void rejects_unknown_symbols_with_422() {
        assertThatThrownBy(() -> validate(new PlaceOrderRequest("a", "NOPE", Side.BUY, OrderType.MARKET, 1L, null, null, null, null)))
                .satisfies(t -> assertThat(status(t)).isEqualTo(422));
    }

    @Test
    void rejects_missing_or_overlong_client_order_ids() {
        assertThatThrownBy(() -> validate(new PlaceOrderRequest(null, "AAPL", Side.BUY, OrderType.MARKET, 1L, null, null, null, null)))
                .satisfies(t -> assertThat(status(t)).isEqualTo(400));
        assertThatThrownBy(() -> validate(new PlaceOrderRequest("x".repeat(65), "AAPL", Side.BUY, OrderType.MARKET, 1L, null, null, null, null)))
                .satisfies(t -> assertThat(status(t)).isEqualTo(400));
    }

    @Test
    void order_and_fill_ids_are_deterministic_and_distinct() {
        assertThat(OrderIds.orderId("c1", "a")).isEqualTo(OrderIds.orderId("c1", "a"))
                .isNotEqualTo(OrderIds.orderId("c2", "a"));
        var id = OrderIds.orderId("c1", "a");
        assertThat(OrderIds.fillId(id, 7)).isEqualTo(OrderIds.fillId(id, 7)).isNotEqualTo(OrderIds.fillId(id, 8));
    }
}
