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
}
