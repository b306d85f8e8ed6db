package io.geobroker.broker.daytrading;

import java.math.BigDecimal;

/**
 * Amounts and prices of day-trading commands: decimals of the currency's major unit on the wire
 * ("535.81" dollars), integer minor units inside (53581 cents). More decimals than the currency
 * has are refused, never rounded.
 */
public final class Dollars {

    /** The largest amount a command may carry, in minor units (10^12: ten billion dollars). */
    public static final long MAX = 1_000_000_000_000L;

    private Dollars() {
    }

    /** Minor units of a positive decimal up to {@link #MAX}; {@link IllegalArgumentException} with the reason otherwise. */
    public static long parse(String text, int minorDigits) {
        BigDecimal value;
        try {
            value = new BigDecimal(text.strip());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("'" + text + "' is not a decimal number");
        }
        BigDecimal minor = value.movePointRight(minorDigits);
        if (minor.signum() != 0 && minor.stripTrailingZeros().scale() > 0) {
            throw new IllegalArgumentException("'" + text + "' has more than " + minorDigits + " decimals");
        }
        if (minor.signum() <= 0 || minor.compareTo(BigDecimal.valueOf(MAX)) > 0) {
            throw new IllegalArgumentException("'" + text + "' is not from " + BigDecimal.valueOf(1, minorDigits).toPlainString()
                    + " to " + BigDecimal.valueOf(MAX, minorDigits).toPlainString());
        }
        return minor.longValueExact();
    }

    /** The decimal of {@code minorUnits} with exactly {@code minorDigits} decimals. */
    public static String format(long minorUnits, int minorDigits) {
        return BigDecimal.valueOf(minorUnits, minorDigits).toPlainString();
    }
}
