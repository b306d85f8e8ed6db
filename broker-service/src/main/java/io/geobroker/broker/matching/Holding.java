package io.geobroker.broker.matching;

/** Shares of one customer in one symbol; authoritative in the engine once loaded. */
final class Holding {
    final String customerId;
    final String symbol;
    long available;
    long reserved;

    Holding(String customerId, String symbol, long available, long reserved) {
        this.customerId = customerId;
        this.symbol = symbol;
        this.available = available;
        this.reserved = reserved;
    }
}
