package io.geobroker.ticker.model;

import io.geobroker.domain.SymbolInfo;
import io.geobroker.domain.Ticker;

import java.util.List;

/**
 * The ticker stream of one exchange: its symbols in directory order, round after round, so every
 * symbol of the exchange ticks equally often and same-sector stocks take their k-th step in the
 * same round. Not thread-safe: one thread per exchange.
 */
public final class ExchangeTickers {

    private final String exchange;
    private final SymbolWalk[] walks;
    private int cursor;

    public ExchangeTickers(String exchange, List<SymbolInfo> symbols, PriceModel model, long firstSequence) {
        if (symbols.isEmpty()) {
            throw new IllegalArgumentException("exchange " + exchange + " has no symbols");
        }
        this.exchange = exchange;
        this.walks = symbols.stream().map(s -> model.walk(s, firstSequence)).toArray(SymbolWalk[]::new);
    }

    public String exchange() {
        return exchange;
    }

    public Ticker next(long exchangeTimeMicros) {
        SymbolWalk walk = walks[cursor];
        cursor = cursor + 1 == walks.length ? 0 : cursor + 1;
        return walk.next(exchangeTimeMicros);
    }
}
