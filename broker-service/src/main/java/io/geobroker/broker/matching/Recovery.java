package io.geobroker.broker.matching;

import io.geobroker.broker.fill.FillPublisher;
import io.geobroker.broker.order.Order;
import io.geobroker.domain.Fill;
import io.geobroker.domain.Side;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Rebuilds the engine's state at start, before it applies any command: a group a crash left in the
 * journal is completed first, and the symbol rows of logged groups not yet projected are written;
 * then per owned symbol its progress, generation and latest quote are
 * read from symbol_state, each open order of its current generation in symbol_orders is put back in its
 * book, and the fills of the last two durable groups, which may not have reached Kafka, are
 * published again (same ids).
 */
final class Recovery {

    /** Logged under the engine's name, like everything the engine thread does. */
    private static final Logger log = LoggerFactory.getLogger(Engine.class);

    private final EngineStore store;
    private final BatchWriter writer;
    private final Map<String, SymbolState> symbols;
    private final OrderLifecycle orders;
    private final FillPublisher publisher;
    private final String region;
    private final EngineLog engineLog;

    Recovery(EngineStore store, BatchWriter writer, Map<String, SymbolState> symbols,
             OrderLifecycle orders, FillPublisher publisher, String region, EngineLog engineLog) {
        this.store = store;
        this.writer = writer;
        this.symbols = symbols;
        this.orders = orders;
        this.publisher = publisher;
        this.region = region;
        this.engineLog = engineLog;
    }

    /**
     * Rebuilds the state.
     *
     * @return the sequence number of the last group in the engine log (all of it now projected)
     */
    long recover() {
        writer.replayJournal();
        long lastLogged = writer.replayLog(engineLog);
        long start = System.nanoTime();
        List<Fill> republish = new ArrayList<>();
        for (SymbolState s : symbols.values()) {
            Optional<EngineStore.SymbolRow> stored = store.symbolState(s.symbol());
            stored.ifPresent(row -> restoreProgress(s, row));
            stored.flatMap(EngineStore.SymbolRow::quote).ifPresent(q -> restoreQuote(s, q));
            for (EngineStore.OpenRow row : store.openOrders(s.symbol(), s.generation)) {
                store.order(row.customerId(), row.orderId()).filter(o -> !o.status().isTerminal()).ifPresent(o -> {
                    OrderState state = OrderState.restore(o, bookLimitOf(o), row.sequence());
                    state.persistedGeneration = s.generation;
                    orders.restored(s, state);
                });
            }
            if (s.lastGroupFirstSequence >= 0) {
                for (EngineStore.FillRow f : store.fills(s.symbol(), s.lastGroupFirstSequence, lastSequenceToRepublish(s))) {
                    republish.add(EngineStore.toFill(f, s.info.exchange(), region, f.durableTimeMicros()));
                }
            }
        }
        publisher.publish(republish);
        log.info("engine state rebuilt: {} symbols, {} resting orders, {} fill(s) of the last group published again, in {} ms",
                symbols.size(), orders.resting(), republish.size(), (System.nanoTime() - start) / 1_000_000);
        return lastLogged;
    }

    static void restoreProgress(SymbolState s, EngineStore.SymbolRow row) {
        s.generation = row.generation();
        s.deletions = row.deletions();
        s.lastTickerSequence = row.lastTickerSequence();
        s.nextOrderSequence = row.nextOrderSequence();
        s.lastGroupFirstSequence = row.lastGroupFirstSequence();
    }

    static void restoreQuote(SymbolState s, EngineStore.QuoteRow q) {
        s.quotePrice = q.price();
        s.quoteVolume = q.volume();
        s.quoteSequence = q.sequence();
        s.quoteExchangeTimeMicros = q.exchangeTimeMicros();
        s.quoteUpdatedAt = q.updatedAt();
        s.quoteVolumeLeft = s.quoteVolume;
    }

    /** The last ticker sequence whose fills are published again: the later of the last ticker's and the quote's. */
    static long lastSequenceToRepublish(SymbolState s) {
        return Math.max(s.lastTickerSequence, s.quoteSequence);
    }

    /** The price a restored order may trade at: for a BUY STOP it is the protection price it reserved at. */
    static long bookLimitOf(Order o) {
        return switch (o.type()) {
            case LIMIT, STOP_LIMIT -> o.limitPrice();
            case STOP -> o.side() == Side.BUY ? o.reserved() / (o.quantity() - o.filledQuantity()) : 0;
            case MARKET -> 0;
        };
    }
}
