package io.geobroker.broker.matching;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.DefaultConsistencyLevel;
import com.datastax.oss.driver.api.core.cql.BatchStatement;
import com.datastax.oss.driver.api.core.cql.BatchType;
import com.datastax.oss.driver.api.core.cql.BoundStatement;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.Set;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Function;
import java.util.function.ToIntFunction;

/**
 * Writes the statements of logged groups ({@link EngineLog}) to their tables, many groups at a time:
 * every {@code interval}, or at once when a read waits for it ({@link ProjectionBarrier}), the groups
 * logged since the last round are coalesced ({@link Coalesce}: symbol rows a later group overwrites
 * or deletes are left out), and each partition (a symbol's, a customer's) is written as one
 * mutation, up to {@link #PARTITIONS_PER_BATCH} of them in one unlogged batch, in which every
 * statement keeps its group's write timestamp, at most {@code batchesInFlight} batches under way at
 * once (more in a large round: {@link #window}). Then {@code projected_seq} moves to the round's
 * last group, and the reads waiting for it go on. A batch not confirmed is written again (same
 * statements) until it is.
 *
 * <p>The window keeps a round from taking the node's cores while group commits wait: with every
 * batch of a round sent at once (~16 batches of 40 KB at 1,700 orders a second), a log slot
 * written during the round queued behind all of them, and the slots' p99 was 50 ms against a
 * p50 of 2.5 (docs/results.md, 2026-12-07).
 *
 * <p>The engine waits on a round only when a group commit would reuse a slot not yet projected (the
 * ring is full) and before the rare group written outside the log ({@link #flush}). The engine reads
 * the symbol tables at start, after writing what the log holds beyond {@code projected_seq}; the
 * REST API reads quotes from {@code symbol_state}, which lag by up to one round (quotes are written
 * on a schedule anyway), and a customer's rows after waiting for its groups' round.
 */
final class Projection {

    /** Logged under the engine's name, like everything the engine does. */
    private static final Logger log = LoggerFactory.getLogger(Engine.class);
    /** A round starts early once this many groups wait. */
    private static final int EARLY_GROUPS = EngineLog.SLOTS / 4;
    private static final long FIRST_RETRY_MILLIS = 200;
    private static final long LAST_RETRY_MILLIS = 2_000;

    /**
     * Partitions written by one request: a request costs Cassandra's coordinator about the same CPU
     * whether it holds one partition or several (its pools' wake-ups, docs/results.md, 2026-12-04),
     * so a round's partitions go a few to a request; 10 is Cassandra's default threshold above which
     * it warns of an unlogged batch across partitions.
     */
    static final int PARTITIONS_PER_BATCH = 10;

    /**
     * A round's batches in sequence at most ({@link #window}): a round of ~16 batches (1,700
     * acknowledged orders a second) one at a time took ~200 ms of its 500 ms interval.
     */
    static final int ROUND_STEPS = 16;

    /**
     * One logged group's statements, packed ({@link KeptStatement}): a group waits up to a round's
     * interval here, long enough to live through the broker's young collections, and its statements
     * as the driver binds them are ~50 objects and ~2 KB for an order's row of 24 columns.
     */
    record Logged(long seq, long timestamp, List<KeptStatement> statements) {
    }

    private final CqlSession session;
    private final EngineStore store;
    private final EngineLog engineLog;
    private final EngineMetrics metrics;
    private final ProjectionBarrier barrier;
    private final long intervalNanos;
    private final int maxBatchBytes;
    private final int batchesInFlight;
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition changed = lock.newCondition();
    private List<Logged> waiting = new ArrayList<>();
    private long addedSeq;
    private volatile long projectedSeq;
    private boolean flushRequested;
    private volatile boolean running;
    private Thread thread;

    Projection(CqlSession session, EngineStore store, EngineLog engineLog, EngineMetrics metrics, Duration interval,
               int maxBatchBytes, int batchesInFlight, ProjectionBarrier barrier) {
        if (batchesInFlight < 1) {
            throw new IllegalArgumentException("batches in flight must be at least 1, not " + batchesInFlight);
        }
        this.batchesInFlight = batchesInFlight;
        this.barrier = barrier;
        this.session = session;
        this.store = store;
        this.engineLog = engineLog;
        this.metrics = metrics;
        this.intervalNanos = interval.toNanos();
        this.maxBatchBytes = maxBatchBytes;
    }

    /** Starts the rounds; groups up to {@code projected} are in their tables already. */
    void start(long projected) {
        projectedSeq = projected;
        addedSeq = projected;
        running = true;
        thread = new Thread(this::run, "projection");
        thread.setDaemon(true);
        thread.start();
        barrier.started(projected, this::requestRound);
    }

    /** Starts a round now (or the next one at once, if one is under way): a read waits for it. */
    void requestRound() {
        lock.lock();
        try {
            flushRequested = true;
            changed.signalAll();
        } finally {
            lock.unlock();
        }
    }

    long projectedSeq() {
        return projectedSeq;
    }

    /** Groups logged but not in their tables yet. */
    long lag() {
        lock.lock();
        try {
            return addedSeq - projectedSeq;
        } finally {
            lock.unlock();
        }
    }

    /** Waits until the slot of group {@code seq} may be written: its previous occupant is projected. */
    void awaitSlot(long seq) throws InterruptedException {
        if (seq - projectedSeq <= EngineLog.SLOTS) {
            return;
        }
        lock.lock();
        try {
            while (seq - projectedSeq > EngineLog.SLOTS) {
                flushRequested = true;
                changed.signalAll();
                changed.await(100, TimeUnit.MILLISECONDS);
            }
        } finally {
            lock.unlock();
        }
    }

    /** Hands a durable group to the next round (the engine thread, in seq order, before it answers). */
    void add(long seq, long timestamp, List<BoundStatement> statements) {
        Logged group = new Logged(seq, timestamp, KeptStatement.of(statements));
        if (barrier.enabled()) {
            Set<String> customers = new HashSet<>();
            for (BoundStatement s : statements) {
                String customer = store.customerOf(s);
                if (customer != null) {
                    customers.add(customer);
                }
            }
            barrier.logged(group.seq(), customers);
        }
        lock.lock();
        try {
            waiting.add(group);
            addedSeq = group.seq();
            if (waiting.size() >= EARLY_GROUPS) {
                changed.signalAll();
            }
        } finally {
            lock.unlock();
        }
    }

    /** Waits until every group added is in its tables (before a group is written outside the log). */
    void flush() throws InterruptedException {
        lock.lock();
        try {
            while (projectedSeq < addedSeq) {
                flushRequested = true;
                changed.signalAll();
                changed.await(100, TimeUnit.MILLISECONDS);
            }
        } finally {
            lock.unlock();
        }
    }

    /** Ends the rounds after one last (best effort: what is left is written at the next start). */
    void stop(Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        lock.lock();
        try {
            while (running && projectedSeq < addedSeq && System.nanoTime() < deadline) {
                flushRequested = true;
                changed.signalAll();
                changed.await(50, TimeUnit.MILLISECONDS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            lock.unlock();
        }
        running = false;
        if (thread != null) {
            thread.interrupt();
        }
    }

    private void run() {
        long roundStart = System.nanoTime();
        while (running) {
            List<Logged> round;
            lock.lock();
            try {
                long due = roundStart + intervalNanos;
                while (running && !flushRequested && waiting.size() < EARLY_GROUPS) {
                    long wait = due - System.nanoTime();
                    if (wait <= 0) {
                        break;
                    }
                    changed.awaitNanos(wait);
                }
                flushRequested = false;
                round = waiting;
                waiting = new ArrayList<>();
            } catch (InterruptedException e) {
                return;
            } finally {
                lock.unlock();
            }
            roundStart = System.nanoTime();
            if (round.isEmpty()) {
                continue;
            }
            try {
                writeUntilDone(round);
            } catch (InterruptedException e) {
                return;
            }
            Logged last = round.get(round.size() - 1);
            lock.lock();
            try {
                projectedSeq = last.seq();
                changed.signalAll();
            } finally {
                lock.unlock();
            }
            barrier.projected(last.seq());
            metrics.projectionTimer.record(System.nanoTime() - roundStart, TimeUnit.NANOSECONDS);
        }
    }

    /**
     * {@link #write}, again after anything unexpected it throws (Cassandra's failures are retried
     * inside it): the thread must not end, or the engine would stop once the log is full.
     */
    private void writeUntilDone(List<Logged> round) throws InterruptedException {
        long retryMillis = FIRST_RETRY_MILLIS;
        while (true) {
            try {
                write(round);
                return;
            } catch (RuntimeException e) {
                log.error("projection of groups {} to {} failed; writing the round again",
                        round.get(0).seq(), round.get(round.size() - 1).seq(), e);
                if (!running) {
                    throw new InterruptedException("stopping");
                }
                Thread.sleep(retryMillis);
                retryMillis = Math.min(LAST_RETRY_MILLIS, retryMillis * 2);
            }
        }
    }

    /**
     * Packs chunks (each one partition's statements) into batches in their order: a batch takes the
     * next chunk while it holds fewer than {@code maxChunks} and stays within {@code maxBytes}.
     */
    static <T> List<List<T>> pack(List<List<T>> chunks, ToIntFunction<T> sizeOf, int maxBytes, int maxChunks) {
        List<List<T>> batches = new ArrayList<>();
        List<T> batch = new ArrayList<>();
        int inBatch = 0;
        long batchBytes = 0;
        for (List<T> chunk : chunks) {
            long bytes = 0;
            for (T item : chunk) {
                bytes += sizeOf.applyAsInt(item);
            }
            if (inBatch > 0 && (inBatch == maxChunks || batchBytes + bytes > maxBytes)) {
                batches.add(batch);
                batch = new ArrayList<>();
                inBatch = 0;
                batchBytes = 0;
            }
            batch.addAll(chunk);
            inBatch++;
            batchBytes += bytes;
        }
        if (inBatch > 0) {
            batches.add(batch);
        }
        return batches;
    }

    /** One round: the groups' surviving statements, a few partitions to a batch, then projected_seq. */
    private void write(List<Logged> round) throws InterruptedException {
        List<List<Coalesce.Write<KeptStatement>>> groups = new ArrayList<>(round.size());
        int statements = 0;
        for (Logged g : round) {
            List<Coalesce.Write<KeptStatement>> writes = new ArrayList<>(g.statements().size());
            for (KeptStatement s : g.statements()) {
                writes.add(store.describe(s));
            }
            statements += writes.size();
            groups.add(writes);
        }
        List<List<Coalesce.Write<KeptStatement>>> kept = Coalesce.keep(groups);
        Map<ByteBuffer, List<Stamped>> partitions = new LinkedHashMap<>();
        int written = 0;
        for (int i = 0; i < round.size(); i++) {
            long timestamp = round.get(i).timestamp();
            for (Coalesce.Write<KeptStatement> w : kept.get(i)) {
                partitions.computeIfAbsent(w.statement().routingKey(), k -> new ArrayList<>())
                        .add(new Stamped(w.statement(), timestamp));
                written++;
            }
        }
        long maxTimestamp = round.get(round.size() - 1).timestamp();
        List<List<Stamped>> chunks = new ArrayList<>();
        for (List<Stamped> partition : partitions.values()) {
            chunks.addAll(BatchWriter.chunks(partition, Stamped::size, maxBatchBytes));
        }
        List<List<Stamped>> batches = pack(chunks, Stamped::size, maxBatchBytes, PARTITIONS_PER_BATCH);
        metrics.projectionPartitions.record(partitions.size());
        metrics.projectionStatements.record(written);
        metrics.projectionDropped.increment(statements - written);
        List<List<Stamped>> pending = batches;
        long retryMillis = FIRST_RETRY_MILLIS;
        while (true) {
            Failed<List<Stamped>> failed = sendAll(pending, window(batchesInFlight, pending.size()),
                    batch -> session.executeAsync(BatchStatement.newInstance(BatchType.UNLOGGED).addAll(bind(batch))
                            .setConsistencyLevel(DefaultConsistencyLevel.LOCAL_QUORUM)
                            .setQueryTimestamp(maxTimestamp)
                            .setIdempotent(true)).toCompletableFuture());
            if (failed.items().isEmpty()) {
                break;
            }
            Throwable cause = failed.cause().getCause() == null ? failed.cause() : failed.cause().getCause();
            log.warn("projection of {} groups: {} of {} batches not confirmed ({}); writing them again",
                    round.size(), failed.items().size(), pending.size(), cause.toString());
            if (!running) {
                throw new InterruptedException("stopping");
            }
            Thread.sleep(retryMillis);
            retryMillis = Math.min(LAST_RETRY_MILLIS, retryMillis * 2);
            pending = failed.items();
        }
        // kept for a resend after a cut (HealResend), each group at its own timestamp: the rows other
        // regions read (the symbols' rows are left out there, as only this region reads them)
        for (int i = 0; i < round.size(); i++) {
            List<KeptStatement> others = new ArrayList<>();
            for (Coalesce.Write<KeptStatement> w : kept.get(i)) {
                if (w.shape() == Coalesce.Shape.OTHER) {
                    others.add(w.statement());
                }
            }
            if (!others.isEmpty()) {
                store.confirmedKept(others, round.get(i).timestamp());
            }
        }
        Logged last = round.get(round.size() - 1);
        retryMillis = FIRST_RETRY_MILLIS;
        while (true) {
            try {
                engineLog.projected(last.seq(), last.timestamp());
                return;
            } catch (RuntimeException e) {
                log.warn("recording group {} as projected failed ({}); again", last.seq(), e.toString());
                if (!running) {
                    throw new InterruptedException("stopping");
                }
                Thread.sleep(retryMillis);
                retryMillis = Math.min(LAST_RETRY_MILLIS, retryMillis * 2);
            }
        }
    }

    /** A statement to write at its group's timestamp. */
    private record Stamped(KeptStatement statement, long timestamp) {
        int size() {
            return statement.sizeInBatch();
        }
    }

    /**
     * The batch's statements bound, each to its form that carries its group's timestamp: bound as the
     * batch is sent, so a round holds its statements packed, not bound, while its batches go one by one.
     */
    private List<BoundStatement> bind(List<Stamped> batch) {
        List<BoundStatement> bound = new ArrayList<>(batch.size());
        for (Stamped s : batch) {
            bound.add(store.at(s.statement(), s.timestamp()));
        }
        return bound;
    }

    /**
     * The batches a round keeps under way at once: {@code batchesInFlight}, or more in a round of more
     * than {@link #ROUND_STEPS} times as many batches, so that a round takes at most that many batches'
     * round trips one after another. One at a time, a round's time grows with its size: at 4,000
     * acknowledged orders a second a round was ~1,000 batches and took 4 to 15 s, the groups logged
     * meanwhile made the next one larger, and once 1,024 groups waited the engine stopped for a round
     * (~1–2 s without a commit; docs/results.md, 2026-12-07).
     */
    static int window(int batchesInFlight, int batches) {
        return Math.max(batchesInFlight, (batches + ROUND_STEPS - 1) / ROUND_STEPS);
    }

    /** The items whose writes failed, in order, and the last failure (null when none failed). */
    record Failed<T>(List<T> items, RuntimeException cause) {
    }

    /**
     * Writes {@code items} in order with {@code write}, at most {@code inFlight} of them under way at
     * once: the next starts when the oldest under way has been answered. Returns those whose write
     * failed.
     */
    static <T> Failed<T> sendAll(List<T> items, int inFlight, Function<T, CompletableFuture<?>> write) {
        List<T> failed = new ArrayList<>();
        ArrayDeque<Map.Entry<T, CompletableFuture<?>>> sent = new ArrayDeque<>(Math.min(inFlight, items.size()));
        RuntimeException cause = null;
        for (T item : items) {
            if (sent.size() == inFlight) {
                cause = settle(sent.poll(), failed, cause);
            }
            sent.add(Map.entry(item, write.apply(item)));
        }
        while (!sent.isEmpty()) {
            cause = settle(sent.poll(), failed, cause);
        }
        return new Failed<>(failed, cause);
    }

    /** Waits for one write: a failed one's item goes to {@code failed} and its failure is returned, else {@code cause}. */
    private static <T> RuntimeException settle(Map.Entry<T, CompletableFuture<?>> sent, List<T> failed,
                                               RuntimeException cause) {
        try {
            sent.getValue().join();
            return cause;
        } catch (CompletionException e) {
            failed.add(sent.getKey());
            return e;
        }
    }
}
