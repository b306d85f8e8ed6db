package io.geobroker.ticker.model;

import java.nio.charset.StandardCharsets;

/**
 * Random numbers that are a pure function of (seed, stream key, counter): the k-th draw of a stream
 * is the same whatever was drawn before, on whichever thread, at whatever time. This is what makes
 * the price model reproducible per symbol independently of rates, splits and thread scheduling, and
 * lets every stock of a sector share the sector's k-th shock without sharing state.
 *
 * <p>The generator is SplitMix64's finaliser applied to a Weyl sequence per stream; it passes
 * BigCrush as a counter-based generator and costs a few nanoseconds per draw.
 */
public final class CounterRandom {

    private static final long GOLDEN_GAMMA = 0x9e3779b97f4a7c15L;
    private static final double TWO_PI = 2 * Math.PI;

    private final long seed;

    public CounterRandom(long seed) {
        this.seed = mix(seed);
    }

    /** A stable key for a named stream (e.g. a symbol or a sector); stable across JVMs and runs. */
    public static long key(String name) {
        long h = 0x84222325L;
        for (byte b : name.getBytes(StandardCharsets.UTF_8)) {
            h = (h ^ (b & 0xff)) * 0x100000001b3L;
        }
        return mix(h);
    }

    /** 64 random bits: draw {@code counter} of stream {@code key}. */
    public long bits(long key, long counter) {
        return mix(mix(seed ^ key) + counter * GOLDEN_GAMMA);
    }

    /** Uniform in [0, 1). */
    public double uniform(long key, long counter) {
        return (bits(key, counter) >>> 11) * 0x1.0p-53;
    }

    /** Standard normal (Box–Muller on two draws of the stream, counters 2k and 2k+1). */
    public double gaussian(long key, long counter) {
        double u1 = 1.0 - uniform(key, 2 * counter);
        double u2 = uniform(key, 2 * counter + 1);
        return Math.sqrt(-2.0 * Math.log(u1)) * Math.cos(TWO_PI * u2);
    }

    private static long mix(long z) {
        z = (z ^ (z >>> 30)) * 0xbf58476d1ce4e5b9L;
        z = (z ^ (z >>> 27)) * 0x94d049bb133111ebL;
        return z ^ (z >>> 31);
    }
}
