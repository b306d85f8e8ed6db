package io.geobroker.domain;

/**
 * A price in integer minor units of the symbol's currency (cents for USD and AUD). Valid prices
 * are positive multiples of the symbol's tick size ({@link SymbolInfo#tickSize()}).
 */
public record Price(long minorUnits) implements Comparable<Price> {

    public Price {
        if (minorUnits <= 0) {
            throw new IllegalArgumentException("price must be positive, was " + minorUnits);
        }
    }

    public static Price of(long minorUnits) {
        return new Price(minorUnits);
    }

    @Override
    public int compareTo(Price other) {
        return Long.compare(minorUnits, other.minorUnits);
    }

    @Override
    public String toString() {
        return Long.toString(minorUnits);
    }
}
