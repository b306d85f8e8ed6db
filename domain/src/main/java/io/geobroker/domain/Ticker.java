package io.geobroker.domain;

/**
 * A price update from an exchange (SPEC §2): {@code volume} shares are available at {@code price}
 * (minor units). {@code sequence} increases by one per symbol; {@code exchangeTimeMicros} is when
 * the exchange published it, in microseconds since the epoch, and is where ticker-to-fill latency
 * is measured from.
 */
public record Ticker(String symbol, String exchange, long price, long volume, long exchangeTimeMicros,
                     long sequence) {
}
