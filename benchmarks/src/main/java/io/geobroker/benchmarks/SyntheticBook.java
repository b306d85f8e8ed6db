package io.geobroker.benchmarks;

import io.geobroker.domain.OrderType;
import io.geobroker.domain.Side;
import io.geobroker.matching.OrderBook;
import io.geobroker.matching.RestingOrder;

import java.util.SplittableRandom;

/**
 * A reproducible one-symbol book of {@code size} resting orders around a mid price of 100.00
 * (10,000 cents), shaped like a real book: a thin, fixed crowd of orders at the touch (5–24 ticks
 * from the mid, {@value #ORDERS_PER_TOUCH_LEVEL} per level and book, whatever the size) and
 * everything else spread evenly over the 2,000 deeper levels of each side, which tickers never
 * reach. Mix: 60% limits, 30% stops, 10% stop-limits, half buys; 5% all-or-none; 30% DAY orders
 * (three closes, all far in the future). Each order id keeps its template, so an order that left
 * the book can be put back unchanged ({@link #replace}) and the size stays constant.
 */
final class SyntheticBook {

    static final long MID = 10_000;
    static final int FIRST_TOUCH_OFFSET = 5;
    static final int TOUCH_LEVELS = 20;
    static final int ORDERS_PER_TOUCH_LEVEL = 4;
    static final int DEEP_LEVELS = 2_000;
    private static final int KINDS = 6;
    private static final long[] CLOSES = {4_102_444_800_000_000L, 4_102_531_200_000_000L, 4_102_617_600_000_000L};

    private final byte[] kinds;
    private final int[] offsets;
    private final byte[] options;
    private final OrderBook book;
    private long sequence;

    SyntheticBook(int size, long seed) {
        kinds = new byte[size];
        offsets = new int[size];
        options = new byte[size];
        book = new OrderBook("BENCH", size);
        SplittableRandom random = new SplittableRandom(seed);
        int touchOrders = Math.min(size, KINDS * TOUCH_LEVELS * ORDERS_PER_TOUCH_LEVEL);
        for (int id = 0; id < size; id++) {
            if (id < touchOrders) {
                kinds[id] = (byte) (id % KINDS);
                offsets[id] = FIRST_TOUCH_OFFSET + (id / KINDS) % TOUCH_LEVELS;
            } else {
                int draw = random.nextInt(10);
                kinds[id] = (byte) (draw < 6 ? draw % 2 : draw < 9 ? 2 + draw % 2 : 4 + random.nextInt(2));
                offsets[id] = FIRST_TOUCH_OFFSET + TOUCH_LEVELS + random.nextInt(DEEP_LEVELS);
            }
            int aon = random.nextInt(20) == 0 ? 1 : 0;
            int day = random.nextInt(10) < 3 ? 1 + random.nextInt(CLOSES.length) : 0;
            options[id] = (byte) (aon | day << 1);
        }
        for (int id = 0; id < size; id++) {
            book.add(order(id));
        }
    }

    OrderBook book() {
        return book;
    }

    /** Puts order {@code id} back after it left the book, as a new order (last in time priority). */
    void replace(long id) {
        book.add(order((int) id));
    }

    private RestingOrder order(int id) {
        int offset = offsets[id];
        boolean allOrNone = (options[id] & 1) != 0;
        int day = options[id] >> 1;
        long quantity = allOrNone ? 300 : 100;
        long expires = day == 0 ? RestingOrder.GOOD_TILL_CANCELLED : CLOSES[day - 1];
        long seq = ++sequence;
        return switch (kinds[id]) {
            case 0 -> new RestingOrder(id, Side.BUY, OrderType.LIMIT, MID - offset, 0, quantity, allOrNone, seq,
                    expires);
            case 1 -> new RestingOrder(id, Side.SELL, OrderType.LIMIT, MID + offset, 0, quantity, allOrNone, seq,
                    expires);
            case 2 -> new RestingOrder(id, Side.BUY, OrderType.STOP, 0, MID + offset, quantity, allOrNone, seq,
                    expires);
            case 3 -> new RestingOrder(id, Side.SELL, OrderType.STOP, 0, MID - offset, quantity, allOrNone, seq,
                    expires);
            case 4 -> new RestingOrder(id, Side.BUY, OrderType.STOP_LIMIT, MID + offset + 2, MID + offset, quantity,
                    allOrNone, seq, expires);
            default -> new RestingOrder(id, Side.SELL, OrderType.STOP_LIMIT, MID - offset - 2, MID - offset,
                    quantity, allOrNone, seq, expires);
        };
    }
}
