package io.geobroker.broker.matching;

import io.geobroker.domain.OrderType;
import io.geobroker.domain.Side;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.function.Consumer;

/**
 * The resting orders of one symbol, indexed so that a ticker touches only the orders it can fill or
 * trigger (SPEC §2 semantics): limit orders by price then time priority, untriggered stops by stop
 * price, triggered market orders by time, DAY orders by expiry. A ticker's volume is offered to each
 * side separately (the exchange is the counterparty of our buyers and of our sellers); an
 * all-or-none order is skipped when the rest of the volume cannot fill it whole.
 */
final class SymbolBook {

    /** What a ticker did to the book, in the order it happened. */
    interface Sink {
        void onTrigger(OrderState order);

        void onFill(OrderState order, long quantity, long price);
    }

    private static final Comparator<OrderState> BY_SEQUENCE = Comparator.comparingLong(o -> o.sequence);

    private final TreeSet<OrderState> buyLimits = new TreeSet<>(
            Comparator.comparingLong((OrderState o) -> -o.bookLimit).thenComparing(BY_SEQUENCE));
    private final TreeSet<OrderState> sellLimits = new TreeSet<>(
            Comparator.comparingLong((OrderState o) -> o.bookLimit).thenComparing(BY_SEQUENCE));
    private final TreeSet<OrderState> buyStops = new TreeSet<>(
            Comparator.comparingLong((OrderState o) -> o.stopPrice).thenComparing(BY_SEQUENCE));
    private final TreeSet<OrderState> sellStops = new TreeSet<>(
            Comparator.comparingLong((OrderState o) -> -o.stopPrice).thenComparing(BY_SEQUENCE));
    private final TreeSet<OrderState> buyMarkets = new TreeSet<>(BY_SEQUENCE);
    private final TreeSet<OrderState> sellMarkets = new TreeSet<>(BY_SEQUENCE);
    private final TreeSet<OrderState> dayOrders = new TreeSet<>(
            Comparator.comparing((OrderState o) -> o.expiresAt).thenComparing(BY_SEQUENCE));
    private final Map<java.util.UUID, OrderState> all = new HashMap<>();

    void add(OrderState order) {
        all.put(order.id, order);
        index(order).add(order);
        if (order.expiresAt != null) {
            dayOrders.add(order);
        }
    }

    boolean remove(OrderState order) {
        if (all.remove(order.id) == null) {
            return false;
        }
        index(order).remove(order);
        if (order.expiresAt != null) {
            dayOrders.remove(order);
        }
        return true;
    }

    int size() {
        return all.size();
    }

    Collection<OrderState> orders() {
        return all.values();
    }

    void onTicker(long price, long volume, Sink sink) {
        trigger(buyStops.headSet(probeStop(price, true), true).iterator(), sink);
        trigger(sellStops.headSet(probeStop(price, false), true).iterator(), sink);
        match(buyMarkets, buyLimits, o -> o.bookLimit >= price, price, volume, sink);
        match(sellMarkets, sellLimits, o -> o.bookLimit <= price, price, volume, sink);
    }

    /** Removes and hands over every DAY order whose expiry is at or before {@code now}. */
    void expireUpTo(Instant now, Consumer<OrderState> expired) {
        while (!dayOrders.isEmpty() && !dayOrders.first().expiresAt.isAfter(now)) {
            OrderState order = dayOrders.first();
            remove(order);
            expired.accept(order);
        }
    }

    private void trigger(Iterator<OrderState> due, Sink sink) {
        List<OrderState> triggered = new ArrayList<>();
        while (due.hasNext()) {
            triggered.add(due.next());
            due.remove();
        }
        for (OrderState order : triggered) {
            order.triggered = true;
            sink.onTrigger(order);
            index(order).add(order);
        }
    }

    private void match(TreeSet<OrderState> markets, TreeSet<OrderState> limits,
                       java.util.function.Predicate<OrderState> eligible, long price, long volume, Sink sink) {
        long left = fillFrom(markets.iterator(), o -> true, price, volume, sink);
        fillFrom(limits.iterator(), eligible, price, left, sink);
    }

    /** Offers {@code volume} to the orders in iteration order while they are eligible; returns what is left. */
    private long fillFrom(Iterator<OrderState> orders, java.util.function.Predicate<OrderState> eligible,
                          long price, long volume, Sink sink) {
        while (volume > 0 && orders.hasNext()) {
            OrderState order = orders.next();
            if (!eligible.test(order)) {
                break;
            }
            long remaining = order.remaining();
            if (order.allOrNone && remaining > volume) {
                continue;
            }
            long quantity = Math.min(remaining, volume);
            volume -= quantity;
            boolean done = quantity == remaining;
            if (done) {
                orders.remove();
                all.remove(order.id);
                if (order.expiresAt != null) {
                    dayOrders.remove(order);
                }
            }
            sink.onFill(order, quantity, price);
        }
        return volume;
    }

    private TreeSet<OrderState> index(OrderState order) {
        boolean buy = order.side == Side.BUY;
        if (order.type.hasStopPrice() && !order.triggered) {
            return buy ? buyStops : sellStops;
        }
        if (order.type == OrderType.STOP && order.bookLimit == 0) {
            return buy ? buyMarkets : sellMarkets;
        }
        return buy ? buyLimits : sellLimits;
    }

    /** A key that sorts after every stop the price triggers (same comparator as the stop sets). */
    private static OrderState probeStop(long price, boolean buy) {
        return new OrderState(null, null, null, null, null, null, buy ? Side.BUY : Side.SELL, OrderType.STOP,
                null, false, 0, null, price, 0, null, null, null, null, Long.MAX_VALUE);
    }
}
