package io.geobroker.loadgen.ackbench;

import io.geobroker.domain.SymbolInfo;

import java.nio.charset.StandardCharsets;

/**
 * One order of the benchmark: a LIMIT BUY of one share, DAY, priced far below the market so that it
 * rests and never fills. {@code limitPrice} is in minor units; {@code minorDigits} is its currency's
 * (for FIX's decimal price).
 */
public record BenchOrder(String clientOrderId, String symbol, long limitPrice, int minorDigits) {

    /** Shares per order. */
    public static final long QUANTITY = 1;

    /**
     * The price of the symbol's benchmark orders: half its start price, rounded down to its tick grid,
     * at least one tick. Far enough below the market that no ticker of the run reaches it, and cheap
     * to reserve.
     */
    public static long restingBuyPrice(SymbolInfo symbol) {
        long tick = symbol.tickSize();
        long half = symbol.startPrice() / 2;
        return Math.max(tick, half / tick * tick);
    }

    /** The REST body of {@code POST /api/v1/orders}. */
    public byte[] json() {
        return ("{\"clientOrderId\":\"" + clientOrderId + "\",\"symbol\":\"" + symbol
                + "\",\"side\":\"BUY\",\"type\":\"LIMIT\",\"quantity\":" + QUANTITY + ",\"limitPrice\":" + limitPrice
                + ",\"timeInForce\":\"DAY\"}").getBytes(StandardCharsets.UTF_8);
    }
}
