package io.geobroker.matching;

import java.util.Arrays;

/**
 * The price levels of one side of one book, kept as parallel sorted primitive arrays with the
 * <em>best</em> level at the end, so peeking and removing the best level are O(1) and new levels,
 * which mostly arrive near the best, shift few elements.
 *
 * <p>Levels are ordered by a {@code key} that increases towards the best: a ladder whose best
 * price is the highest (buy limits, sell stops) uses the price itself, one whose best price is the
 * lowest (sell limits, buy stops, expiry times) uses its negation. Each level holds the head and
 * tail slot of an intrusive FIFO kept by {@link OrderBook}; this class never touches the orders.
 */
final class PriceLadder {

    private long[] keys = new long[16];
    private int[] heads = new int[16];
    private int[] tails = new int[16];
    private int size;

    int size() {
        return size;
    }

    /** Index of the best level; only meaningful when {@link #size()} > 0. */
    int best() {
        return size - 1;
    }

    long key(int level) {
        return keys[level];
    }

    int head(int level) {
        return heads[level];
    }

    int tail(int level) {
        return tails[level];
    }

    void setHead(int level, int slot) {
        heads[level] = slot;
    }

    void setTail(int level, int slot) {
        tails[level] = slot;
    }

    /** The level holding {@code key}, or {@code -(insertionPoint) - 1} when there is none. */
    int find(long key) {
        if (size > 0 && keys[size - 1] == key) {
            return size - 1;
        }
        return Arrays.binarySearch(keys, 0, size, key);
    }

    /** The level holding {@code key}, created empty (head and tail -1) when missing. */
    int findOrInsert(long key) {
        int level = find(key);
        if (level >= 0) {
            return level;
        }
        int at = -level - 1;
        if (size == keys.length) {
            int capacity = keys.length * 2;
            keys = Arrays.copyOf(keys, capacity);
            heads = Arrays.copyOf(heads, capacity);
            tails = Arrays.copyOf(tails, capacity);
        }
        int moved = size - at;
        if (moved > 0) {
            System.arraycopy(keys, at, keys, at + 1, moved);
            System.arraycopy(heads, at, heads, at + 1, moved);
            System.arraycopy(tails, at, tails, at + 1, moved);
        }
        keys[at] = key;
        heads[at] = -1;
        tails[at] = -1;
        size++;
        return at;
    }

    /** Removes a level; levels below it (worse) keep their indexes, those above move down by one. */
    void remove(int level) {
        int moved = size - level - 1;
        if (moved > 0) {
            System.arraycopy(keys, level + 1, keys, level, moved);
            System.arraycopy(heads, level + 1, heads, level, moved);
            System.arraycopy(tails, level + 1, tails, level, moved);
        }
        size--;
    }

    long allocatedBytes() {
        return 3L * 16 + (long) keys.length * (Long.BYTES + 2 * Integer.BYTES);
    }
}
