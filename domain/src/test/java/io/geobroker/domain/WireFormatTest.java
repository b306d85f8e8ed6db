package io.geobroker.domain;

import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class WireFormatTest {

    private final SymbolDirectory directory = SymbolDirectory.standard();

    private Ticker decode(String json) throws WireFormat.InvalidMessageException {
        return WireFormat.decodeTicker(json.getBytes(StandardCharsets.UTF_8), directory);
    }

    @Test
    void ticker_round_trips() throws Exception {
        Ticker t = new Ticker("AAPL", "NASDAQ", 19001, 300, 1_700_000_000_000_000L, 42);
        assertThat(WireFormat.decodeTicker(WireFormat.encode(t), directory)).isEqualTo(t);
    }

    @Test
    void fill_round_trips() throws Exception {
        Fill f = new Fill("f1", "o1", "c1", "BHP", "ASX", Side.BUY, OrderType.LIMIT, 4300, 10, "AUD",
                7, 1_700_000_000_000_000L, 1_700_000_000_001_000L, "sydney");
        assertThat(WireFormat.decodeFill(WireFormat.encode(f))).isEqualTo(f);
        assertThat(f.hasOrderTotals()).isFalse();
    }

    @Test
    void fill_with_the_orders_totals_round_trips_and_older_records_decode_without_them() throws Exception {
        Fill f = new Fill("f1", "o1", "c1", "BHP", "ASX", Side.BUY, OrderType.LIMIT, 4300, 10, "AUD",
                7, 1_700_000_000_000_000L, 1_700_000_000_001_000L, "sydney", "c-1", 30L, 20L, 86_000L);
        Fill decoded = WireFormat.decodeFill(WireFormat.encode(f));
        assertThat(decoded).isEqualTo(f);
        assertThat(decoded.hasOrderTotals()).isTrue();
        String older = "{\"fillId\":\"f1\",\"orderId\":\"o1\",\"customerId\":\"c1\",\"symbol\":\"BHP\","
                + "\"exchange\":\"ASX\",\"side\":\"BUY\",\"orderType\":\"LIMIT\",\"price\":4300,\"quantity\":10,"
                + "\"currency\":\"AUD\",\"tickerSequence\":7,\"tickerExchangeTimeMicros\":1,\"durableTimeMicros\":2,"
                + "\"region\":\"sydney\"}";
        Fill old = WireFormat.decodeFill(older.getBytes(java.nio.charset.StandardCharsets.UTF_8));
        assertThat(old.quantity()).isEqualTo(10);
        assertThat(old.orderFilledQuantity()).isNull();
        assertThat(old.hasOrderTotals()).isFalse();
    }

    @Test
    void poison_tickers_are_rejected_with_a_reason() {
        assertThatThrownBy(() -> decode("{not json")).hasMessage("malformed JSON");
        assertThatThrownBy(() -> decode("[]")).hasMessage("not a JSON object");
        assertThatThrownBy(() -> decode("{\"symbol\":\"ZZZZ\",\"exchange\":\"NYSE\",\"price\":1,\"volume\":1,"
                + "\"exchangeTimeMicros\":1,\"sequence\":1}")).hasMessage("unknown symbol ZZZZ");
        assertThatThrownBy(() -> decode("{\"symbol\":\"AAPL\",\"exchange\":\"NYSE\",\"price\":1,\"volume\":1,"
                + "\"exchangeTimeMicros\":1,\"sequence\":1}")).hasMessageContaining("listed on NASDAQ");
        assertThatThrownBy(() -> decode("{\"symbol\":\"AAPL\",\"exchange\":\"NASDAQ\",\"price\":-5,\"volume\":1,"
                + "\"exchangeTimeMicros\":1,\"sequence\":1}")).hasMessageContaining("tick size");
        assertThatThrownBy(() -> decode("{\"symbol\":\"AAPL\",\"exchange\":\"NASDAQ\",\"price\":100,\"volume\":0,"
                + "\"exchangeTimeMicros\":1,\"sequence\":1}")).hasMessageContaining("volume");
        assertThatThrownBy(() -> decode("{\"symbol\":\"AAPL\",\"exchange\":\"NASDAQ\",\"price\":1.5,\"volume\":1,"
                + "\"exchangeTimeMicros\":1,\"sequence\":1}")).hasMessageContaining("'price'");
        assertThatThrownBy(() -> WireFormat.decodeTicker(new byte[WireFormat.MAX_MESSAGE_BYTES + 1], directory))
                .hasMessageContaining("exceeds");
    }

    private static OrderEvent cancelled() {
        return new OrderEvent("e1", OrderStatus.CANCELLED, "o1", "c1", "web-1", "AAPL", "NASDAQ", Side.BUY,
                OrderType.LIMIT, 10, 4, 76_004, "USD", 1_700_000_000_000_000L, "nvirginia");
    }

    private static OrderEvent decodeEvent(String json) throws WireFormat.InvalidMessageException {
        return WireFormat.decodeOrderEvent(json.getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void order_event_round_trips_with_its_leaves_quantity() throws Exception {
        OrderEvent e = cancelled();
        OrderEvent decoded = WireFormat.decodeOrderEvent(WireFormat.encode(e));
        assertThat(decoded).isEqualTo(e);
        assertThat(decoded.leavesQuantity()).isEqualTo(6);
        OrderEvent expired = new OrderEvent("e2", OrderStatus.EXPIRED, "o2", "c1", "x", "BHP", "ASX", Side.SELL,
                OrderType.STOP_LIMIT, 5, 0, 0, "AUD", 1, "sydney");
        assertThat(WireFormat.decodeOrderEvent(WireFormat.encode(expired))).isEqualTo(expired);
    }

    @Test
    void a_fill_or_anything_else_is_not_an_order_event() {
        String valid = new String(WireFormat.encode(cancelled()), StandardCharsets.UTF_8);
        assertThatThrownBy(() -> decodeEvent(new String(WireFormat.encode(new Fill("f1", "o1", "c1", "BHP", "ASX",
                Side.BUY, OrderType.LIMIT, 4300, 10, "AUD", 7, 1, 2, "sydney")), StandardCharsets.UTF_8)))
                .isInstanceOf(WireFormat.InvalidMessageException.class);
        assertThatThrownBy(() -> decodeEvent("{not json")).hasMessage("malformed JSON");
        assertThatThrownBy(() -> decodeEvent(valid.replace("\"CANCELLED\"", "\"FILLED\"")))
                .hasMessageContaining("not an order event");
        assertThatThrownBy(() -> decodeEvent(valid.replace("\"CANCELLED\"", "\"GONE\"")))
                .hasMessageContaining("unknown status");
        assertThatThrownBy(() -> decodeEvent(valid.replace("\"side\":\"BUY\"", "\"side\":\"SHORT\"")))
                .hasMessageContaining("unknown side");
        assertThatThrownBy(() -> decodeEvent(valid.replace("\"filledQuantity\":4", "\"filledQuantity\":11")))
                .hasMessageContaining("filledQuantity <= quantity");
        assertThatThrownBy(() -> decodeEvent(valid.replace("\"filledNotional\":76004", "\"filledNotional\":0")))
                .hasMessageContaining("filledNotional");
        assertThatThrownBy(() -> decodeEvent(valid.replace("\"filledNotional\":76004", "\"filledNotional\":760.04")))
                .hasMessageContaining("'filledNotional'");
        assertThatThrownBy(() -> decodeEvent(valid.replace("\"customerId\":\"c1\"", "\"customerId\":\" \"")))
                .hasMessageContaining("'customerId'");
        assertThatThrownBy(() -> decodeEvent(valid.replace("\"eventTimeMicros\":1700000000000000", "\"eventTimeMicros\":0")))
                .hasMessageContaining("eventTimeMicros");
    }
}
