package io.geobroker.benchmarks;

import io.geobroker.matching.FillSink;
import io.geobroker.matching.OrderBook;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.Blackhole;
import org.openjdk.jmh.results.format.ResultFormatType;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.options.OptionsBuilder;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.Arrays;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;

/**
 * One ticker through the in-memory matching path of one symbol's book ({@link OrderBook#onTicker})
 * with 10 k to 10 M resting orders ({@link SyntheticBook}).
 *
 * <p>The ticker tape is a fixed, pre-generated loop of 65,536 tickers: 63 in 64 move within ±4
 * ticks of the mid and cross nothing (they still fill triggered stops that are waiting for
 * volume), 1 in 64 jumps 5–7 ticks up or down, crossing the nearest limit levels and triggering
 * the nearest stops. Volume is 100–999 shares per ticker. Every order that a fill removes is put
 * back after the ticker, inside the measured operation (as the broker adds new orders), so the book
 * keeps its size and shape. Results: throughput in tickers per microsecond (= millions per second)
 * and average time in microseconds per ticker.
 */
@State(Scope.Thread)
@BenchmarkMode({Mode.Throughput, Mode.AverageTime})
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Fork(value = 1, jvmArgsAppend = {"-Xms3g", "-Xmx3g"})
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
public class TickerMatchingBenchmark {

    private static final int TAPE = 1 << 16;
    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

    @Param({"10000", "100000", "1000000", "10000000"})
    public int restingOrders;

    private SyntheticBook synthetic;
    private OrderBook book;
    private final long[] prices = new long[TAPE];
    private final long[] volumes = new long[TAPE];
    private final ReplacingSink sink = new ReplacingSink();
    private int cursor;
    private long tickers;
    private long replaced;
    private long iterationCpuNanos;
    private long iterationTickers;

    @Setup(Level.Trial)
    public void setUp() {
        synthetic = new SyntheticBook(restingOrders, 42);
        book = synthetic.book();
        SplittableRandom random = new SplittableRandom(4242);
        for (int i = 0; i < TAPE; i++) {
            boolean jump = random.nextInt(64) == 0;
            long move = jump
                    ? (random.nextBoolean() ? 1 : -1) * (SyntheticBook.FIRST_TOUCH_OFFSET + random.nextInt(3))
                    : random.nextInt(-4, 5);
            prices[i] = SyntheticBook.MID + move;
            volumes[i] = random.nextInt(100, 1_000);
        }
    }

    @Setup(Level.Iteration)
    public void startIteration() {
        iterationCpuNanos = THREADS.getCurrentThreadCpuTime();
        iterationTickers = tickers;
    }

    /**
     * Prints the benchmark thread's CPU time per ticker: on a shared machine the scores measure
     * wall time, which includes the time this thread waited for a core.
     */
    @TearDown(Level.Iteration)
    public void endIteration() {
        long cpu = THREADS.getCurrentThreadCpuTime() - iterationCpuNanos;
        System.out.printf(" [%.1f ns CPU per ticker]", (double) cpu / (tickers - iterationTickers));
    }

    @TearDown(Level.Trial)
    public void checkSize() {
        if (book.size() != restingOrders) {
            throw new IllegalStateException("book drifted to " + book.size() + " orders");
        }
        System.out.printf("%n%d tickers; per ticker: %.3f fills, %.3f triggers, %.3f orders filled out and put"
                + " back%n", tickers, (double) sink.fills / tickers, (double) sink.triggers / tickers,
                (double) replaced / tickers);
    }

    @Benchmark
    public void ticker(Blackhole blackhole) {
        tickers++;
        int i = cursor++ & (TAPE - 1);
        blackhole.consume(book.onTicker(prices[i], volumes[i], sink));
        if (sink.done > 0) {
            for (int k = 0; k < sink.done; k++) {
                synthetic.replace(sink.doneIds[k]);
            }
            replaced += sink.done;
            sink.done = 0;
        }
    }

    /** Remembers the orders that left the book so the benchmark can put them back. */
    private static final class ReplacingSink implements FillSink {
        long[] doneIds = new long[1_024];
        int done;
        long fills;
        long triggers;

        @Override
        public void onFill(long orderId, long quantity, long price, long remaining) {
            fills++;
            if (remaining == 0) {
                if (done == doneIds.length) {
                    doneIds = Arrays.copyOf(doneIds, done * 2);
                }
                doneIds[done++] = orderId;
            }
        }

        @Override
        public void onTriggered(long orderId) {
            triggers++;
        }
    }

    /** Runs this benchmark alone, writing JSON results to {@code jmh-ticker-matching.json}. */
    public static void main(String[] args) throws RunnerException {
        new Runner(new OptionsBuilder()
                .include(TickerMatchingBenchmark.class.getName())
                .resultFormat(ResultFormatType.JSON)
                .result("jmh-ticker-matching.json")
                .build()).run();
    }
}
