package io.geobroker.broker.matching;

import com.datastax.oss.driver.api.core.cql.BoundStatement;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Function;
import java.util.function.ToIntFunction;

/**
 * Writes a group's statements until Cassandra confirms them: one atomic batch when it fits, and
 * through the {@link GroupJournal} otherwise. A group whose batch would pass {@code maxBatchBytes}
 * (only a single command with very many fills gets there, since groups are capped in statements)
 * is journalled, then written as consecutive batches with the symbols' progress last, and the
 * journal is cleared only after the last of them. A batch whose outcome is unknown is written again
 * (same statements, same timestamp); one over 64 KiB goes through the journal in smaller batches,
 * since a node too busy to apply it in time would not apply it the second time either. A crash in
 * between leaves the journal pending, and {@link #replayJournal} completes the group before the
 * next start rebuilds any state, so every group is all-or-nothing as customers see it.
 *
 * <p>The journal path needs no batch log: after the journal, each partition's statements are an
 * unlogged batch of their own. So when Cassandra could not write a logged batch's batch log (its
 * two endpoints in the local DC include a node that is dead but not yet convicted by the failure
 * detector, which takes ~20 s after a SIGKILL at 3 nodes per DC), the group goes through the
 * journal at once, and so does every group of several partitions for {@link BatchLogBypass}'s window
 * after it, instead of each waiting out the write timeout again. In a DC of several nodes so does
 * every such group while the driver sees a node of the local DC down (a logged batch under way when
 * that happens is not waited for) and for a minute after one came back up.
 */
final class BatchWriter {

    /** Logged under the engine's name, like everything the engine thread does. */
    private static final Logger log = LoggerFactory.getLogger(Engine.class);
    /**
     * Largest batch of a group written again after its single batch was not confirmed in time: small
     * enough for a busy node to apply well within its write timeout.
     */
    static final int SPLIT_BATCH_BYTES = 64 * 1024;

    private final EngineStore store;
    private final GroupJournal journal;
    private final WriteClock writeClock;
    private final Retry retry;
    private final EngineMetrics metrics;
    private final int maxBatchBytes;
    private long lastStartNanos = System.nanoTime();
    private final BatchLogBypass bypass;
    /** How often a group waiting for its batch looks at the driver's node states. */
    static final long NODE_CHECK_MILLIS = 50;

    BatchWriter(EngineStore store, GroupJournal journal, WriteClock writeClock, Retry retry, EngineMetrics metrics,
                int maxBatchBytes, BatchLogBypass bypass) {
        this.bypass = bypass;
        this.store = store;
        this.journal = journal;
        this.writeClock = writeClock;
        this.retry = retry;
        this.metrics = metrics;
        this.maxBatchBytes = maxBatchBytes;
    }

    /** When the last group's write started (System.nanoTime()): the commit interval counts from it. */
    long lastStartNanos() {
        return lastStartNanos;
    }

    /** Writes a group, {@code effects} and then the symbols' {@code progress}, all at {@code timestamp}. */
    void persistGroup(List<BoundStatement> effects, List<BoundStatement> progress, long timestamp) {
        List<BoundStatement> all = new ArrayList<>(effects);
        all.addAll(progress);
        if (all.isEmpty()) {
            return;
        }
        lastStartNanos = System.nanoTime();
        metrics.groupStatements.record(all.size());
        int partitions = EngineStore.partitions(all);
        metrics.groupPartitions.record(partitions);
        long size = 0;
        for (BoundStatement s : all) {
            size += store.sizeOf(s);
        }
        if (size <= maxBatchBytes) {
            if (partitions > 1 && bypass.active()) {
                metrics.batchLogBypassed.increment();
                persistThroughJournal(all, effects, progress, timestamp, SPLIT_BATCH_BYTES);
                return;
            }
            Attempt attempt = persistOnce(all, timestamp, partitions > 1);
            if (attempt == Attempt.CONFIRMED) {
                return;
            }
            if (attempt == Attempt.NODE_LOST) {
                metrics.batchLogBypassed.increment();
                persistThroughJournal(all, effects, progress, timestamp, SPLIT_BATCH_BYTES);
                return;
            }
            if (attempt == Attempt.NO_BATCH_LOG) {
                metrics.batchLogBypassed.increment();
                log.warn("the batch log of a group of {} statements could not be written: it and the groups of the "
                        + "next {} s go through the journal, a batch per partition", all.size(),
                        BatchLogBypass.windowSeconds());
                persistThroughJournal(all, effects, progress, timestamp, SPLIT_BATCH_BYTES);
                return;
            }
            int splitBytes = Math.min(maxBatchBytes, SPLIT_BATCH_BYTES);
            if (size <= splitBytes) {
                persist(all, timestamp);
                return;
            }
            metrics.splitGroups.increment();
            log.warn("group of {} statements ({} bytes) not confirmed: journalled, then written again in batches "
                    + "of at most {} bytes", all.size(), size, splitBytes);
            persistThroughJournal(all, effects, progress, timestamp, splitBytes);
            return;
        }
        metrics.oversizedGroups.increment();
        log.info("group of {} statements ({} bytes) exceeds {} bytes: journalled, then written in several batches",
                all.size(), size, maxBatchBytes);
        persistThroughJournal(all, effects, progress, timestamp, maxBatchBytes);
    }

    /**
     * Starts writing a group's log slot (one statement of one partition, unlogged) without waiting:
     * the future completes when Cassandra has answered, exceptionally if the write failed or timed
     * out. {@link #finishSlot} then confirms it on the engine thread, or writes it again.
     */
    CompletableFuture<Void> startSlot(BoundStatement slot, long timestamp) {
        long start = System.nanoTime();
        lastStartNanos = start;
        metrics.groupStatements.record(1);
        metrics.groupPartitions.record(1);
        return store.writeAsync(List.of(slot), timestamp).whenComplete((done, failure) -> {
            if (failure == null) {
                metrics.persistTimer.record(System.nanoTime() - start, TimeUnit.NANOSECONDS);
            }
        });
    }

    /**
     * Completes a slot write {@link #startSlot} started, once it has been answered: keeps it for a
     * resend after a cut when confirmed, otherwise writes it again (same statement, same timestamp)
     * until it is, as a group whose batch outcome is unknown is.
     */
    void finishSlot(CompletableFuture<Void> write, BoundStatement slot, long timestamp) {
        try {
            write.join();
            store.confirmed(List.of(slot), timestamp);
        } catch (CompletionException | CancellationException e) {
            log.warn("the log slot of a group was not confirmed ({}): written again", String.valueOf(e.getCause()));
            persistGroup(List.of(), List.of(slot), timestamp);
        }
    }

    /**
     * The journal first, then the statements in batches of at most {@code chunkBytes} with the
     * symbols' progress last, then the journal cleared: all-or-nothing across a crash.
     */
    private void persistThroughJournal(List<BoundStatement> all, List<BoundStatement> effects,
                                       List<BoundStatement> progress, long timestamp, int chunkBytes) {
        retry.write("writing the journal of a group of " + all.size() + " statements", () -> journal.write(all, timestamp));
        persistInChunks(effects, progress, timestamp, chunkBytes);
        long cleared = writeClock.next();
        retry.write("clearing the journal", () -> journal.clear(cleared));
    }

    /** Writes statements in consecutive batches of at most {@code chunkBytes}, then {@code last} on its own. */
    private void persistInChunks(List<BoundStatement> statements, List<BoundStatement> last, long timestamp,
                                 int chunkBytes) {
        persistByPartition(statements, timestamp, chunkBytes);
        persistByPartition(last, timestamp, chunkBytes);
    }

    /**
     * Each partition's statements as unlogged batches of at most {@code chunkBytes}, partitions in
     * the order of their first statement: no batch log, so no node beyond the partition's replicas
     * has to answer.
     */
    private void persistByPartition(List<BoundStatement> statements, long timestamp, int chunkBytes) {
        for (List<BoundStatement> partition : byPartition(statements, BoundStatement::getRoutingKey)) {
            for (List<BoundStatement> chunk : chunks(partition, store::sizeOf, chunkBytes)) {
                persistPartition(chunk, timestamp);
            }
        }
    }

    /** The items grouped by partition key, in the order of each partition's first item, each in order. */
    static <T> List<List<T>> byPartition(List<T> items, Function<T, ByteBuffer> partitionKey) {
        Map<ByteBuffer, List<T>> partitions = new LinkedHashMap<>();
        for (T item : items) {
            partitions.computeIfAbsent(partitionKey.apply(item), k -> new ArrayList<>()).add(item);
        }
        return new ArrayList<>(partitions.values());
    }

    /**
     * Consecutive runs of the items, in order, each at most {@code chunkBytes} in total unless a
     * single item is larger on its own (it is then a run by itself).
     */
    static <T> List<List<T>> chunks(List<T> items, ToIntFunction<T> sizeOf, int chunkBytes) {
        List<List<T>> chunks = new ArrayList<>();
        List<T> chunk = new ArrayList<>();
        long chunkSize = 0;
        for (T item : items) {
            int bytes = sizeOf.applyAsInt(item);
            if (!chunk.isEmpty() && chunkSize + bytes > chunkBytes) {
                chunks.add(chunk);
                chunk = new ArrayList<>();
                chunkSize = 0;
            }
            chunk.add(item);
            chunkSize += bytes;
        }
        if (!chunk.isEmpty()) {
            chunks.add(chunk);
        }
        return chunks;
    }

    /**
     * Completes a group whose journal a crashed broker left pending: its statements are written
     * again with the group's own timestamp (absolute values, so what was already applied is written
     * identically and anything written later still wins), then the journal is cleared.
     */
    void replayJournal() {
        Optional<GroupJournal.Pending> pending = journal.pending();
        if (pending.isEmpty()) {
            return;
        }
        GroupJournal.Pending group = pending.get();
        log.warn("applying the journal of an interrupted group: {} statements with write timestamp {}",
                group.entries().size(), group.timestamp());
        persistInChunks(journal.bind(group.entries()), List.of(), group.timestamp(), maxBatchBytes);
        writeClock.advancePast(group.timestamp());
        long cleared = writeClock.next();
        retry.write("clearing the journal", () -> journal.clear(cleared));
    }

    /** Whether the statements fit in one batch of at most {@code maxBatchBytes}. */
    boolean fitsOneBatch(List<BoundStatement> statements, BoundStatement more) {
        long size = store.sizeOf(more);
        for (BoundStatement s : statements) {
            size += store.sizeOf(s);
        }
        return size <= maxBatchBytes;
    }

    /**
     * Writes the symbol statements of the groups the log holds beyond its last projected group (a
     * broker stopped before their round), each group at its own timestamp, then records them
     * projected. Slots beyond the last group in order are deleted first ({@link EngineLog#clearBeyond}).
     *
     * @return the last logged group's sequence number
     */
    long replayLog(EngineLog engineLog) {
        EngineLog.Unprojected unprojected = engineLog.unprojected();
        long cleared = retry.untilAnswered("clearing the engine log beyond group " + unprojected.lastSeq(), null,
                () -> engineLog.clearBeyond(unprojected.lastSeq()));
        if (cleared >= 0) {
            writeClock.advancePast(cleared);
            log.warn("deleted the log slots a stopped broker left beyond group {} (their groups were never answered)",
                    unprojected.lastSeq());
        }
        if (unprojected.groups().isEmpty()) {
            return unprojected.projectedSeq();
        }
        int statements = 0;
        for (EngineLog.Logged g : unprojected.groups()) {
            persistInChunks(journal.bind(g.entries()), List.of(), g.timestamp(), maxBatchBytes);
            writeClock.advancePast(g.timestamp());
            statements += g.entries().size();
        }
        long last = unprojected.lastSeq();
        long recorded = writeClock.next();
        retry.write("recording the engine log projected", () -> engineLog.projected(last, recorded));
        log.info("wrote the symbol rows of {} logged groups ({} statements) left unprojected, up to group {}",
                unprojected.groups().size(), statements, last);
        return last;
    }

    /**
     * One attempt at a group's batch; false when it failed or its outcome is unknown (a timeout: it
     * may still be applied, with the same values and timestamp as any later write of the group).
     */
    private Attempt persistOnce(List<BoundStatement> statements, long timestamp, boolean logged) {
        long start = System.nanoTime();
        try {
            if (!logged || !bypass.batchLogsMayGoElsewhere()) {
                store.executeBatch(statements, timestamp);
            } else if (!awaitUnlessNodeLost(store.executeBatchAsync(statements, timestamp))) {
                log.warn("a node of this DC went down while a logged batch of {} statements was under way: the group "
                        + "goes through the journal, a batch per partition", statements.size());
                return Attempt.NODE_LOST;
            }
            metrics.persistTimer.record(System.nanoTime() - start, TimeUnit.NANOSECONDS);
            return Attempt.CONFIRMED;
        } catch (RuntimeException e) {
            log.warn("group commit of {} statements failed ({})", statements.size(), e.toString());
            return bypass.opensOn(e) ? Attempt.NO_BATCH_LOG : Attempt.UNKNOWN;
        }
    }

    /**
     * Waits for a logged batch of a DC of several nodes; returns false, without waiting further, once
     * the driver sees a node of the local DC down: its batch log may have gone to that node, and
     * Cassandra answers only after the write timeout. The batch may still be applied, with the same
     * values and timestamp as the journal path writes. A failed batch throws its own exception.
     */
    private boolean awaitUnlessNodeLost(CompletableFuture<Void> write) {
        while (true) {
            try {
                write.get(NODE_CHECK_MILLIS, TimeUnit.MILLISECONDS);
                return true;
            } catch (TimeoutException e) {
                if (bypass.localNodeDown()) {
                    return false;
                }
            } catch (ExecutionException e) {
                if (e.getCause() instanceof RuntimeException cause) {
                    throw cause;
                }
                throw new IllegalStateException(e.getCause());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while waiting for a group's batch", e);
            }
        }
    }

    /** How one attempt at a group's batch ended. */
    private enum Attempt {
        CONFIRMED,
        /** Not confirmed: it may still be applied. */
        UNKNOWN,
        /** Its batch log could not be written: nothing of it was applied. */
        NO_BATCH_LOG,
        /** Given up on when a local node went down: it may still be applied. */
        NODE_LOST
    }

    /** Writes a batch until Cassandra confirms it: the same statements and timestamp every time. */
    private void persist(List<BoundStatement> statements, long timestamp) {
        long start = System.nanoTime();
        retry.write("group commit of " + statements.size() + " statements", () -> store.executeBatch(statements, timestamp));
        metrics.persistTimer.record(System.nanoTime() - start, TimeUnit.NANOSECONDS);
    }

    /** Writes statements of one partition (a generation's open orders, a symbol's state) until confirmed. */
    void persistPartition(List<BoundStatement> statements, long timestamp) {
        retry.write("writing " + statements.size() + " statements of one partition",
                () -> store.executePartitionBatch(statements, timestamp));
    }
}
