package io.geobroker.broker.fix;

import java.math.BigDecimal;
import java.math.RoundingMode;

/**
 * Prices on the FIX wire are decimals in the currency's major unit (190.25 dollars); inside they
 * are integer minor units (19025 cents). A price with more decimals than the currency has minor
 * digits is refused, never rounded.
 */
final class FixPrices {

    private FixPrices() {
    }

    /** The price in minor units; {@link IllegalArgumentException} when it is not a whole number of them. */
    static long toMinorUnits(BigDecimal price, int minorDigits) {
        BigDecimal minor = price.movePointRight(minorDigits);
        if (minor.signum() != 0 && minor.stripTrailingZeros().scale() > 0) {
            throw new IllegalArgumentException("price " + price.toPlainString() + " has more than " + minorDigits
                    + " decimal" + (minorDigits == 1 ? "" : "s"));
        }
        try {
            return minor.longValueExact();
        } catch (ArithmeticException e) {
            throw new IllegalArgumentException("price " + price.toPlainString() + " is out of range");
        }
    }

    /** The decimal price of {@code minorUnits}, with exactly {@code minorDigits} decimals. */
    static BigDecimal toDecimal(long minorUnits, int minorDigits) {
        return BigDecimal.valueOf(minorUnits, minorDigits);
    }

    /** The average price of {@code notional} over {@code quantity}: a decimal, half up at four digits below a minor unit. */
    static BigDecimal average(long notional, long quantity, int minorDigits) {
        if (quantity == 0) {
            return BigDecimal.ZERO;
        }
        return BigDecimal.valueOf(notional, minorDigits).divide(BigDecimal.valueOf(quantity), minorDigits + 4,
                RoundingMode.HALF_UP).stripTrailingZeros();
    }
}
