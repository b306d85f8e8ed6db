package io.geobroker.ticker.rate;

import java.util.List;

/** A requested rate or split that cannot be applied; {@link #problems()} says why, one sentence each. */
public final class InvalidRateException extends RuntimeException {

    private final List<String> problems;

    public InvalidRateException(List<String> problems) {
        super(String.join("; ", problems));
        this.problems = List.copyOf(problems);
    }

    public List<String> problems() {
        return problems;
    }
}
