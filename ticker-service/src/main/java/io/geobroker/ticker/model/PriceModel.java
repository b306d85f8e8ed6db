package io.geobroker.ticker.model;

import io.geobroker.domain.SymbolInfo;

/**
 * The price model: per-symbol random walks in ticks with a common factor per sector, reproducible
 * from a seed. The k-th ticker of a symbol (its price, volume and sequence) depends only on the
 * seed, the parameters, the symbol and k — not on rates, the split between exchanges, threads or
 * timing — unless fills move prices ({@link FillPressure}), which makes the walk react to trading and
 * therefore no longer reproducible. The sector factor is global: a sector's stocks on different
 * exchanges share it too.
 */
public final class PriceModel {

    private final CounterRandom random;
    private final ModelParameters parameters;
    private final FillPressure pressure;

    public PriceModel(long seed, ModelParameters parameters, FillPressure pressure) {
        if (!parameters.problems().isEmpty()) {
            throw new IllegalArgumentException(String.join("; ", parameters.problems()));
        }
        this.random = new CounterRandom(seed);
        this.parameters = parameters;
        this.pressure = pressure;
    }

    /** A new walk of the symbol, starting at its directory price; its first ticker has {@code firstSequence}. */
    public SymbolWalk walk(SymbolInfo symbol, long firstSequence) {
        return new SymbolWalk(symbol, random, parameters, pressure, firstSequence);
    }
}
