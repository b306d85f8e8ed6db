package io.geobroker.ticker.model;

import java.util.ArrayList;
import java.util.List;

/**
 * The knobs of the price model. Each ticker of a symbol is one step of its walk.
 *
 * @param volatilityPerStep   standard deviation of one step as a fraction of the price (0.0005 = 5 basis
 *                            points). Larger makes limit orders fill and stop orders trigger sooner.
 * @param sectorCorrelation   correlation of the steps of two stocks of the same sector, in [0, 1); 0 makes
 *                            every stock independent
 * @param meanReversion       pull towards the start price per step, as a fraction of the distance, in
 *                            [0, 1); keeps long runs in a band around the directory's prices (0.0001
 *                            gives a band of a few percent and a half-life of ~7,000 steps)
 * @param medianVolume        median shares per ticker
 * @param volumeSpread        sigma of the log-normal volume; 0 gives every ticker the median volume
 */
public record ModelParameters(double volatilityPerStep, double sectorCorrelation, double meanReversion,
                              long medianVolume, double volumeSpread) {

    public static ModelParameters defaults() {
        return new ModelParameters(0.0005, 0.5, 0.0001, 300, 0.8);
    }

    /** What is wrong with these parameters, one sentence each; empty when they are valid. */
    public List<String> problems() {
        List<String> problems = new ArrayList<>();
        if (!(volatilityPerStep >= 0 && volatilityPerStep < 0.5)) {
            problems.add("model.volatility-per-step must be in [0, 0.5), was " + volatilityPerStep);
        }
        if (!(sectorCorrelation >= 0 && sectorCorrelation < 1)) {
            problems.add("model.sector-correlation must be in [0, 1), was " + sectorCorrelation);
        }
        if (!(meanReversion >= 0 && meanReversion < 1)) {
            problems.add("model.mean-reversion must be in [0, 1), was " + meanReversion);
        }
        if (medianVolume < 1) {
            problems.add("model.median-volume must be at least 1, was " + medianVolume);
        }
        if (!(volumeSpread >= 0 && volumeSpread <= 5)) {
            problems.add("model.volume-spread must be in [0, 5], was " + volumeSpread);
        }
        return problems;
    }
}
