package io.geobroker.broker.matching;

import io.geobroker.domain.OrderType;
import io.geobroker.matching.ExpirySink;
import io.geobroker.matching.FillSink;
import io.geobroker.matching.OrderBook;
import io.geobroker.matching.RestingOrder;

import java.time.Instant;
import java.util.Collection;
import java.util.HashMap;
import java.util.Map;
import java.util.function.Consumer;

/**
 * The engine's view of one symbol's {@link OrderBook} (the matching module): it maps the book's
 * {@code long} ids (the order's per-symbol sequence) to the engine's order objects and translates
 * the broker's order rules into what the book indexes. A BUY STOP rests as a stop-limit at its
 * protection price ({@link OrderState#bookLimit}), so it never pays more than it reserved; an order
 * that already triggered is put back as the limit (or market) order it became.
 */
final class SymbolBook {

    /** What a ticker did to the book, in the order it happened. */
    interface Sink {
        void onTrigger(OrderState order);

        void onFill(OrderState order, long quantity, long price);
    }

    private final OrderBook book;
    private final Map<Long, OrderState> orders = new HashMap<>();
    private final Adapter adapter = new Adapter();

    SymbolBook(String symbol) {
        this.book = new OrderBook(symbol);
    }

    void add(OrderState order) {
        orders.put(order.sequence, order);
        book.add(resting(order));
    }

    boolean remove(OrderState order) {
        orders.remove(order.sequence);
        return book.cancel(order.sequence) >= 0;
    }

    int size() {
        return orders.size();
    }

    Collection<OrderState> orders() {
        return orders.values();
    }

    /** Shares of the last ticker its fills left unused (both sides share a ticker's volume). */
    long lastVolumeLeft() {
        return book.lastVolumeLeft();
    }

    long footprintBytes() {
        return book.footprintBytes();
    }

    void onTicker(long price, long volume, Sink sink) {
        adapter.sink = sink;
        try {
            book.onTicker(price, volume, adapter);
        } finally {
            adapter.sink = null;
        }
    }

    /** Removes and hands over every DAY order whose expiry is at or before {@code now}. */
    void expireUpTo(Instant now, Consumer<OrderState> expired) {
        book.expireUpTo(micros(now), adapter.expiring(expired));
    }

    static RestingOrder resting(OrderState o) {
        long expires = o.expiresAt == null ? RestingOrder.GOOD_TILL_CANCELLED : micros(o.expiresAt);
        long quantity = o.remaining();
        OrderType type;
        long limit = 0;
        long stop = 0;
        if (o.type == OrderType.LIMIT || (o.triggered && o.bookLimit > 0)) {
            type = OrderType.LIMIT;
            limit = o.bookLimit;
        } else if (o.triggered) {
            type = OrderType.MARKET;
        } else if (o.bookLimit > 0) {
            type = OrderType.STOP_LIMIT;
            limit = o.bookLimit;
            stop = o.stopPrice;
        } else {
            type = OrderType.STOP;
            stop = o.stopPrice;
        }
        return new RestingOrder(o.sequence, o.side, type, limit, stop, quantity, o.allOrNone, o.sequence, expires);
    }

    private static long micros(Instant t) {
        return Math.addExact(Math.multiplyExact(t.getEpochSecond(), 1_000_000L), t.getNano() / 1_000);
    }

    private final class Adapter implements FillSink {
        Sink sink;

        @Override
        public void onFill(long orderId, long quantity, long price, long remaining) {
            OrderState order = remaining == 0 ? orders.remove(orderId) : orders.get(orderId);
            sink.onFill(order, quantity, price);
        }

        @Override
        public void onTriggered(long orderId) {
            OrderState order = orders.get(orderId);
            order.triggered = true;
            sink.onTrigger(order);
        }

        ExpirySink expiring(Consumer<OrderState> expired) {
            return (orderId, remaining) -> expired.accept(orders.remove(orderId));
        }
    }
}
