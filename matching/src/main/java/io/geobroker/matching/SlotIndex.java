package io.geobroker.matching;

import java.util.Arrays;

/**
 * Open-addressing hash index from order id to pool slot that stores only the slot (4 bytes per
 * bucket): the id of a bucket is read back from the pool's id array, which costs one more memory
 * access per probe on add and cancel but halves the index's footprint compared with a map that
 * also stores the long key. Linear probing, backward-shift deletion, no tombstones.
 */
final class SlotIndex {

    private static final int EMPTY = -1;
    private static final double MAX_LOAD = 0.75;

    private int[] buckets;
    private int mask;
    private int shift;
    private int size;
    private int resizeAt;

    SlotIndex(int expected) {
        long wanted = Math.max(16, (long) (expected / MAX_LOAD) + 1);
        allocate((int) Math.min(1 << 30, Long.highestOneBit(wanted - 1) << 1));
    }

    private void allocate(int capacity) {
        buckets = new int[capacity];
        Arrays.fill(buckets, EMPTY);
        mask = capacity - 1;
        shift = 64 - Integer.numberOfTrailingZeros(capacity);
        resizeAt = (int) (capacity * MAX_LOAD);
    }

    int size() {
        return size;
    }

    /** The slot of {@code id}, or -1. */
    int get(long id, long[] ids) {
        int i = bucket(id);
        for (int slot; (slot = buckets[i]) != EMPTY; i = (i + 1) & mask) {
            if (ids[slot] == id) {
                return slot;
            }
        }
        return EMPTY;
    }

    /** Adds {@code slot} under {@code ids[slot]}, which the caller has checked is absent. */
    void put(int slot, long[] ids) {
        if (size >= resizeAt) {
            rehash(ids);
        }
        int i = bucket(ids[slot]);
        while (buckets[i] != EMPTY) {
            i = (i + 1) & mask;
        }
        buckets[i] = slot;
        size++;
    }

    /** Removes the entry of {@code id}; returns its slot or -1. */
    int remove(long id, long[] ids) {
        int i = bucket(id);
        for (int slot; (slot = buckets[i]) != EMPTY; i = (i + 1) & mask) {
            if (ids[slot] == id) {
                shiftBack(i, ids);
                size--;
                return slot;
            }
        }
        return EMPTY;
    }

    private void shiftBack(int hole, long[] ids) {
        int i = hole;
        while (true) {
            i = (i + 1) & mask;
            int slot = buckets[i];
            if (slot == EMPTY) {
                break;
            }
            int home = bucket(ids[slot]);
            // Move the entry into the hole unless its home lies cyclically in (hole, i].
            boolean stays = hole <= i ? (hole < home && home <= i) : (hole < home || home <= i);
            if (!stays) {
                buckets[hole] = slot;
                hole = i;
            }
        }
        buckets[hole] = EMPTY;
    }

    private void rehash(long[] ids) {
        int[] old = buckets;
        allocate(old.length * 2);
        for (int slot : old) {
            if (slot != EMPTY) {
                int i = bucket(ids[slot]);
                while (buckets[i] != EMPTY) {
                    i = (i + 1) & mask;
                }
                buckets[i] = slot;
            }
        }
    }

    private int bucket(long id) {
        return (int) ((id * 0x9E3779B97F4A7C15L) >>> shift);
    }

    long allocatedBytes() {
        return 16L + (long) buckets.length * Integer.BYTES;
    }
}
