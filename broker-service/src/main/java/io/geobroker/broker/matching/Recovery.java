package io.geobroker.broker.matching;

import com.datastax.oss.driver.api.core.cql.BoundStatement;
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
 * journal is completed first; then per owned symbol its progress, generation and latest quote are
 * read from symbol_state, each open order of its current generation in symbol_orders is put back in its
 * book, and the fills of the last two durable groups, which may not have reached Kafka, are
 * published again (same ids).
 */
final class Recovery {

    /** Logged under the engine's name, like everything the engine thread does. */
    private static final Logger log = LoggerFactory.getLogger(Engine.class);
    private static final int COPY_BATCH = 50;

    private final EngineStore store;
    private final BatchWriter writer;
    private final WriteClock writeClock;
    private final Map<String, SymbolState> symbols;
    private final OrderLifecycle orders;
    private final FillPublisher publisher;
    private final String region;

    Recovery(EngineStore store, BatchWriter writer, WriteClock writeClock, Map<String, SymbolState> symbols,
             OrderLifecycle orders, FillPublisher publisher, String region) {
        this.store = store;
        this.writer = writer;
        this.writeClock = writeClock;
        this.symbols = symbols;
        this.orders = orders;
        this.publisher = publisher;
        this.region = region;
    }

    void recover() {
        writer.replayJournal();
        long start = System.nanoTime();
        List<Fill> republish = new ArrayList<>();
        for (SymbolState s : symbols.values()) {
            Optional<EngineStore.SymbolRow> stored = store.symbolState(s.symbol());
            stored.ifPresent(row -> restoreProgress(s, row));
            Optional<EngineStore.QuoteRow> quote = stored.flatMap(EngineStore.SymbolRow::quote);
            if (quote.isPresent()) {
                restoreQuote(s, quote.get());
            } else {
                store.legacyQuote(s.symbol()).ifPresent(q -> copyLegacyQuote(s, q));
            }
            for (EngineStore.OpenRow row : openOrders(s)) {
                store.order(row.customerId(), row.orderId()).filter(f -> !f.order().status().isTerminal()).ifPresent(f -> {
                    Order o = f.order();
                    OrderState state = OrderState.restore(o, bookLimitOf(o), row.sequence());
                    if (f.legacy()) {
                        // placed before schema V006: its first write puts the whole row in customer_orders
                        state.rowWritten = false;
                        state.listedWherePlaced = true;
                    }
                    state.persistedGeneration = s.generation;
                    orders.restored(s, state);
                });
            }
            if (s.lastGroupFirstSequence >= 0) {
                for (EngineStore.FillRow f : lastGroupsFills(s)) {
                    republish.add(EngineStore.toFill(f, s.info.exchange(), region, f.durableTimeMicros()));
                }
            }
        }
        publisher.publish(republish);
        log.info("engine state rebuilt: {} symbols, {} resting orders, {} fill(s) of the last group published again, in {} ms",
                symbols.size(), orders.resting(), republish.size(), (System.nanoTime() - start) / 1_000_000);
    }

    /**
     * The symbol's resting orders in its current generation; when symbol_orders holds none, those a
     * broker before schema V007 left in open_orders, copied into symbol_orders first.
     */
    private List<EngineStore.OpenRow> openOrders(SymbolState s) {
        List<EngineStore.OpenRow> rows = store.openOrders(s.symbol(), s.generation);
        if (!rows.isEmpty()) {
            return rows;
        }
        List<BoundStatement> legacy = store.legacyOpenOrders(s.symbol(), s.generation);
        if (legacy.isEmpty()) {
            return rows;
        }
        for (int from = 0; from < legacy.size(); from += COPY_BATCH) {
            writer.persistPartition(legacy.subList(from, Math.min(legacy.size(), from + COPY_BATCH)), writeClock.next());
        }
        // once: a later start whose generation is empty must not copy orders that have left the book since
        writer.persistPartition(List.of(store.deleteLegacyOpenOrders(s.symbol(), s.generation)), writeClock.next());
        log.info("{}: {} resting orders of generation {} copied from open_orders into symbol_orders", s.symbol(),
                legacy.size(), s.generation);
        return store.openOrders(s.symbol(), s.generation);
    }

    /**
     * The fills of the symbol's last two durable groups; when symbol_fills holds none, those a broker
     * before schema V007 wrote to fills_by_ticker, one ticker at a time.
     */
    private List<EngineStore.FillRow> lastGroupsFills(SymbolState s) {
        long last = lastSequenceToRepublish(s);
        List<EngineStore.FillRow> fills = store.fills(s.symbol(), s.lastGroupFirstSequence, last);
        if (!fills.isEmpty()) {
            return fills;
        }
        for (long seq = s.lastGroupFirstSequence; seq <= last; seq++) {
            fills.addAll(store.legacyFills(s.symbol(), seq));
        }
        return fills;
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

    /** A quote a broker before schema V005 left in the quotes table: restored, and written into symbol_state. */
    private void copyLegacyQuote(SymbolState s, EngineStore.QuoteRow q) {
        restoreQuote(s, q);
        writer.persistPartition(List.of(store.symbolState(s)), writeClock.next());
        log.info("{}: quote of sequence {} copied from the quotes table into symbol_state", s.symbol(), q.sequence());
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
