package io.geobroker.loadgen.driver;

import io.geobroker.domain.OrderType;
import io.geobroker.domain.Side;
import io.geobroker.domain.SymbolInfo;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * The load generator's view of the market: the symbols it trades, each one's current price, and
 * how an order's prices are chosen near that quote. The price is either the last ticker consumed
 * from the exchanges' ticker topics ({@link #observe}, when the ticker service publishes) or a
 * bounded random walk of whole ticks advanced by every ticker the load generator publishes itself
 * ({@link #nextTicker}). A "marketable" limit order is priced 0..2 ticks through the
 * quote, so the next ticker fills it; the others rest 3..40 ticks away. Stop orders trigger 0..2
 * ticks from the quote. Thread-safe.
 */
public final class MarketModel {

    /** One order to place (prices in minor units; 0 = not applicable). */
    public record OrderIntent(SymbolInfo symbol, Side side, OrderType type, long quantity, long limitPrice,
                              long stopPrice) {
    }

    /** One ticker to publish. */
    public record TickerIntent(SymbolInfo symbol, long price, long volume, long sequence) {
    }

    private final List<SymbolInfo> symbols;
    private final AtomicLongArray prices;
    private final AtomicLongArray sequences;
    private final AtomicLongArray observedSequences;
    private final Map<String, Integer> indexOfSymbol = new HashMap<>();
    private final long sequenceBase;

    public MarketModel(List<SymbolInfo> symbols, long sequenceBase) {
        if (symbols.isEmpty()) {
            throw new IllegalArgumentException("no symbols to trade");
        }
        this.symbols = List.copyOf(symbols);
        this.prices = new AtomicLongArray(symbols.size());
        this.sequences = new AtomicLongArray(symbols.size());
        this.observedSequences = new AtomicLongArray(symbols.size());
        this.sequenceBase = sequenceBase;
        for (int i = 0; i < symbols.size(); i++) {
            prices.set(i, symbols.get(i).startPrice());
            observedSequences.set(i, Long.MIN_VALUE);
            indexOfSymbol.put(symbols.get(i).symbol(), i);
        }
    }

    /**
     * Takes a consumed ticker's price as the symbol's quote, unless the symbol is not traded here or
     * a ticker with the same or a later sequence was already seen (a redelivery, or the topic read
     * out of order). Returns whether the quote was taken.
     */
    public boolean observe(String symbol, long price, long sequence) {
        Integer i = indexOfSymbol.get(symbol);
        if (i == null || price <= 0) {
            return false;
        }
        while (true) {
            long last = observedSequences.get(i);
            if (sequence <= last) {
                return false;
            }
            if (observedSequences.compareAndSet(i, last, sequence)) {
                prices.set(i, price);
                return true;
            }
        }
    }

    public List<SymbolInfo> symbols() {
        return symbols;
    }

    public long price(int symbolIndex) {
        return prices.get(symbolIndex);
    }

    /**
     * The next ticker of a symbol: the price moves -1, 0 or +1 tick, kept within ±2 % of the start
     * price so orders priced near the quote keep filling.
     */
    public TickerIntent nextTicker(int symbolIndex, SplittableRandom random) {
        SymbolInfo s = symbols.get(symbolIndex);
        long tick = s.tickSize();
        long band = Math.max(tick, s.startPrice() / 50 / tick * tick);
        long price = prices.updateAndGet(symbolIndex, p -> {
            long next = p + (random.nextInt(3) - 1) * tick;
            return Math.max(s.startPrice() - band, Math.min(s.startPrice() + band, Math.max(tick, next)));
        });
        long sequence = sequenceBase + sequences.incrementAndGet(symbolIndex);
        return new TickerIntent(s, price, 500 + random.nextInt(1500), sequence);
    }

    /** An order of the given type near the symbol's current quote. */
    public OrderIntent nextOrder(int symbolIndex, OrderType type, int marketablePercent, SplittableRandom random) {
        SymbolInfo s = symbols.get(symbolIndex);
        long tick = s.tickSize();
        long quote = prices.get(symbolIndex);
        Side side = random.nextBoolean() ? Side.BUY : Side.SELL;
        int direction = side == Side.BUY ? 1 : -1;
        long quantity = 1 + random.nextInt(100);
        return switch (type) {
            case MARKET -> new OrderIntent(s, side, type, quantity, 0, 0);
            case LIMIT -> {
                long offset = random.nextInt(100) < marketablePercent ? random.nextInt(3) : -(3 + random.nextInt(38));
                yield new OrderIntent(s, side, type, quantity, Math.max(tick, quote + direction * offset * tick), 0);
            }
            case STOP -> {
                // BUY stops trigger at or above the stop, SELL stops at or below it
                long offset = random.nextInt(3);
                yield new OrderIntent(s, side, type, quantity, 0, Math.max(tick, quote + direction * offset * tick));
            }
            case STOP_LIMIT -> {
                long stop = Math.max(tick, quote + direction * random.nextInt(3) * tick);
                yield new OrderIntent(s, side, type, quantity, Math.max(tick, stop + direction * 2 * tick), stop);
            }
        };
    }
}
