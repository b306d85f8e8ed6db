package io.geobroker.broker.matching;

import io.geobroker.domain.SymbolInfo;

import java.time.Instant;

/** The engine's state of one owned symbol: its book, latest quote and durable progress. */
final class SymbolState {

    final SymbolInfo info;
    final String currency;
    final SymbolBook book;

    int generation;
    int deletions;
    /**
     * Whether the symbol moved to a new generation since the engine started: only a first move may
     * find rows an interrupted move left in the generation it moves to ({@link Generations}).
     */
    boolean movedSinceStart;
    long lastTickerSequence = -1;
    long nextOrderSequence;
    long lastGroupFirstSequence = -1;

    /** Latest ticker (the quote market orders execute against), or sequence -1 when there is none yet. */
    long quotePrice;
    long quoteVolume;
    long quoteSequence = -1;
    long quoteExchangeTimeMicros;
    /** When the engine took the latest quote. */
    Instant quoteUpdatedAt;
    /** Volume of the latest quote not yet taken by fills (market orders may take only this much). */
    long quoteVolumeLeft;
    /** The quote sequence last written to symbol_state, and when (System.nanoTime()). */
    long persistedQuoteSequence = -1;
    long persistedAtNanos = System.nanoTime() - Long.MAX_VALUE / 2;

    /**
     * The first and the last ticker applied since the symbol was last written: their offsets may not
     * be committed before the symbol's state (with their sequence and quote) is durable.
     */
    Command.TickerReceived firstHeld;
    Command.TickerReceived lastHeld;

    void hold(Command.TickerReceived ticker) {
        if (firstHeld == null) {
            firstHeld = ticker;
        }
        lastHeld = ticker;
    }

    void release() {
        firstHeld = null;
        lastHeld = null;
    }

    SymbolState(SymbolInfo info, String currency) {
        this.info = info;
        this.currency = currency;
        this.book = new SymbolBook(info.symbol());
    }

    String symbol() {
        return info.symbol();
    }
}
