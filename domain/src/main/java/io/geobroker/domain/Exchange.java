package io.geobroker.domain;

import java.time.LocalTime;
import java.time.ZoneId;

/**
 * A stock exchange: its currency and trading hours. DAY orders expire at {@link #close()} in the
 * exchange's {@link #timeZone()}.
 */
public record Exchange(String code, String currency, int currencyMinorDigits, ZoneId timeZone,
                       LocalTime open, LocalTime close, String name) {
}
