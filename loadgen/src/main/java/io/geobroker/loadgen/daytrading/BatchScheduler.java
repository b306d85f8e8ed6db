package io.geobroker.loadgen.daytrading;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Replays workload lines as batches, users concurrently and each user's lines in order: a batch
 * holds up to {@code batchSize} lines, consecutive lines of one user stay together in it, and a user
 * with lines in a batch in flight gets no line into another batch until that one is answered. Up to
 * {@code concurrency} batches are in flight, each sent on its own worker thread. At most
 * {@code readAhead} lines wait in memory, whatever the file's size. A line without a user
 * ({@link WorkloadLine#barrier()}) is sent alone once everything before it is answered, and nothing
 * after it is read before its answer.
 *
 * <p>The {@link Listener} runs on the calling thread, one answer at a time, in the order answers
 * arrive.
 */
public final class BatchScheduler {

    /** Sends one batch and returns the server's answer; runs on a worker thread. */
    public interface Sender<A> {
        A send(List<WorkloadLine> batch) throws Exception;
    }

    /** One batch's outcome: the answer, or why there is none; times from {@link System#nanoTime()}. */
    public interface Listener<A> {
        void answered(List<WorkloadLine> batch, A answer, Exception failure, long sentNanos, long answeredNanos)
                throws Exception;
    }

    private final int batchSize;
    private final int concurrency;
    private final int readAhead;

    public BatchScheduler(int batchSize, int concurrency, int readAhead) {
        if (batchSize < 1 || concurrency < 1 || readAhead < batchSize) {
            throw new IllegalArgumentException("batch size and concurrency must be at least 1 and the read-ahead at least "
                    + "the batch size");
        }
        this.batchSize = batchSize;
        this.concurrency = concurrency;
        this.readAhead = readAhead;
    }

    private record Done<A>(List<WorkloadLine> batch, A answer, Exception failure, long sentNanos, long answeredNanos) {
    }

    /** Replays every line of {@code source}; returns once each batch is answered (or failed) and listened to. */
    public <A> void run(Iterator<WorkloadLine> source, Sender<A> sender, Listener<A> listener) throws Exception {
        Map<String, ArrayDeque<WorkloadLine>> waiting = new HashMap<>();
        ArrayDeque<String> ready = new ArrayDeque<>();
        Set<String> inFlightUsers = new HashSet<>();
        BlockingQueue<Done<A>> answers = new LinkedBlockingQueue<>();
        AtomicInteger threads = new AtomicInteger();
        ExecutorService workers = Executors.newFixedThreadPool(concurrency, r -> {
            Thread t = new Thread(r, "workload-batch-" + threads.incrementAndGet());
            t.setDaemon(true);
            return t;
        });
        int queued = 0;
        int inFlight = 0;
        WorkloadLine barrier = null;
        boolean barrierInFlight = false;
        try {
            while (true) {
                while (barrier == null && !barrierInFlight && queued < readAhead && source.hasNext()) {
                    WorkloadLine line = source.next();
                    if (line.barrier()) {
                        barrier = line;
                        break;
                    }
                    ArrayDeque<WorkloadLine> lines = waiting.computeIfAbsent(line.user(), u -> new ArrayDeque<>());
                    if (lines.isEmpty() && !inFlightUsers.contains(line.user())) {
                        ready.add(line.user());
                    }
                    lines.add(line);
                    queued++;
                }
                while (inFlight < concurrency && !ready.isEmpty()) {
                    List<WorkloadLine> batch = new ArrayList<>(Math.min(batchSize, queued));
                    while (batch.size() < batchSize && !ready.isEmpty()) {
                        String user = ready.poll();
                        ArrayDeque<WorkloadLine> lines = waiting.get(user);
                        while (batch.size() < batchSize && !lines.isEmpty()) {
                            batch.add(lines.poll());
                            queued--;
                        }
                        inFlightUsers.add(user);
                        if (lines.isEmpty()) {
                            waiting.remove(user);
                        }
                    }
                    submit(workers, batch, sender, answers);
                    inFlight++;
                }
                if (barrier != null && inFlight == 0 && queued == 0) {
                    submit(workers, List.of(barrier), sender, answers);
                    inFlight++;
                    barrier = null;
                    barrierInFlight = true;
                }
                if (inFlight == 0) {
                    if (queued == 0 && barrier == null && !source.hasNext()) {
                        return;
                    }
                    continue;
                }
                Done<A> done = answers.take();
                inFlight--;
                for (WorkloadLine line : done.batch()) {
                    if (line.barrier()) {
                        barrierInFlight = false;
                    } else if (inFlightUsers.remove(line.user()) && waiting.containsKey(line.user())) {
                        ready.add(line.user());
                    }
                }
                listener.answered(done.batch(), done.answer(), done.failure(), done.sentNanos(), done.answeredNanos());
            }
        } finally {
            workers.shutdownNow();
        }
    }

    private static <A> void submit(ExecutorService workers, List<WorkloadLine> batch, Sender<A> sender,
                                   BlockingQueue<Done<A>> answers) {
        workers.execute(() -> {
            long sent = System.nanoTime();
            A answer = null;
            Exception failure = null;
            try {
                answer = sender.send(batch);
            } catch (Exception e) {
                failure = e;
            } catch (Throwable e) {
                // an Error still answers the batch (as failed), so the scheduler never waits for it forever
                failure = new ExecutionException(e);
            }
            answers.add(new Done<>(batch, answer, failure, sent, System.nanoTime()));
        });
    }
}
