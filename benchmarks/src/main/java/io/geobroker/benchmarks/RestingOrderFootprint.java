package io.geobroker.benchmarks;

import io.geobroker.matching.OrderBook;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Bytes per resting order of {@link OrderBook}, measured two ways for books of 10 k to 10 M orders
 * ({@link SyntheticBook}): the growth of used heap after a full GC (before: no book; after: the
 * book alone, its generator's templates already garbage) divided by the orders, and
 * {@link OrderBook#footprintBytes()} (allocated array capacity) divided by the orders. Also times
 * building the book one {@code add} at a time, which is about what a broker spends rebuilding its
 * index after a restart, not counting the Cassandra reads.
 *
 * <p>Not a JMH benchmark (a heap census needs no warm-up or repetition, and JMH would time the GCs):
 * run it with a fixed heap, e.g. {@code java -Xms3g -Xmx3g -cp benchmarks.jar
 * io.geobroker.benchmarks.RestingOrderFootprint}. Prints a table and writes
 * {@code resting-order-footprint.json} in the working directory.
 */
public final class RestingOrderFootprint {

    private static final int[] SIZES = {10_000, 100_000, 1_000_000, 10_000_000};

    private RestingOrderFootprint() {
    }

    public static void main(String[] args) throws IOException {
        List<String> rows = new ArrayList<>();
        System.out.printf("%12s %18s %19s %14s%n", "orders", "heap bytes/order", "array bytes/order", "build ms");
        for (int size : SIZES) {
            long before = usedHeapAfterGc();
            long start = System.nanoTime();
            OrderBook book = new SyntheticBook(size, 42).book();
            long buildNanos = System.nanoTime() - start;
            long heap = usedHeapAfterGc() - before;
            double heapPerOrder = (double) heap / book.size();
            double arrayPerOrder = (double) book.footprintBytes() / book.size();
            System.out.printf(Locale.ROOT, "%12d %18.1f %19.1f %14.1f%n", book.size(), heapPerOrder, arrayPerOrder,
                    buildNanos / 1e6);
            rows.add(String.format(Locale.ROOT,
                    "  {\"restingOrders\": %d, \"heapBytesPerOrder\": %.1f, \"arrayBytesPerOrder\": %.1f, "
                            + "\"buildMillis\": %.1f}",
                    book.size(), heapPerOrder, arrayPerOrder, buildNanos / 1e6));
        }
        String json = "{\"jvm\": \"" + System.getProperty("java.vm.version") + "\", \"maxHeapBytes\": "
                + Runtime.getRuntime().maxMemory() + ", \"results\": [\n" + String.join(",\n", rows) + "\n]}\n";
        Files.writeString(Path.of("resting-order-footprint.json"), json);
    }

    private static long usedHeapAfterGc() {
        MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
        for (int i = 0; i < 3; i++) {
            System.gc();
        }
        return memory.getHeapMemoryUsage().getUsed();
    }
}
