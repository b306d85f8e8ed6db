package io.geobroker.ticker.replay;

import io.geobroker.domain.SymbolDirectory;
import io.geobroker.domain.SymbolInfo;
import io.geobroker.domain.Ticker;

import java.util.Collection;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;

/**
 * Parses and checks the lines of a replay CSV: {@code symbol,price,volume[,sequence]}, price in
 * minor units (a positive multiple of the symbol's tick size), volume in shares (positive). Without
 * a sequence the line gets the symbol's previous sequence plus one (the first: the configured start);
 * with one it must be larger than the symbol's previous sequence. Blank lines, {@code #} comments
 * and a header line starting with {@code symbol,} are ignored. Keeps each symbol's last sequence
 * across passes over the file. Not thread-safe.
 */
public final class ReplayLineParser {

    /** The outcome of one line: a ticker to publish, a line to ignore, or a reason to skip it. */
    public sealed interface Result permits Valid, Ignored, Invalid {
    }

    /** A ticker to publish; its exchange time is left for the publisher to stamp. */
    public record Valid(String symbol, String exchange, long price, long volume, long sequence) implements Result {
        public Ticker at(long exchangeTimeMicros) {
            return new Ticker(symbol, exchange, price, volume, exchangeTimeMicros, sequence);
        }
    }

    /** A blank, comment or header line. */
    public record Ignored() implements Result {
    }

    /** A malformed line and why. */
    public record Invalid(String reason) implements Result {
    }

    private static final Ignored IGNORED = new Ignored();

    private final SymbolDirectory directory;
    private final Set<String> exchanges;
    private final long sequenceStart;
    private final Map<String, Long> lastSequence = new HashMap<>();

    public ReplayLineParser(SymbolDirectory directory, Collection<String> publishedExchanges, long sequenceStart) {
        this.directory = directory;
        this.exchanges = Set.copyOf(publishedExchanges);
        this.sequenceStart = sequenceStart;
    }

    /** Parses a line; a valid line's sequence counts as used (call only for lines that will be published). */
    public Result parse(String line) {
        String trimmed = line.strip();
        if (trimmed.isEmpty() || trimmed.startsWith("#") || trimmed.regionMatches(true, 0, "symbol,", 0, 7)) {
            return IGNORED;
        }
        String[] f = trimmed.split(",", -1);
        if (f.length < 3 || f.length > 4) {
            return new Invalid("expected 3 or 4 fields (symbol,price,volume[,sequence]), found " + f.length);
        }
        String symbol = f[0].strip();
        SymbolInfo info = directory.symbol(symbol).orElse(null);
        if (info == null) {
            return new Invalid("unknown symbol '" + symbol + "'");
        }
        if (!exchanges.contains(info.exchange())) {
            return new Invalid(symbol + " is listed on " + info.exchange() + ", which this instance does not publish");
        }
        Long price = parseLong(f[1]);
        if (price == null || !info.isValidPrice(price)) {
            return new Invalid("price '" + f[1].strip() + "' is not a positive multiple of " + symbol + "'s tick size "
                    + info.tickSize() + " (minor units)");
        }
        Long volume = parseLong(f[2]);
        if (volume == null || volume <= 0) {
            return new Invalid("volume '" + f[2].strip() + "' is not a positive whole number of shares");
        }
        Long previous = lastSequence.get(symbol);
        long sequence;
        if (f.length == 4 && !f[3].isBlank()) {
            Long given = parseLong(f[3]);
            if (given == null || given < 0) {
                return new Invalid("sequence '" + f[3].strip() + "' is not a whole number >= 0");
            }
            if (previous != null && given <= previous) {
                return new Invalid("sequence " + given + " of " + symbol + " does not increase (previous " + previous + ")");
            }
            sequence = given;
        } else {
            sequence = previous == null ? sequenceStart : previous + 1;
        }
        lastSequence.put(symbol, sequence);
        return new Valid(symbol, info.exchange(), price, volume, sequence);
    }

    private static Long parseLong(String text) {
        try {
            return Long.parseLong(text.strip());
        } catch (NumberFormatException e) {
            return null;
        }
    }
}
