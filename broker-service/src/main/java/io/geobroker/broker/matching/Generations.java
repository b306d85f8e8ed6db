package io.geobroker.broker.matching;

import com.datastax.oss.driver.api.core.cql.BoundStatement;
import io.geobroker.domain.OrderStatus;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Keeps every read of a symbol's open orders below {@code deletionsPerGeneration} row tombstones,
 * or below {@link #TOMBSTONES_PER_RESTING_ORDER} per order the read returns if that is more: a
 * symbol's resting orders live in one generation of its symbol_orders partition (the first
 * clustering column), and a symbol whose current generation would reach that many deletions with
 * the group being committed moves to a fresh generation as part of the group, so a group that fills
 * thousands of orders never leaves them as tombstones in the slice a restart reads. Since a move
 * copies every resting order, a limit that grew no larger with the book would make a fill's cost
 * grow with it (a book of 2,000 orders copied every 100 fills is 20 row writes per fill); in
 * proportion to the book, a move costs at most 1 / {@link #TOMBSTONES_PER_RESTING_ORDER} row
 * writes per deletion, and a read at most that many tombstones per live row.
 *
 * <p>The orders resting after the group are copied into the next generation, which nothing reads
 * yet; the group itself switches symbol_state to it and deletes every older generation with one
 * range deletion, atomically with its fills: a crash before that leaves the old generation in use
 * and the copy unused. Each such deletion covers the previous one, so the partition keeps one range
 * tombstone, below the slice that is read.
 *
 * <p>Where the copy is written: a symbol's first move after the engine started reads the generation
 * it moves to, clears it if an interrupted move of an earlier run left rows there, and writes the
 * copy before the group, on the engine thread. Every later move hands the copy's rows to the group
 * ({@link Moves#copies}): they go in its log slot, atomic with the switch, and the engine does not
 * wait for them; a group written the older way writes them first, once every group before it is
 * durable. So a move that a crash interrupts leaves rows only in the generation after the durable
 * one, which the next run's first move of the symbol finds.
 */
final class Generations {

    /** Logged under the engine's name, like everything the engine thread does. */
    private static final Logger log = LoggerFactory.getLogger(Engine.class);
    /** A generation may hold this many row tombstones per order resting in it before it moves. */
    static final int TOMBSTONES_PER_RESTING_ORDER = 2;
    /**
     * Largest unlogged batch of a copy: rows of one partition, one mutation, so no batch log and no
     * batch-size limit applies; small enough for a busy node to apply well within its write timeout.
     */
    private static final int COPY_BATCH_BYTES = BatchWriter.SPLIT_BATCH_BYTES;

    private final EngineStore store;
    private final BatchWriter writer;
    private final WriteClock writeClock;
    private final Map<String, SymbolState> symbols;
    private final int deletionsPerGeneration;

    Generations(EngineStore store, BatchWriter writer, WriteClock writeClock, Map<String, SymbolState> symbols,
                int deletionsPerGeneration) {
        this.store = store;
        this.writer = writer;
        this.writeClock = writeClock;
        this.symbols = symbols;
        this.deletionsPerGeneration = deletionsPerGeneration;
    }

    /** Whether the order has a row in symbol_orders once the group is written (it rests in a book). */
    static boolean rests(OrderState o) {
        return o.isLive() && o.status != OrderStatus.PENDING;
    }

    /**
     * The symbols a group moves, each with the generation it drops, and the copies' rows the group
     * writes ({@link #writeCopies} before it, unless they go in its log slot).
     */
    record Moves(Map<SymbolState, Integer> dropped, List<BoundStatement> copies) {
    }

    /** Moves the symbols that must move with the group (see the class comment for where each copy goes). */
    Moves moveBeforeTombstonesPileUp(Collection<OrderState> groupOrders) {
        Map<SymbolState, Integer> moved = new HashMap<>();
        List<BoundStatement> copies = new ArrayList<>();
        deletions(groupOrders, symbols).forEach((s, count) -> {
            if (mustMove(s.deletions + count, s.book.size(), deletionsPerGeneration)) {
                moved.put(s, s.generation);
                copyToNextGeneration(s, copies);
            }
        });
        return new Moves(moved, copies);
    }

    /** Writes copies' rows, one partition's chunks at a time, waiting for each. */
    void writeCopies(List<BoundStatement> copies) {
        for (List<BoundStatement> partition : BatchWriter.byPartition(copies, BoundStatement::getRoutingKey)) {
            for (List<BoundStatement> chunk : BatchWriter.chunks(partition, store::sizeOf, COPY_BATCH_BYTES)) {
                writer.persistPartition(chunk, writeClock.next());
            }
        }
    }

    /** Per symbol, the rows of its current generation the group's orders delete. */
    static Map<SymbolState, Integer> deletions(Collection<OrderState> groupOrders, Map<String, SymbolState> symbols) {
        Map<SymbolState, Integer> deletions = new HashMap<>();
        for (OrderState o : groupOrders) {
            SymbolState s = symbols.get(o.symbol);
            if (!rests(o) && o.persistedGeneration >= 0 && o.persistedGeneration == s.generation) {
                deletions.merge(s, 1, Integer::sum);
            }
        }
        return deletions;
    }

    /**
     * Whether a generation with {@code deletions} (the group's included) and {@code resting} orders
     * after the group has reached its limit: {@code deletionsPerGeneration}, or
     * {@link #TOMBSTONES_PER_RESTING_ORDER} per resting order if that is more.
     */
    static boolean mustMove(int deletions, int resting, int deletionsPerGeneration) {
        return deletions >= Math.max(deletionsPerGeneration, (long) TOMBSTONES_PER_RESTING_ORDER * resting);
    }

    /**
     * The group's symbol_orders statements for one of its orders: a row in the current generation
     * for an order that rests there without one, a row deleted for one that leaves (unless its whole
     * generation is dropped with this group), counting the deletion against the current generation.
     */
    void openOrderChanges(OrderState o, Map<SymbolState, Integer> moved, List<BoundStatement> statements,
                          Group group) {
        SymbolState s = symbols.get(o.symbol);
        if (rests(o)) {
            if (o.persistedGeneration != s.generation) {
                statements.add(store.openOrder(o, s.generation));
                o.persistedGeneration = s.generation;
            }
        } else if (o.persistedGeneration >= 0) {
            Integer dropped = moved.get(s);
            if (dropped == null || o.persistedGeneration != dropped) {
                statements.add(store.deleteOpenOrder(o.symbol, o.persistedGeneration, o.id));
            }
            if (o.persistedGeneration == s.generation) {
                s.deletions++;
                group.symbols.add(s);
            }
            o.persistedGeneration = -1;
        }
    }

    /** Drops the generations the symbols moved from (and all before them), in the group's own write. */
    void dropMoved(Map<SymbolState, Integer> moved, List<BoundStatement> statements, Group group) {
        moved.forEach((s, dropped) -> {
            statements.add(store.deleteGenerationsThrough(s.symbol(), dropped));
            group.symbols.add(s);
        });
    }

    /**
     * Copies the symbol's resting orders into its next generation: at its first move since the start
     * written now, else their rows added to {@code copies}.
     */
    private void copyToNextGeneration(SymbolState s, List<BoundStatement> copies) {
        int next = s.generation + 1;
        List<BoundStatement> rows = new ArrayList<>(s.book.size());
        for (OrderState o : s.book.orders()) {
            rows.add(store.openOrder(o, next));
        }
        if (s.movedSinceStart) {
            copies.addAll(rows);
        } else {
            if (!store.openOrders(s.symbol(), next).isEmpty()) {
                // left by a move a crash interrupted: those rows may be of orders that have left the book since
                writer.persistPartition(List.of(store.deleteGeneration(s.symbol(), next)), writeClock.next());
            }
            writeCopies(rows);
            s.movedSinceStart = true;
        }
        s.generation = next;
        s.deletions = 0;
        for (OrderState o : s.book.orders()) {
            o.persistedGeneration = next;
        }
        log.debug("{} moves to symbol_orders generation {} with {} resting orders", s.symbol(), next, s.book.size());
    }
}
