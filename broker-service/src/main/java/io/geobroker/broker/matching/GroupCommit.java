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
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.function.LongConsumer;
import java.util.function.Supplier;
import java.util.concurrent.TimeUnit;

/**
 * Makes the group being built durable and then lets the world see it: the group's absolute rows
 * (each once, with its final values, symbol_orders by {@link Generations}, the symbols' progress
 * and the deletion of their fills a restart no longer needs last) are written by the
 * {@link BatchWriter} at the group's timestamp; only then are its REST calls answered, its fills and
 * order events (the orders it cancelled or expired) handed to Kafka and, once Kafka has acknowledged
 * them, its ticker offsets released ({@link InFlight}). A group written as one log slot does not
 * wait for its write: the engine goes on with the next group while it is under way, and
 * {@link Writing} makes the groups visible in order as their writes are answered.
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
    private final Writing writing;
    private long nextSeq = 1;

    GroupCommit(Group group, Map<String, SymbolState> symbols, EngineStore store, Generations generations,
                BatchWriter writer, FillPublisher publisher, InFlight inFlight, EngineMetrics metrics, String region,
                EngineLog engineLog, Projection projection, int minLoggedSymbols, boolean logCustomerRows,
                Writing writing) {
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
        this.writing = writing;
    }

    /** Groups with symbol statements get log slots from {@code seq} on (the one after the last at start). */
    void startAt(long seq) {
        nextSeq = seq;
    }

    void commit() throws InterruptedException {
        long timestamp = group.timestampMicros();
        List<BoundStatement> statements = new ArrayList<>();
        Generations.Moves moves = generations.moveBeforeTombstonesPileUp(group.orders.values());
        for (OrderState o : group.orders.values()) {
            statements.addAll(store.order(o));
            o.rowWritten = true;
            generations.openOrderChanges(o, moves.dropped(), statements, group);
        }
        generations.dropMoved(moves.dropped(), statements, group);
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
                first, firstUnpublished(s)));
        List<BoundStatement> progress = new ArrayList<>();
        for (SymbolState s : group.symbols) {
            progress.add(store.symbolState(s));
        }
        for (SymbolState s : group.fillSymbols.keySet()) {
            // in the symbol's partition, with the progress that moves the republish point past them
            progress.add(store.deleteFillsBefore(s.symbol(), s.lastGroupFirstSequence));
        }
        long persistedNanos = System.nanoTime();
        List<Command.TickerReceived> held = new ArrayList<>();
        for (SymbolState s : group.symbols) {
            s.persistedQuoteSequence = s.quoteSequence;
            s.persistedAtNanos = persistedNanos;
            if (s.lastHeld != null) {
                group.offsets.add(s.lastHeld);
                held.add(s.firstHeld);
            }
            s.release();
        }
        // read only from here on: by the writes under way and, once visible, by the fills in Kafka's hands
        Map<SymbolState, Long> firstSequences = Map.copyOf(group.fillSymbols);
        Runnable visible = visible(firstSequences);
        group.clear();
        persist(moves.copies(), statements, progress, timestamp, visible, firstSequences, held);
    }

    /**
     * What makes the group visible once it is durable, taken from it as it is now (the engine builds
     * the next groups meanwhile): its REST answers (prepared now, from the state it leaves), its fills
     * and order events handed to Kafka, its ticker offsets released once Kafka has them.
     */
    private Runnable visible(Map<SymbolState, Long> firstSequences) {
        List<EngineStore.FillRow> fillRows = new ArrayList<>(group.fills);
        List<OrderEvent> events = new ArrayList<>(group.ended.size());
        for (OrderState o : group.ended) {
            events.add(event(o, region));
        }
        List<LongConsumer> answers = new ArrayList<>(group.completions.size());
        for (Group.Answer completion : group.completions) {
            answers.add(completion.prepare());
        }
        List<Command.TickerReceived> offsets = new ArrayList<>(group.offsets);
        List<Command.Skipped> skipped = new ArrayList<>(group.skipped);
        return () -> {
            long durableMicros = WallClock.nowMicros();
            List<Fill> fills = new ArrayList<>(fillRows.size());
            for (EngineStore.FillRow f : fillRows) {
                fills.add(EngineStore.toFill(f, symbols.get(f.symbol()).info.exchange(), region, durableMicros));
                if (f.orderType() != OrderType.MARKET) {
                    // a market order fills when placed, at a quote that may be older than the order
                    metrics.tickerToFill.record(Math.max(0, durableMicros - f.tickerExchangeTimeMicros()),
                            TimeUnit.MICROSECONDS);
                }
            }
            for (LongConsumer answer : answers) {
                answer.accept(durableMicros);
            }
            inFlight.hand(() -> publisher.send(fills, events), firstSequences, offsets, skipped);
        };
    }

    /**
     * The first ticker sequence of a symbol whose fills may not have reached Kafka, of the groups
     * before this one: those Kafka has not acknowledged, else those still being written; null when none.
     */
    private Long firstUnpublished(SymbolState s) {
        Long first = inFlight.firstSequence(s);
        return first != null ? first : writing.firstSequence(s);
    }

    /**
     * Makes the group durable, then {@code visible} runs. With {@code logCustomerRows}, every
     * statement (the moved symbols' copies first) goes in one slot of the engine log, a
     * single-partition write started here and finished by {@link Writing} (the {@link Projection}
     * writes the statements to their tables later; this region's reads of the customers wait for
     * it: {@link ProjectionBarrier}); a group
     * whose slot would not fit in one batch, or with a statement the projection cannot time stamp, is
     * written whole the older way, on this thread, once every group before it is durable and every
     * logged one projected. Otherwise {@link #persistWithSymbolLog}, on this thread too. Outside the
     * log, the copies are written before the group.
     */
    private void persist(List<BoundStatement> copies, List<BoundStatement> statements, List<BoundStatement> progress,
                         long timestamp, Runnable visible, Map<SymbolState, Long> firstSequences, List<Command.TickerReceived> held)
            throws InterruptedException {
        if (!logCustomerRows) {
            writing.writeNow(held, () -> {
                generations.writeCopies(copies);
                persistWithSymbolLog(statements, progress, timestamp);
            });
            visible.run();
            return;
        }
        List<BoundStatement> all = new ArrayList<>(copies.size() + statements.size() + progress.size());
        all.addAll(copies);
        all.addAll(statements);
        all.addAll(progress);
        if (all.isEmpty()) {
            // nothing to write (answers that change nothing): visible after the groups before it
            writing.add(() -> CompletableFuture.completedFuture(null), written -> visible.run(), firstSequences, held);
            return;
        }
        if (store.loggable(all)) {
            long seq = nextSeq;
            BoundStatement slot = slot(seq, timestamp, all);
            if (slot != null && writer.fitsOneBatch(List.of(), slot)) {
                projection.awaitSlot(seq);
                writing.add(() -> writer.startSlot(slot, timestamp), written -> {
                    writer.finishSlot(written, slot, timestamp);
                    projection.add(seq, timestamp, all);
                    visible.run();
                }, firstSequences, held);
                countSlot();
                nextSeq = seq + 1;
                return;
            }
        }
        writing.writeNow(held, () -> {
            projection.flush();
            generations.writeCopies(copies);
            writer.persistGroup(statements, progress, timestamp);
        });
        visible.run();
    }

    /**
     * Without {@code logCustomerRows}: the customers' rows and a log slot of the symbol statements in
     * one logged batch, or the whole group written directly; on the engine thread, waiting.
     */
    private void persistWithSymbolLog(List<BoundStatement> statements, List<BoundStatement> progress, long timestamp)
            throws InterruptedException {
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
        projection.add(seq, timestamp, symbolRows);
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
