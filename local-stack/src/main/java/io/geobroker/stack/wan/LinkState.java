package io.geobroker.stack.wan;

/**
 * Which links between regions are cut. Read on every packet, changed rarely: an immutable matrix
 * swapped on write keeps the read path free of locks.
 */
final class LinkState {

    private final int regions;
    private volatile boolean[] cut;

    LinkState(int regions) {
        this.regions = regions;
        this.cut = new boolean[regions * regions];
    }

    boolean isCut(int a, int b) {
        return cut[a * regions + b];
    }

    /** Cuts ({@code true}) or restores the link between {@code a} and {@code b}, both directions. */
    synchronized void set(int a, int b, boolean isCut) {
        boolean[] next = cut.clone();
        next[a * regions + b] = isCut;
        next[b * regions + a] = isCut;
        cut = next;
    }
}
