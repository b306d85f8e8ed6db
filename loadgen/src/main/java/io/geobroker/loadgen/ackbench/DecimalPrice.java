package io.geobroker.loadgen.ackbench;

import java.math.BigDecimal;

/**
 * Prices between the two forms the brokers speak: integer minor units of the currency (REST, and
 * inside) and a decimal in the currency's major unit (FIX's Price(44) and StopPx(99)): 19025 cents
 * are 190.25 dollars. Exact both ways; never a {@code double}.
 */
public final class DecimalPrice {

    private DecimalPrice() {
    }

    /** {@code minorUnits} as a decimal with the currency's {@code minorDigits}: 19025, 2 -> 190.25. */
    public static BigDecimal toDecimal(long minorUnits, int minorDigits) {
        if (minorDigits < 0) {
            throw new IllegalArgumentException("minor digits must not be negative, was " + minorDigits);
        }
        return BigDecimal.valueOf(minorUnits, minorDigits);
    }

    /**
     * A decimal price in minor units: 190.25, 2 -> 19025; 190.2 -> 19020. Fails on a price finer than
     * one minor unit (190.255) or too large for a {@code long}.
     */
    public static long toMinorUnits(BigDecimal price, int minorDigits) {
        if (minorDigits < 0) {
            throw new IllegalArgumentException("minor digits must not be negative, was " + minorDigits);
        }
        try {
            return price.movePointRight(minorDigits).longValueExact();
        } catch (ArithmeticException e) {
            throw new IllegalArgumentException(price.toPlainString() + " is not a whole number of minor units ("
                    + minorDigits + " digits)", e);
        }
    }
}
