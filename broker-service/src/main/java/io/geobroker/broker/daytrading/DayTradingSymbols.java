package io.geobroker.broker.daytrading;

import java.util.Collection;
import java.util.List;
import java.util.Locale;

/**
 * Workload symbols (1-3 letters, made up) onto the region's own symbols, deterministically: a
 * symbol the region trades is itself; any other is read as a number in base 27 (A = 1 ... Z = 26)
 * and taken modulo the number of the region's symbols, in alphabetical order. So "ZUL" in
 * N. Virginia is always the same stock, and two workloads that use the same made-up symbol trade the same one.
 */
public final class DayTradingSymbols {

    private final List<String> symbols;

    public DayTradingSymbols(Collection<String> regionSymbols) {
        this.symbols = regionSymbols.stream().sorted().toList();
        if (symbols.isEmpty()) {
            throw new IllegalArgumentException("a region with no symbols cannot map day-trading symbols");
        }
    }

    public String symbolOf(String stockSymbol) {
        String s = stockSymbol.toUpperCase(Locale.ROOT);
        if (symbols.contains(s)) {
            return s;
        }
        long value = 0;
        for (int i = 0; i < s.length(); i++) {
            char ch = s.charAt(i);
            value = value * 27 + (ch >= 'A' && ch <= 'Z' ? ch - 'A' + 1 : 0);
        }
        return symbols.get((int) (value % symbols.size()));
    }
}
