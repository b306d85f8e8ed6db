package io.geobroker.matching;

import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.Map;

/**
 * The order books of one broker, one per symbol, created on first use. Like {@link OrderBook} it
 * is not thread-safe: the broker confines it (or each book) to one thread.
 */
public final class OrderBooks {

    private final Map<String, OrderBook> books = new HashMap<>();

    /** The book of {@code symbol}, created empty if it does not exist yet. */
    public OrderBook book(String symbol) {
        OrderBook book = books.get(symbol);
        if (book == null) {
            book = new OrderBook(symbol);
            books.put(symbol, book);
        }
        return book;
    }

    /** The book of {@code symbol}, or {@code null} if no order was ever added for it. */
    public OrderBook existing(String symbol) {
        return books.get(symbol);
    }

    /** All books, read-only. */
    public Collection<OrderBook> all() {
        return Collections.unmodifiableCollection(books.values());
    }

    /** Resting orders over all books. */
    public long size() {
        long size = 0;
        for (OrderBook book : books.values()) {
            size += book.size();
        }
        return size;
    }

    /** {@link OrderBook#expireUpTo} on every book; returns the number of expired orders. */
    public int expireUpTo(long epochMicros, ExpirySink sink) {
        int expired = 0;
        for (OrderBook book : books.values()) {
            expired += book.expireUpTo(epochMicros, sink);
        }
        return expired;
    }
}
