package io.geobroker.ticker.config;

import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

/** Turns an {@link InvalidConfigurationException} into one short start-up failure report, without a stack trace. */
public final class InvalidConfigurationFailureAnalyzer extends AbstractFailureAnalyzer<InvalidConfigurationException> {

    @Override
    protected FailureAnalysis analyze(Throwable rootFailure, InvalidConfigurationException cause) {
        return new FailureAnalysis("The ticker service cannot start:\n - " + String.join("\n - ", cause.problems()),
                "Fix the settings above (command-line flags, geobroker.ticker.* properties or the topology file; "
                        + "see ticker-service/README.md).", cause);
    }
}
