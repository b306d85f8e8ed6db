package io.geobroker.domain;

import java.util.Objects;

/** An exact amount of one currency in integer minor units (cents). May be negative (a debit). */
public record Money(String currency, long minorUnits) {

    public Money {
        Objects.requireNonNull(currency, "currency");
    }

    public static Money of(String currency, long minorUnits) {
        return new Money(currency, minorUnits);
    }

    /** Price times quantity, failing rather than overflowing. */
    public static Money notional(String currency, Price price, Quantity quantity) {
        return new Money(currency, Math.multiplyExact(price.minorUnits(), quantity.shares()));
    }

    public Money plus(Money other) {
        requireSameCurrency(other);
        return new Money(currency, Math.addExact(minorUnits, other.minorUnits));
    }

    public Money minus(Money other) {
        requireSameCurrency(other);
        return new Money(currency, Math.subtractExact(minorUnits, other.minorUnits));
    }

    private void requireSameCurrency(Money other) {
        if (!currency.equals(other.currency)) {
            throw new IllegalArgumentException("cannot combine " + currency + " and " + other.currency);
        }
    }
}
