package io.geobroker.loadgen.driver;

import io.geobroker.domain.OrderType;
import io.geobroker.domain.Side;
import io.geobroker.domain.SymbolDirectory;
import io.geobroker.domain.SymbolInfo;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.SplittableRandom;

import static org.assertj.core.api.Assertions.assertThat;

class MarketModelTest {

    private final SymbolInfo aapl = SymbolDirectory.standard().symbol("AAPL").orElseThrow();
    private final MarketModel market = new MarketModel(List.of(aapl), 1_000);
    private final SplittableRandom random = new SplittableRandom(1);

    @Test
    void tickers_walk_by_whole_ticks_within_two_percent_with_increasing_sequences() {
        long previousSequence = 0;
        for (int i = 0; i < 20_000; i++) {
            MarketModel.TickerIntent t = market.nextTicker(0, random);
            assertThat(aapl.isValidPrice(t.price())).isTrue();
            assertThat(Math.abs(t.price() - aapl.startPrice())).isLessThanOrEqualTo(aapl.startPrice() / 50);
            assertThat(t.sequence()).isGreaterThan(previousSequence);
            assertThat(t.volume()).isPositive();
            previousSequence = t.sequence();
        }
    }

    @Test
    void marketable_limit_orders_are_priced_through_the_quote_and_others_rest_away_from_it() {
        long quote = market.price(0);
        for (int i = 0; i < 1_000; i++) {
            MarketModel.OrderIntent marketable = market.nextOrder(0, OrderType.LIMIT, 100, random);
            long signed = marketable.side() == Side.BUY ? marketable.limitPrice() - quote : quote - marketable.limitPrice();
            assertThat(signed).isBetween(0L, 2L);
            MarketModel.OrderIntent resting = market.nextOrder(0, OrderType.LIMIT, 0, random);
            long away = resting.side() == Side.BUY ? quote - resting.limitPrice() : resting.limitPrice() - quote;
            assertThat(away).isBetween(3L, 40L);
        }
    }

    @Test
    void a_consumed_ticker_becomes_the_quote_that_orders_are_priced_near() {
        long quote = aapl.startPrice() + 37 * aapl.tickSize();

        assertThat(market.observe("AAPL", quote, 5)).isTrue();

        assertThat(market.price(0)).isEqualTo(quote);
        for (int i = 0; i < 200; i++) {
            MarketModel.OrderIntent o = market.nextOrder(0, OrderType.LIMIT, 100, random);
            long signed = o.side() == Side.BUY ? o.limitPrice() - quote : quote - o.limitPrice();
            assertThat(signed).isBetween(0L, 2L);
        }
    }

    @Test
    void an_older_or_repeated_ticker_does_not_move_the_quote_back() {
        market.observe("AAPL", 20_000, 10);

        assertThat(market.observe("AAPL", 19_000, 9)).isFalse();
        assertThat(market.observe("AAPL", 19_500, 10)).isFalse();
        assertThat(market.price(0)).isEqualTo(20_000);
        assertThat(market.observe("AAPL", 20_100, 11)).isTrue();
        assertThat(market.price(0)).isEqualTo(20_100);
    }

    @Test
    void tickers_of_symbols_not_traded_or_without_a_price_are_ignored() {
        assertThat(market.observe("MSFT", 41_000, 1)).isFalse();
        assertThat(market.observe("AAPL", 0, 1)).isFalse();
        assertThat(market.price(0)).isEqualTo(aapl.startPrice());
    }

    @Test
    void orders_carry_only_the_prices_their_type_needs() {
        for (OrderType type : OrderType.values()) {
            MarketModel.OrderIntent o = market.nextOrder(0, type, 50, random);
            assertThat(o.limitPrice() > 0).isEqualTo(type.hasLimitPrice());
            assertThat(o.stopPrice() > 0).isEqualTo(type.hasStopPrice());
            assertThat(o.quantity()).isBetween(1L, 100L);
        }
    }
}
