package io.geobroker.broker.matching;

import io.geobroker.domain.OrderStatus;
import io.geobroker.domain.OrderType;
import io.geobroker.domain.Side;
import io.geobroker.domain.SymbolDirectory;
import io.geobroker.domain.TimeInForce;

import java.time.Instant;
import java.util.UUID;

/** Orders and symbols of the engine's state for unit tests, built in memory. */
final class TestOrders {

    private static final SymbolDirectory DIRECTORY = SymbolDirectory.standard();
    private static long sequence;

    private TestOrders() {
    }

    static SymbolState symbol(String name) {
        return new SymbolState(DIRECTORY.symbol(name).orElseThrow(), "USD");
    }

    /** An OPEN GTC limit order of customer c1 at {@code bookLimit}. */
    static OrderState order(String symbol, Side side, long quantity, long bookLimit) {
        OrderState o = new OrderState(UUID.randomUUID(), "c1", "x" + sequence, symbol, "NASDAQ", "USD", side,
                OrderType.LIMIT, TimeInForce.GTC, false, quantity, bookLimit, null, bookLimit, null, Instant.EPOCH,
                "nvirginia", "nvirginia", sequence++);
        o.status = OrderStatus.OPEN;
        return o;
    }
}
