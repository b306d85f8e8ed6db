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

    SymbolState(SymbolInfo info, String currency) {
        this.info = info;
        this.currency = currency;
        this.book = new SymbolBook(info.symbol());
    }

    String symbol() {
        return info.symbol();
    }
}
