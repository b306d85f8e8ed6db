package io.geobroker.loadgen.ackbench;

import io.geobroker.loadgen.driver.ProcessCpu;
import org.HdrHistogram.Histogram;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

/**
 * One round of the benchmark, closed loop: a thread per client, all released at once; each sends
 * its orders one after another, the next only once the previous one's ack (or its error) is in.
 * Nothing is sent after the round's deadline; what was not sent by then counts as errors
 * ({@code not-sent}).
 */
final class ClosedLoop {

    /** The {@code i}-th order of client {@code client}. */
    interface Orders {
        BenchOrder order(int client, int i);
    }

    /** What one client saw; written by its own thread only, read after it ended. */
    static final class Tally {
        final Histogram latency = LatencySummary.histogram();
        final Map<String, Long> causes = new HashMap<>();
        long accepted;
        long rejected;
        long errors;
        long endNanos;

        void record(Ack ack, long micros) {
            switch (ack.outcome()) {
                case ACCEPTED -> accepted++;
                case REJECTED -> {
                    rejected++;
                    causes.merge("rejected: " + ack.detail(), 1L, Long::sum);
                }
                case ERROR -> {
                    errors++;
                    causes.merge("error: " + ack.detail(), 1L, Long::sum);
                }
            }
            if (ack.answered()) {
                latency.recordValue(Math.max(1, Math.min(micros, latency.getHighestTrackableValue())));
            }
        }

        void notSent(long n) {
            if (n > 0) {
                errors += n;
                causes.merge("error: not-sent", n, Long::sum);
            }
        }
    }

    private ClosedLoop() {
    }

    /**
     * Runs a round with one client per entry, {@code ordersPerClient} each, within {@code timeout}
     * (then every client ends with the ack it waits for, at most {@code --ack-timeout} later).
     * {@code fills} counts the fills received so far ({@code -1}: not known); {@code processes} are
     * the processes whose CPU the round's line gives.
     */
    static RoundResult run(List<? extends OrderEntry> entries, int ordersPerClient, Orders orders, Duration timeout,
                           Duration ackTimeout, LongSupplier fills, List<ProcessCpu.Group> processes) throws InterruptedException {
        int clients = entries.size();
        CountDownLatch go = new CountDownLatch(1);
        CountDownLatch done = new CountDownLatch(clients);
        List<Tally> tallies = new ArrayList<>();
        List<Thread> threads = new ArrayList<>();
        long[] start = new long[1];
        for (int c = 0; c < clients; c++) {
            Tally tally = new Tally();
            tallies.add(tally);
            OrderEntry entry = entries.get(c);
            int client = c;
            Thread t = new Thread(() -> {
                int sent = 0;
                try {
                    go.await();
                    long deadline = start[0] + timeout.toNanos();
                    for (; sent < ordersPerClient && System.nanoTime() - deadline < 0; sent++) {
                        BenchOrder order = orders.order(client, sent);
                        long t0 = System.nanoTime();
                        Ack ack = entry.place(order);
                        tally.record(ack, (System.nanoTime() - t0) / 1_000);
                    }
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                } finally {
                    tally.notSent(ordersPerClient - sent);
                    tally.endNanos = System.nanoTime();
                    done.countDown();
                }
            }, "ackbench-client-" + c);
            t.setDaemon(true);
            t.start();
            threads.add(t);
        }
        long fillsBefore = fills.getAsLong();
        ProcessCpu.Reading cpuBefore = ProcessCpu.read(processes);
        start[0] = System.nanoTime();
        go.countDown();
        if (!done.await(timeout.plus(ackTimeout).plusSeconds(10).toNanos(), TimeUnit.NANOSECONDS)) {
            threads.forEach(Thread::interrupt);
        }
        for (Thread t : threads) {
            t.join(10_000);
        }
        ProcessCpu.Reading cpuAfter = ProcessCpu.read(processes);
        long fillsAfter = fills.getAsLong();
        Histogram latency = LatencySummary.histogram();
        Map<String, Long> causes = new HashMap<>();
        long accepted = 0;
        long rejected = 0;
        long errors = 0;
        long end = start[0];
        for (Tally t : tallies) {
            latency.add(t.latency);
            t.causes.forEach((k, v) -> causes.merge(k, v, Long::sum));
            accepted += t.accepted;
            rejected += t.rejected;
            errors += t.errors;
            end = Math.max(end, t.endNanos);
        }
        String cpu = ProcessCpu.describe(cpuBefore, cpuAfter, Runtime.getRuntime().availableProcessors()).orElse("");
        return new RoundResult(clients, ordersPerClient, accepted, rejected, errors, causes,
                fillsBefore < 0 ? -1 : fillsAfter - fillsBefore, end - start[0], LatencySummary.of(latency), cpu);
    }
}
