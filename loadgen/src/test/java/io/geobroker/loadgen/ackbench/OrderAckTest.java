package io.geobroker.loadgen.ackbench;

import io.geobroker.domain.SymbolDirectory;
import org.junit.jupiter.api.Test;
import quickfix.FieldNotFound;
import quickfix.field.ExecType;
import quickfix.fix44.NewOrderSingle;

import java.nio.charset.StandardCharsets;
import java.time.LocalDateTime;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/** How each protocol's answer counts, how a FIX order is encoded and how a round names its orders. */
class OrderAckTest {

    @Test
    void an_http_answer_is_accepted_rejected_or_an_error() {
        byte[] open = "{\"status\":\"OPEN\"}".getBytes(StandardCharsets.UTF_8);
        assertThat(RestOrderEntry.ack(201, open).outcome()).isEqualTo(Ack.Outcome.ACCEPTED);
        assertThat(RestOrderEntry.ack(202, "{\"status\":\"PENDING\"}".getBytes(StandardCharsets.UTF_8)).outcome())
                .isEqualTo(Ack.Outcome.ACCEPTED);
        Ack rejected = RestOrderEntry.ack(201, "{\"status\":\"REJECTED\",\"rejectReason\":\"insufficient cash\"}"
                .getBytes(StandardCharsets.UTF_8));
        assertThat(rejected.outcome()).isEqualTo(Ack.Outcome.REJECTED);
        assertThat(rejected.detail()).contains("insufficient cash");
        Ack unprocessable = RestOrderEntry.ack(422, "{\"title\":\"Order rejected\",\"detail\":\"price off the tick grid\"}"
                .getBytes(StandardCharsets.UTF_8));
        assertThat(unprocessable.outcome()).isEqualTo(Ack.Outcome.REJECTED);
        assertThat(unprocessable.detail()).isEqualTo("http-422: price off the tick grid");
        assertThat(RestOrderEntry.ack(200, open).outcome()).as("a repeated clientOrderId").isEqualTo(Ack.Outcome.REJECTED);
        assertThat(RestOrderEntry.ack(503, new byte[0])).isEqualTo(Ack.error("http-503"));
    }

    @Test
    void the_first_execution_report_accepts_unless_rejected() {
        assertThat(FixOrderEntry.ack(ExecType.NEW, "")).isEqualTo(Ack.ACCEPTED);
        assertThat(FixOrderEntry.ack(ExecType.PENDING_NEW, "")).isEqualTo(Ack.ACCEPTED);
        assertThat(FixOrderEntry.ack(ExecType.REJECTED, "unknown symbol")).isEqualTo(Ack.rejected("unknown symbol"));
        assertThat(FixOrderEntry.ack(ExecType.REJECTED, "").outcome()).isEqualTo(Ack.Outcome.REJECTED);
    }

    @Test
    void a_new_order_single_carries_the_price_as_a_decimal() throws FieldNotFound {
        BenchOrder order = new BenchOrder("ab1-5c-0-42", "AAPL", 19_025, 2);
        NewOrderSingle m = FixOrderEntry.newOrderSingle(order, LocalDateTime.of(2026, 11, 25, 14, 30, 0, 123_000_000));
        assertThat(m.getHeader().getString(35)).isEqualTo("D");
        assertThat(m.getString(11)).isEqualTo(order.clientOrderId());
        assertThat(m.getString(55)).isEqualTo("AAPL");
        assertThat(m.getString(54)).isEqualTo("1");
        assertThat(m.getString(40)).isEqualTo("2");
        assertThat(m.getString(44)).isEqualTo("190.25");
        assertThat(DecimalPrice.toMinorUnits(m.getDecimal(44), 2)).isEqualTo(order.limitPrice());
        assertThat(m.getDecimal(38).longValueExact()).isEqualTo(BenchOrder.QUANTITY);
        assertThat(m.getString(59)).isEqualTo("0");
        assertThat(m.getString(60)).isEqualTo("20261125-14:30:00.123");
        assertThat(m.isSetField(99)).as("no StopPx on a limit order").isFalse();
    }

    @Test
    void orders_of_a_round_have_distinct_ids_and_stay_on_one_symbol_per_client() {
        List<io.geobroker.domain.SymbolInfo> symbols = SymbolDirectory.standard().symbolsOf("NASDAQ").subList(0, 3);
        ClosedLoop.Orders orders = AckBench.ordersOf("abx-25c", symbols, SymbolDirectory.standard());
        Set<String> ids = new HashSet<>();
        for (int client = 0; client < 5; client++) {
            for (int i = 0; i < 50; i++) {
                BenchOrder o = orders.order(client, i);
                assertThat(ids.add(o.clientOrderId())).as(o.clientOrderId()).isTrue();
                assertThat(o.clientOrderId()).startsWith("abx-25c-");
                assertThat(o.symbol()).isEqualTo(symbols.get(client % 3).symbol());
                assertThat(o.limitPrice()).isEqualTo(BenchOrder.restingBuyPrice(symbols.get(client % 3)));
            }
        }
    }
}
