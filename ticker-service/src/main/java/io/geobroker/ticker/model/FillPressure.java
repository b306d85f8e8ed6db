package io.geobroker.ticker.model;

import io.geobroker.domain.Side;
import io.geobroker.domain.SymbolInfo;

import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Collectors;

/**
 * Net shares bought minus sold per symbol since its last ticker, turned into ticks of price impact
 * at the symbol's next step: every {@code sharesPerTick} shares bought push the price up one tick,
 * sold down one. At most {@code maxTicksPerStep} are applied per step; the rest carries over, so a
 * large fill moves the price over several tickers rather than in one jump.
 *
 * <p>Thread-safe: the fills consumer adds, the symbol's publishing thread drains.
 */
public final class FillPressure {

    private final Map<String, AtomicLong> netShares;
    private final long sharesPerTick;
    private final long maxTicksPerStep;

    public FillPressure(Collection<SymbolInfo> symbols, long sharesPerTick, long maxTicksPerStep) {
        if (sharesPerTick < 1 || maxTicksPerStep < 0) {
            throw new IllegalArgumentException("sharesPerTick must be >= 1 and maxTicksPerStep >= 0");
        }
        this.netShares = symbols.stream().collect(Collectors.toUnmodifiableMap(SymbolInfo::symbol,
                s -> new AtomicLong(), (a, b) -> a));
        this.sharesPerTick = sharesPerTick;
        this.maxTicksPerStep = maxTicksPerStep;
    }

    /** A pressure that never moves a price (fills not consumed). */
    public static FillPressure none() {
        return new FillPressure(List.of(), 1, 0);
    }

    /** Records a fill; returns false for a symbol this model does not know (the fill is ignored). */
    public boolean record(String symbol, Side side, long quantity) {
        AtomicLong net = netShares.get(symbol);
        if (net == null || quantity <= 0) {
            return false;
        }
        net.addAndGet(side == Side.BUY ? quantity : -quantity);
        return true;
    }

    /** Takes the whole ticks of pressure due for the symbol's next step (signed), keeping the remainder. */
    long drainTicks(String symbol) {
        AtomicLong net = netShares.get(symbol);
        if (net == null) {
            return 0;
        }
        long ticks = net.get() / sharesPerTick;
        ticks = Math.max(-maxTicksPerStep, Math.min(maxTicksPerStep, ticks));
        if (ticks != 0) {
            net.addAndGet(-ticks * sharesPerTick);
        }
        return ticks;
    }
}
