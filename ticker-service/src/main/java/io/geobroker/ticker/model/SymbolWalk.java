package io.geobroker.ticker.model;

import io.geobroker.domain.SymbolInfo;
import io.geobroker.domain.Ticker;

/**
 * The random walk of one symbol's price in whole ticks. Step k mixes the sector's k-th shock with the
 * symbol's own k-th shock (so stocks of a sector move together), adds a small pull back towards the
 * start price and any fill pressure, and rounds the move to whole ticks stochastically (so small
 * expected moves are not lost to rounding and there is no bias). The price never falls below one tick.
 *
 * <p>The state is exact ({@code long} ticks); doubles are only used to draw the move. Not
 * thread-safe: one thread publishes a symbol.
 */
public final class SymbolWalk {

    private static final long ROUNDING_STREAM = 0x5bd1e995L;
    private static final long VOLUME_STREAM = 0x27d4eb2fL;

    private final SymbolInfo symbol;
    private final CounterRandom random;
    private final ModelParameters parameters;
    private final FillPressure pressure;
    private final long symbolKey;
    private final long sectorKey;
    private final double sectorWeight;
    private final double ownWeight;
    private final long startTicks;
    private final long firstSequence;
    private long ticks;
    private long step;

    SymbolWalk(SymbolInfo symbol, CounterRandom random, ModelParameters parameters, FillPressure pressure,
               long firstSequence) {
        this.symbol = symbol;
        this.random = random;
        this.parameters = parameters;
        this.pressure = pressure;
        this.symbolKey = CounterRandom.key("symbol:" + symbol.symbol());
        this.sectorKey = CounterRandom.key("sector:" + symbol.sector());
        // Two stocks loading sqrt(c) on a common factor have correlation c.
        this.sectorWeight = Math.sqrt(parameters.sectorCorrelation());
        this.ownWeight = Math.sqrt(1 - parameters.sectorCorrelation());
        this.startTicks = Math.max(1, symbol.startPrice() / symbol.tickSize());
        this.firstSequence = firstSequence;
        this.ticks = startTicks;
    }

    public SymbolInfo symbol() {
        return symbol;
    }

    /** The next ticker of this symbol, stamped with the given exchange time. */
    public Ticker next(long exchangeTimeMicros) {
        long k = step++;
        double shock = sectorWeight * random.gaussian(sectorKey, k) + ownWeight * random.gaussian(symbolKey, k);
        double move = ticks * parameters.volatilityPerStep() * shock
                + parameters.meanReversion() * (startTicks - ticks);
        long whole = (long) Math.floor(move);
        if (random.uniform(symbolKey ^ ROUNDING_STREAM, k) < move - whole) {
            whole++;
        }
        ticks = Math.max(1, ticks + whole + pressure.drainTicks(symbol.symbol()));
        return new Ticker(symbol.symbol(), symbol.exchange(), Math.multiplyExact(ticks, symbol.tickSize()),
                volume(k), exchangeTimeMicros, firstSequence + k);
    }

    private long volume(long k) {
        double z = random.gaussian(symbolKey ^ VOLUME_STREAM, k);
        return Math.max(1, Math.round(parameters.medianVolume() * Math.exp(parameters.volumeSpread() * z)));
    }
}
