package io.geobroker.broker.matching;

import io.geobroker.broker.fill.FillPublisher;
import io.geobroker.broker.order.Order;
import io.geobroker.broker.order.OrderDao;
import io.geobroker.domain.Fill;
import io.geobroker.domain.Side;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Semaphore;
import java.util.function.Function;

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
    /** Reads of the rebuild under way at once at most. */
    static final int READS_AT_ONCE = 64;

    private final EngineStore store;
    private final BatchWriter writer;
    private final Map<String, SymbolState> symbols;
    private final OrderLifecycle orders;
    private final FillPublisher publisher;
    private final String region;
    private final EngineLog engineLog;
    private final Optional<EngineLog> olderLog;

    /**
     * {@code olderLog}: where a broker of before schema V014 kept the log (the broker's own keyspace),
     * when the log is elsewhere now; what it left unprojected there is written first.
     */
    Recovery(EngineStore store, BatchWriter writer, Map<String, SymbolState> symbols,
             OrderLifecycle orders, FillPublisher publisher, String region, EngineLog engineLog,
             Optional<EngineLog> olderLog) {
        this.store = store;
        this.writer = writer;
        this.symbols = symbols;
        this.orders = orders;
        this.publisher = publisher;
        this.region = region;
        this.engineLog = engineLog;
        this.olderLog = olderLog;
    }

    /**
     * Rebuilds the state. The reads of a step are all sent at once (at most {@link #READS_AT_ONCE}
     * under way): the symbols' rows, then their open orders, then those orders' rows, then the fills
     * to publish again; what they found is applied in the symbols' and rows' order, as one read after
     * the other would. A restart then waits for a few round trips to Cassandra, not for hundreds (on
     * a busy node one after the other took seconds).
     *
     * @return the sequence number of the last group in the engine log (all of it now projected)
     */
    long recover() {
        long begin = System.nanoTime();
        writer.replayJournal();
        olderLog.ifPresent(writer::replayLog);
        long lastLogged = writer.replayLog(engineLog);
        long start = System.nanoTime();
        List<SymbolState> all = new ArrayList<>(symbols.values());
        List<Optional<EngineStore.SymbolRow>> stored = readAll(all, s -> store.symbolStateAsync(s.symbol()));
        for (int i = 0; i < all.size(); i++) {
            SymbolState s = all.get(i);
            stored.get(i).ifPresent(row -> restoreProgress(s, row));
            stored.get(i).flatMap(EngineStore.SymbolRow::quote).ifPresent(q -> restoreQuote(s, q));
        }
        List<List<EngineStore.OpenRow>> open = readAll(all, s -> store.openOrdersAsync(s.symbol(), s.generation));
        List<EngineStore.OpenRow> rows = open.stream().flatMap(List::stream).toList();
        List<Optional<Order>> found = readAll(rows, row -> store.orderAsync(row.customerId(), row.orderId()));
        int next = 0;
        for (int i = 0; i < all.size(); i++) {
            SymbolState s = all.get(i);
            for (EngineStore.OpenRow row : open.get(i)) {
                found.get(next++).filter(o -> !o.status().isTerminal()).ifPresent(o -> {
                    OrderState state = OrderState.restore(o, bookLimitOf(o), row.sequence());
                    state.persistedGeneration = s.generation;
                    orders.restored(s, state);
                });
            }
        }
        List<SymbolState> withFills = all.stream().filter(s -> s.lastGroupFirstSequence >= 0).toList();
        List<Fill> republish = new ArrayList<>();
        List<List<EngineStore.FillRow>> fills = readAll(withFills,
                s -> store.fillsAsync(s.symbol(), s.lastGroupFirstSequence, lastSequenceToRepublish(s)));
        for (int i = 0; i < withFills.size(); i++) {
            SymbolState s = withFills.get(i);
            for (EngineStore.FillRow f : fills.get(i)) {
                republish.add(EngineStore.toFill(f, s.info.exchange(), region, f.durableTimeMicros()));
            }
        }
        long read = System.nanoTime();
        publisher.publish(republish);
        long published = System.nanoTime();
        log.info("engine state rebuilt: {} symbols, {} resting orders, {} fill(s) of the last group published again, "
                        + "in {} ms ({} ms writing what the journal and the log held, {} ms reading, {} ms publishing)",
                symbols.size(), orders.resting(), republish.size(), (published - begin) / 1_000_000,
                (start - begin) / 1_000_000, (read - start) / 1_000_000, (published - read) / 1_000_000);
        return lastLogged;
    }

    /**
     * One read per item, at most {@code READS_AT_ONCE} under way at a time (a new one as soon as one
     * ends); the results in the items' order. A failed read fails the whole, with the driver's exception.
     */
    static <T, R> List<R> readAll(List<T> items, Function<T, CompletableFuture<R>> read) {
        List<CompletableFuture<R>> reads = new ArrayList<>(items.size());
        Semaphore underWay = new Semaphore(READS_AT_ONCE);
        for (T item : items) {
            underWay.acquireUninterruptibly();
            CompletableFuture<R> r = read.apply(item);
            r.whenComplete((v, e) -> underWay.release());
            reads.add(r);
        }
        List<R> results = new ArrayList<>(items.size());
        for (CompletableFuture<R> r : reads) {
            results.add(OrderDao.joined(r));
        }
        return results;
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
