package io.geobroker.domain;

/** A whole, positive number of shares. */
public record Quantity(long shares) {

    public Quantity {
        if (shares <= 0) {
            throw new IllegalArgumentException("quantity must be positive, was " + shares);
        }
    }

    public static Quantity of(long shares) {
        return new Quantity(shares);
    }
}
