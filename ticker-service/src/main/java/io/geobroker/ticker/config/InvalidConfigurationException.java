package io.geobroker.ticker.config;

import java.util.List;

/** The service's settings cannot work; thrown at start with every problem found, one sentence each. */
public final class InvalidConfigurationException extends RuntimeException {

    private final List<String> problems;

    public InvalidConfigurationException(List<String> problems) {
        super("Invalid ticker-service configuration: " + String.join("; ", problems));
        this.problems = List.copyOf(problems);
    }

    public List<String> problems() {
        return problems;
    }
}
