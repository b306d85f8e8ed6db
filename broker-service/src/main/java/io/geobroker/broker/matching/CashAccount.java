package io.geobroker.broker.matching;

/** Cash of one customer in one currency, minor units; authoritative in the engine once loaded. */
final class CashAccount {
    final String customerId;
    final String currency;
    long available;
    long reserved;

    CashAccount(String customerId, String currency, long available, long reserved) {
        this.customerId = customerId;
        this.currency = currency;
        this.available = available;
        this.reserved = reserved;
    }
}
