package io.geobroker.broker.matching;

import com.datastax.oss.driver.api.core.cql.BoundStatement;
import io.geobroker.broker.fill.FillPublisher;
import io.geobroker.broker.routing.OrderInbox;
import io.geobroker.broker.order.OrderIds;
import io.geobroker.domain.Fill;
import io.geobroker.domain.OrderEvent;
import io.geobroker.domain.OrderType;
import io.geobroker.domain.WallClock;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import java.util.concurrent.TimeUnit;

/**
 * Makes the group being built durable and then lets the world see it: the group's absolute rows
 * (each once, with its final values, symbol_orders by {@link Generations}, the symbols' progress
 * and the deletion of their fills a restart no longer needs last) are written by the {@link BatchWriter} at the group's timestamp; only then are its REST
 * calls answered, its fills and order events (the orders it cancelled or expired) handed to Kafka
 * and, once Kafka has acknowledged them, its ticker offsets released ({@link InFlight}).
 */
final class GroupCommit {

    /** Logged under the engine's name, like everything the engine thread does. */
    private static final Logger log = LoggerFactory.getLogger(Engine.class);

    private final Group group;
    private final Map<String, SymbolState> symbols;
    private final EngineStore store;
    private final Generations generations;
    private final BatchWriter writer;
    private final FillPublisher publisher;
    private final InFlight inFlight;
    private final EngineMetrics metrics;
    private final String region;
    private final EngineLog engineLog;
    private final Projection projection;
    private final int minLoggedSymbols;
    private final boolean logCustomerRows;
    private long nextSeq = 1;

    GroupCommit(Group group, Map<String, SymbolState> symbols, EngineStore store, Generations generations,
                BatchWriter writer, FillPublisher publisher, InFlight inFlight, EngineMetrics metrics, String region,
                EngineLog engineLog, Projection projection, int minLoggedSymbols, boolean logCustomerRows) {
        this.group = group;
        this.symbols = symbols;
        this.store = store;
        this.generations = generations;
        this.writer = writer;
        this.publisher = publisher;
        this.inFlight = inFlight;
        this.metrics = metrics;
        this.region = region;
        this.engineLog = engineLog;
        this.projection = projection;
        this.minLoggedSymbols = minLoggedSymbols;
        this.logCustomerRows = logCustomerRows;
    }

    /** Groups with symbol statements get log slots from {@code seq} on (the one after the last at start). */
    void startAt(long seq) {
        nextSeq = seq;
    }

    void commit() throws InterruptedException {
        long timestamp = group.timestampMicros();
        List<BoundStatement> statements = new ArrayList<>();
        Map<SymbolState, Integer> moved = generations.moveBeforeTombstonesPileUp(group.orders.values());
        for (OrderState o : group.orders.values()) {
            statements.addAll(store.order(o));
            o.rowWritten = true;
            generations.openOrderChanges(o, moved, statements, group);
        }
        generations.dropMoved(moved, statements, group);
        for (CashAccount c : group.cash) {
            statements.add(store.cash(c));
        }
        for (Holding h : group.holdings) {
            statements.add(store.holding(h));
        }
        statements.addAll(group.transactions);
        for (Supplier<BoundStatement> row : group.latest.values()) {
            statements.add(row.get());
        }
        for (OrderInbox.Entry e : group.inbox) {
            statements.add(store.processed(e));
        }
        for (EngineStore.FillRow f : group.fills) {
            statements.add(store.fill(f));
        }
        group.fillSymbols.forEach((s, first) -> s.lastGroupFirstSequence = lastGroupFirstSequence(
                first, inFlight.firstSequence(s)));
        List<BoundStatement> progress = new ArrayList<>();
        for (SymbolState s : group.symbols) {
            progress.add(store.symbolState(s));
        }
        for (SymbolState s : group.fillSymbols.keySet()) {
            // in the symbol's partition, with the progress that moves the republish point past them
            progress.add(store.deleteFillsBefore(s.symbol(), s.lastGroupFirstSequence));
        }
        persist(statements, progress, timestamp);
        long persistedNanos = System.nanoTime();
        for (SymbolState s : group.symbols) {
            s.persistedQuoteSequence = s.quoteSequence;
            s.persistedAtNanos = persistedNanos;
            if (s.lastHeld != null) {
                group.offsets.add(s.lastHeld);
            }
            s.release();
        }
        long durableMicros = WallClock.nowMicros();
        group.durableMicros = durableMicros;

        List<Fill> fills = new ArrayList<>(group.fills.size());
        for (EngineStore.FillRow f : group.fills) {
            fills.add(EngineStore.toFill(f, symbols.get(f.symbol()).info.exchange(), region, durableMicros));
            if (f.orderType() != OrderType.MARKET) {
                // a market order fills when placed, at a quote that may be older than the order
                metrics.tickerToFill.record(Math.max(0, durableMicros - f.tickerExchangeTimeMicros()), TimeUnit.MICROSECONDS);
            }
        }
        List<OrderEvent> events = new ArrayList<>(group.ended.size());
        for (OrderState o : group.ended) {
            events.add(event(o, region));
        }
        for (Runnable completion : group.completions) {
            completion.run();
        }
        inFlight.hand(() -> publisher.send(fills, events), new HashMap<>(group.fillSymbols),
                new ArrayList<>(group.offsets), new ArrayList<>(group.skipped));
        group.clear();
    }

    /**
     * Makes the group durable. With {@code logCustomerRows}, every statement goes in one slot of the
     * engine log, a single-partition write, and the {@link Projection} writes them all to their
     * tables later (this region's reads of the customers wait for it: {@link ProjectionBarrier}); a
     * group whose slot would not fit in one batch, or with a statement the projection cannot time
     * stamp, is written whole the older way once every logged group before it is projected.
     * Otherwise: its customers' rows (orders, cash, holdings, transactions, inbox) and
     * a log slot holding its symbol statements in one batch, the symbol statements then left to the
     * {@link Projection}; a group whose symbol rows are of one symbol writes them with the rest. A group whose slot would not fit in one batch is written whole the older
     * way ({@link BatchWriter#persistGroup}, through the journal when large) once every logged group
     * before it is projected.
     */
    private void persist(List<BoundStatement> statements, List<BoundStatement> progress, long timestamp)
            throws InterruptedException {
        if (logCustomerRows) {
            List<BoundStatement> all = new ArrayList<>(statements.size() + progress.size());
            all.addAll(statements);
            all.addAll(progress);
            if (!all.isEmpty() && store.loggable(all)) {
                long seq = nextSeq;
                BoundStatement slot = slot(seq, timestamp, all);
                if (slot != null && writer.fitsOneBatch(List.of(), slot)) {
                    projection.awaitSlot(seq);
                    writer.persistGroup(List.of(), List.of(slot), timestamp);
                    countSlot();
                    nextSeq = seq + 1;
                    projection.add(new Projection.Logged(seq, timestamp, all));
                    return;
                }
            }
            if (all.isEmpty()) {
                return;
            }
            projection.flush();
            writer.persistGroup(statements, progress, timestamp);
            return;
        }
        List<BoundStatement> customers = new ArrayList<>(statements.size());
        List<BoundStatement> symbolRows = new ArrayList<>(statements.size() + progress.size());
        for (BoundStatement s : statements) {
            (store.isSymbolStatement(s) ? symbolRows : customers).add(s);
        }
        symbolRows.addAll(progress);
        if (symbolRows.isEmpty()) {
            writer.persistGroup(customers, List.of(), timestamp);
            return;
        }
        if (EngineStore.partitions(symbolRows) < minLoggedSymbols) {
            // one symbol's rows are one mutation either way: written with the group, not logged
            writer.persistGroup(statements, progress, timestamp);
            return;
        }
        long seq = nextSeq;
        BoundStatement slot = slot(seq, timestamp, symbolRows);
        if (slot == null || !writer.fitsOneBatch(customers, slot)) {
            projection.flush();
            writer.persistGroup(statements, progress, timestamp);
            return;
        }
        projection.awaitSlot(seq);
        writer.persistGroup(customers, List.of(slot), timestamp);
        countSlot();
        nextSeq = seq + 1;
        projection.add(new Projection.Logged(seq, timestamp, symbolRows));
    }

    /** A slot written: a partition no other DC receives, when the log is in the DC's own keyspace. */
    private void countSlot() {
        if (engineLog.inOwnDc()) {
            metrics.unreplicatedPartitions.increment();
        }
    }

    /**
     * The log slot of group {@code seq}, or null when a CQL text in it could not be numbered (its
     * lightweight transaction failed): the group is then written the older way.
     */
    private BoundStatement slot(long seq, long timestamp, List<BoundStatement> statements) {
        try {
            return engineLog.slot(seq, timestamp, statements);
        } catch (RuntimeException e) {
            log.warn("group {} is written outside the engine log: {}", seq, e.toString());
            return null;
        }
    }

    /** The order event of an order this group cancelled or expired. */
    static OrderEvent event(OrderState o, String region) {
        return new OrderEvent(OrderIds.eventId(o.id, o.status).toString(), o.status, o.id.toString(), o.customerId,
                o.clientOrderId, o.symbol, o.exchange, o.side, o.type, o.quantity, o.filledQuantity, o.filledNotional,
                o.currency, Math.multiplyExact(o.updatedAt.toEpochMilli(), 1_000L), region);
    }

    /**
     * The first ticker sequence whose fills may be missing from Kafka after a crash, for a symbol
     * this group fills from {@code first} on: the group in flight's, while it has fills of the symbol
     * Kafka has not acknowledged ({@code inFlightFirst}, else null), since a restart must publish
     * those again too.
     */
    static long lastGroupFirstSequence(long first, Long inFlightFirst) {
        return inFlightFirst != null ? inFlightFirst : first;
    }
}
