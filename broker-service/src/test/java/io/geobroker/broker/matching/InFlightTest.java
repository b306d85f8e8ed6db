package io.geobroker.broker.matching;

import io.geobroker.broker.ticker.DurableOffsets;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

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

    @Test
    void the_republish_point_of_a_symbol_is_its_oldest_unacknowledged_group() {
        SymbolState aapl = TestOrders.symbol("AAPL");
        SymbolState msft = TestOrders.symbol("MSFT");
        try (InFlight inFlight = new InFlight(new DurableOffsets(), List.of(aapl, msft),
                new SimpleMeterRegistry().timer("t"), 10)) {
            // records not handed to the producer yet (the supplier's null): nothing is acknowledged
            inFlight.hand(() -> null, Map.of(aapl, 10L), List.of(), List.of());
            inFlight.hand(() -> null, Map.of(msft, 12L), List.of(), List.of());
            inFlight.hand(() -> null, Map.of(aapl, 15L, msft, 16L), List.of(), List.of());
            inFlight.release();

            assertThat(inFlight.size()).isEqualTo(3);
            assertThat(inFlight.firstSequence(aapl)).as("the oldest group that fills AAPL").isEqualTo(10L);
            assertThat(inFlight.firstSequence(msft)).isEqualTo(12L);
            assertThat(inFlight.firstSequence(TestOrders.symbol("IBM"))).isNull();
        }
    }

    @Test
    void at_least_one_group_may_be_unacknowledged() {
        assertThatThrownBy(() -> new InFlight(new DurableOffsets(), List.of(), new SimpleMeterRegistry().timer("t"), 0))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
