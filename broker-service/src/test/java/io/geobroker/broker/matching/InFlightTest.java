package io.geobroker.broker.matching;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class InFlightTest {

    private static Command.TickerReceived ticker(String topic, int partition, long offset) {
        return new Command.TickerReceived(null, topic, partition, offset, 0);
    }

    @Test
    void a_ticker_whose_quote_is_not_durable_holds_back_its_partition_from_its_offset() {
        SymbolState aapl = TestOrders.symbol("AAPL");
        SymbolState msft = TestOrders.symbol("MSFT");
        SymbolState ibm = TestOrders.symbol("IBM");
        aapl.hold(ticker("tickers.NASDAQ", 0, 17));
        aapl.hold(ticker("tickers.NASDAQ", 0, 30));
        msft.hold(ticker("tickers.NASDAQ", 0, 12));
        ibm.hold(ticker("tickers.NYSE", 1, 40));

        Map<String, Long> held = InFlight.held(List.of(aapl, msft, ibm));

        assertThat(InFlight.committable(held, "tickers.NASDAQ", 0, 25)).isEqualTo(12);
        assertThat(InFlight.committable(held, "tickers.NYSE", 1, 41)).isEqualTo(40);
        assertThat(InFlight.committable(held, "tickers.NYSE", 1, 33)).isEqualTo(33);
        assertThat(InFlight.committable(held, "tickers.NYSE", 0, 99)).isEqualTo(99);
    }

    @Test
    void a_released_symbol_holds_nothing_back() {
        SymbolState aapl = TestOrders.symbol("AAPL");
        aapl.hold(ticker("tickers.NASDAQ", 0, 17));
        aapl.release();

        assertThat(InFlight.held(List.of(aapl))).isEmpty();
    }
}
