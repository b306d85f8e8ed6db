package io.geobroker.loadgen.calc;

import java.math.BigInteger;
import java.math.RoundingMode;
import java.math.BigDecimal;

/** Formatting and rounding of micro-dollar amounts (integers; half-up rounding). */
public final class Usd {

    public static final long MICROS_PER_DOLLAR = 1_000_000L;
    public static final long MICROS_PER_CENT = 10_000L;

    private Usd() {
    }

    public static long toCents(long micros) {
        return divideHalfUp(micros, MICROS_PER_CENT);
    }

    public static long toWholeDollars(long micros) {
        return divideHalfUp(micros, MICROS_PER_DOLLAR);
    }

    /** {@code $1,234.57} */
    public static String cents(long micros) {
        long cents = toCents(micros);
        return String.format("$%,d.%02d", cents / 100, Math.abs(cents % 100));
    }

    /** {@code $1,235} */
    public static String dollars(long micros) {
        return String.format("$%,d", toWholeDollars(micros));
    }

    static long divideHalfUp(long value, long divisor) {
        return BigDecimal.valueOf(value).divide(BigDecimal.valueOf(divisor), 0, RoundingMode.HALF_UP).longValueExact();
    }

    static long divideHalfUp(BigInteger value, BigInteger divisor) {
        return new BigDecimal(value).divide(new BigDecimal(divisor), 0, RoundingMode.HALF_UP).longValueExact();
    }
}
