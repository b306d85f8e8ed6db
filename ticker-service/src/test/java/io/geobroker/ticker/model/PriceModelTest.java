package io.geobroker.ticker.model;

import io.geobroker.domain.Side;
import io.geobroker.domain.SymbolDirectory;
import io.geobroker.domain.SymbolInfo;
import io.geobroker.domain.Ticker;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class PriceModelTest {

    private static final SymbolDirectory DIRECTORY = SymbolDirectory.standard();
    private static final long NOW = 1_700_000_000_000_000L;

    @Test
    void same_seed_gives_the_same_first_tickers_of_every_exchange() {
        for (String exchange : List.of("NYSE", "NASDAQ", "ASX")) {
            assertThat(firstTickers(7, exchange, 2_000)).isEqualTo(firstTickers(7, exchange, 2_000));
        }
    }

    @Test
    void another_seed_gives_other_tickers() {
        assertThat(firstTickers(7, "NYSE", 500)).isNotEqualTo(firstTickers(8, "NYSE", 500));
    }

    @Test
    void a_symbols_tickers_do_not_depend_on_how_exchanges_interleave() {
        PriceModel one = new PriceModel(3, ModelParameters.defaults(), FillPressure.none());
        PriceModel other = new PriceModel(3, ModelParameters.defaults(), FillPressure.none());
        ExchangeTickers nyseFirst = new ExchangeTickers("NYSE", DIRECTORY.symbolsOf("NYSE"), one, 1);
        ExchangeTickers nasdaqFirst = new ExchangeTickers("NASDAQ", DIRECTORY.symbolsOf("NASDAQ"), one, 1);
        ExchangeTickers nyseSecond = new ExchangeTickers("NYSE", DIRECTORY.symbolsOf("NYSE"), other, 1);
        ExchangeTickers nasdaqSecond = new ExchangeTickers("NASDAQ", DIRECTORY.symbolsOf("NASDAQ"), other, 1);

        List<Ticker> a = new ArrayList<>();
        for (int i = 0; i < 1_000; i++) {
            a.add(nyseFirst.next(NOW));
        }
        for (int i = 0; i < 1_000; i++) {
            a.add(nasdaqFirst.next(NOW));
        }
        List<Ticker> b = new ArrayList<>();
        for (int i = 0; i < 1_000; i++) {
            b.add(nasdaqSecond.next(NOW));
            b.add(nyseSecond.next(NOW));
        }
        assertThat(bySymbol(b)).isEqualTo(bySymbol(a));
    }

    @Test
    void prices_are_positive_multiples_of_the_tick_size_even_in_a_wild_market() {
        PriceModel wild = new PriceModel(11, new ModelParameters(0.2, 0.5, 0, 300, 0.8), FillPressure.none());
        List<SymbolInfo> symbols = new ArrayList<>(DIRECTORY.symbols());
        symbols.add(new SymbolInfo("COARSE", "NYSE", "Coarse ticks", "Energy", 5, 1_000));
        for (SymbolInfo symbol : symbols) {
            SymbolWalk walk = wild.walk(symbol, 0);
            long floorHits = 0;
            for (int i = 0; i < 5_000; i++) {
                Ticker t = walk.next(NOW);
                assertThat(symbol.isValidPrice(t.price())).as("%s price %d", symbol.symbol(), t.price()).isTrue();
                assertThat(t.volume()).isPositive();
                if (t.price() == symbol.tickSize()) {
                    floorHits++;
                }
            }
            assertThat(floorHits).as("a 20%% step walk of %s reaches the one-tick floor", symbol.symbol()).isPositive();
        }
    }

    @Test
    void sequence_starts_at_the_given_number_and_increases_by_one_per_symbol() {
        ExchangeTickers asx = new ExchangeTickers("ASX", DIRECTORY.symbolsOf("ASX"),
                new PriceModel(1, ModelParameters.defaults(), FillPressure.none()), 500);
        Map<String, Long> last = new HashMap<>();
        for (int i = 0; i < 3_000; i++) {
            Ticker t = asx.next(NOW);
            Long previous = last.put(t.symbol(), t.sequence());
            assertThat(t.sequence()).isEqualTo(previous == null ? 500 : previous + 1);
            assertThat(t.exchange()).isEqualTo("ASX");
        }
        assertThat(last).hasSize(DIRECTORY.symbolsOf("ASX").size());
    }

    @Test
    void stocks_of_a_sector_move_together_and_stocks_of_different_sectors_do_not() {
        PriceModel model = new PriceModel(5, ModelParameters.defaults(), FillPressure.none());
        List<SymbolInfo> tech = DIRECTORY.symbolsOf("NASDAQ").stream()
                .filter(s -> s.sector().equals("Technology")).limit(2).toList();
        SymbolInfo energy = DIRECTORY.symbolsOf("NYSE").stream()
                .filter(s -> s.sector().equals("Energy")).findFirst().orElseThrow();
        double[] a = returns(model.walk(tech.get(0), 0), 20_000);
        double[] b = returns(model.walk(tech.get(1), 0), 20_000);
        double[] c = returns(model.walk(energy, 0), 20_000);

        assertThat(correlation(a, b)).as("same sector").isBetween(0.35, 0.65);
        assertThat(correlation(a, c)).as("different sectors").isBetween(-0.1, 0.1);
    }

    @Test
    void buying_pushes_the_price_up_and_selling_down() {
        SymbolInfo aapl = DIRECTORY.symbol("AAPL").orElseThrow();
        FillPressure pressure = new FillPressure(DIRECTORY.symbols(), 100, 5);
        SymbolWalk walk = new PriceModel(1, new ModelParameters(0, 0, 0, 300, 0), pressure).walk(aapl, 0);
        long start = walk.next(NOW).price();

        pressure.record("AAPL", Side.BUY, 350);
        assertThat(walk.next(NOW).price()).isEqualTo(start + 3 * aapl.tickSize());

        pressure.record("AAPL", Side.SELL, 1_250);
        assertThat(walk.next(NOW).price()).as("at most 5 ticks per step").isEqualTo(start - 2 * aapl.tickSize());
        assertThat(walk.next(NOW).price()).as("the rest carries over").isEqualTo(start - 7 * aapl.tickSize());
        assertThat(pressure.record("NOPE", Side.BUY, 100)).isFalse();
    }

    @Test
    void long_runs_stay_near_the_start_price() {
        SymbolInfo msft = DIRECTORY.symbol("MSFT").orElseThrow();
        SymbolWalk walk = new PriceModel(9, ModelParameters.defaults(), FillPressure.none()).walk(msft, 0);
        long price = 0;
        for (int i = 0; i < 200_000; i++) {
            price = walk.next(NOW).price();
        }
        assertThat(price).isBetween(msft.startPrice() * 8 / 10, msft.startPrice() * 12 / 10);
    }

    private static List<Ticker> firstTickers(long seed, String exchange, int n) {
        ExchangeTickers tickers = new ExchangeTickers(exchange, DIRECTORY.symbolsOf(exchange),
                new PriceModel(seed, ModelParameters.defaults(), FillPressure.none()), 1);
        List<Ticker> list = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            list.add(tickers.next(NOW));
        }
        return list;
    }

    private static Map<String, List<Ticker>> bySymbol(List<Ticker> tickers) {
        Map<String, List<Ticker>> map = new HashMap<>();
        tickers.forEach(t -> map.computeIfAbsent(t.symbol(), s -> new ArrayList<>()).add(t));
        return map;
    }

    private static double[] returns(SymbolWalk walk, int n) {
        double[] r = new double[n];
        double previous = walk.next(NOW).price();
        for (int i = 0; i < n; i++) {
            double price = walk.next(NOW).price();
            r[i] = Math.log(price / previous);
            previous = price;
        }
        return r;
    }

    private static double correlation(double[] x, double[] y) {
        double mx = 0;
        double my = 0;
        for (int i = 0; i < x.length; i++) {
            mx += x[i];
            my += y[i];
        }
        mx /= x.length;
        my /= y.length;
        double sxy = 0;
        double sxx = 0;
        double syy = 0;
        for (int i = 0; i < x.length; i++) {
            sxy += (x[i] - mx) * (y[i] - my);
            sxx += (x[i] - mx) * (x[i] - mx);
            syy += (y[i] - my) * (y[i] - my);
        }
        return sxy / Math.sqrt(sxx * syy);
    }
}
