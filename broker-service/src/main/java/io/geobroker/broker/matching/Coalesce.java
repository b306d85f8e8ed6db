package io.geobroker.broker.matching;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

/**
 * Drops the symbol statements of several groups that a later group's statements make invisible, so
 * the {@link Projection} writes each row once: a symbol's state or a resting order's row overwritten
 * in every cell by a later group, a resting order's row deleted later (by its own deletion or its
 * generation's), a fill below a later deletion of the symbol's older fills, and a deletion inside a
 * later, wider one. Every statement carries its group's write timestamp, and a later group's is
 * greater, so what is dropped would have been shadowed in Cassandra anyway: the tables end in the
 * same state as if every statement had been written. Statements of the same group never cover each
 * other (a group writes each row once).
 */
final class Coalesce {

    /** What a symbol statement does, as far as covering goes. */
    enum Shape {
        SYMBOL_STATE, OPEN_ORDER, FILL, DELETE_OPEN_ORDER, DELETE_GENERATION, DELETE_GENERATIONS_THROUGH,
        DELETE_FILLS_BEFORE,
        /** Any other statement (a customer's row, an inbox mark): written as it is, never left out, covers nothing. */
        OTHER
    }

    /**
     * One symbol statement.
     *
     * @param generation the symbol_orders generation (OPEN_ORDER, DELETE_OPEN_ORDER, DELETE_GENERATION*)
     * @param orderId    the order (OPEN_ORDER, DELETE_OPEN_ORDER)
     * @param sequence   the fill's ticker sequence (FILL) or the bound below which fills go (DELETE_FILLS_BEFORE)
     * @param cells      the bound values that are set, one bit each (upserts: the cells it writes)
     * @param statement  what is written, carried through
     */
    record Write<S>(Shape shape, String symbol, int generation, UUID orderId, long sequence, long cells, S statement) {
    }

    private Coalesce() {
    }

    /**
     * The writes that still matter, in their original order; {@code groups} are in commit order,
     * each the writes of one group.
     */
    static <S> List<List<Write<S>>> keep(List<List<Write<S>>> groups) {
        Later later = new Later();
        List<List<Write<S>>> kept = new ArrayList<>(groups.size());
        for (int i = 0; i < groups.size(); i++) {
            kept.add(null);
        }
        for (int g = groups.size() - 1; g >= 0; g--) {
            List<Write<S>> group = groups.get(g);
            List<Write<S>> survivors = new ArrayList<>(group.size());
            for (Write<S> w : group) {
                if (!later.covers(w)) {
                    survivors.add(w);
                }
            }
            for (Write<S> w : group) {
                later.add(w);
            }
            kept.set(g, survivors);
        }
        return kept;
    }

    /** What the groups after the one being looked at write, as far as covering goes. */
    private static final class Later {
        private final Map<String, Long> stateCells = new HashMap<>();
        private final Map<OrderKey, Long> orderCells = new HashMap<>();
        private final Set<OrderKey> deletedOrders = new HashSet<>();
        private final Set<GenerationKey> deletedGenerations = new HashSet<>();
        private final Map<String, Integer> deletedThrough = new HashMap<>();
        private final Map<String, Long> fillsDeletedBefore = new HashMap<>();

        boolean covers(Write<?> w) {
            return switch (w.shape()) {
                case SYMBOL_STATE -> covered(stateCells.get(w.symbol()), w.cells());
                case OPEN_ORDER -> covered(orderCells.get(OrderKey.of(w)), w.cells())
                        || deletedOrders.contains(OrderKey.of(w)) || generationDeleted(w);
                case DELETE_OPEN_ORDER -> generationDeleted(w);
                case DELETE_GENERATION -> generationDeleted(w);
                case DELETE_GENERATIONS_THROUGH -> deletedThrough.getOrDefault(w.symbol(), Integer.MIN_VALUE) >= w.generation();
                case FILL -> fillsDeletedBefore.getOrDefault(w.symbol(), Long.MIN_VALUE) > w.sequence();
                case DELETE_FILLS_BEFORE -> fillsDeletedBefore.getOrDefault(w.symbol(), Long.MIN_VALUE) >= w.sequence();
                case OTHER -> false;
            };
        }

        void add(Write<?> w) {
            switch (w.shape()) {
                case SYMBOL_STATE -> stateCells.merge(w.symbol(), w.cells(), (a, b) -> a | b);
                case OPEN_ORDER -> orderCells.merge(OrderKey.of(w), w.cells(), (a, b) -> a | b);
                case DELETE_OPEN_ORDER -> deletedOrders.add(OrderKey.of(w));
                case DELETE_GENERATION -> deletedGenerations.add(new GenerationKey(w.symbol(), w.generation()));
                case DELETE_GENERATIONS_THROUGH -> deletedThrough.merge(w.symbol(), w.generation(), Math::max);
                case FILL -> { }
                case DELETE_FILLS_BEFORE -> fillsDeletedBefore.merge(w.symbol(), w.sequence(), Math::max);
                case OTHER -> { }
            }
        }

        private boolean generationDeleted(Write<?> w) {
            return deletedGenerations.contains(new GenerationKey(w.symbol(), w.generation()))
                    || deletedThrough.getOrDefault(w.symbol(), Integer.MIN_VALUE) >= w.generation();
        }

        /** Whether later upserts of the row, together, write every cell this one writes. */
        private static boolean covered(Long laterCells, long cells) {
            return laterCells != null && (laterCells & cells) == cells;
        }
    }

    private record OrderKey(String symbol, int generation, UUID orderId) {
        static OrderKey of(Write<?> w) {
            return new OrderKey(w.symbol(), w.generation(), w.orderId());
        }
    }

    private record GenerationKey(String symbol, int generation) {
    }
}
