package io.geobroker.broker.matching;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * How the batches kept during a cut ({@link RecentWrites}) are written again once the link is back:
 * not batch by batch, but partition by partition. A 20 s cut at the default load keeps ~1,000
 * engine batches of a few partitions each; written again one by one, at EACH_QUORUM, that is some
 * 2,500 mutations for every replica of every DC to apply, on the same cores as the live load. Every
 * kept statement writes absolute values at its group's timestamp, so statements of many groups can
 * share one batch as long as each carries its own timestamp ({@code USING TIMESTAMP ?}): Cassandra
 * then keeps, cell by cell, what it would have kept had the groups been written again one by one. So
 * each partition's statements become one unlogged batch (one mutation), cut where it would pass
 * {@code maxBytes}: a few dozen batches instead of a thousand.
 *
 * <p>The entries marked {@code first} (an order's rows for another region's symbol, which the home
 * region waits for) keep their place: their partitions' batches come before the others'. An entry
 * with a statement that cannot carry its own timestamp is written as it was, one batch at its
 * timestamp, after the coalesced batches of its kind (the order of absolute, timestamped writes
 * changes when rows arrive, not what wins).
 *
 * @param <S> a statement
 */
final class ResendPlan<S> {

    /** What the plan needs to know of a statement. */
    interface Form<S> {
        /** The statement with {@code timestampMicros} as its own write timestamp, or null if it cannot carry one. */
        S at(S statement, long timestampMicros);

        /** The partition the statement writes (statements of one partition make one mutation). */
        Object partition(S statement);

        /** About what the statement weighs in a batch. */
        long bytes(S statement);
    }

    /**
     * One batch to write again: its statements, and the timestamp of the batch, which counts only for
     * statements without their own ({@code ownTimestamps} false: a kept entry written as it was).
     */
    record Batch<S>(List<S> statements, long timestampMicros, boolean ownTimestamps) {
    }

    private final Form<S> form;
    private final long maxBytes;

    ResendPlan(Form<S> form, long maxBytes) {
        if (maxBytes <= 0) {
            throw new IllegalArgumentException("maxBytes must be positive");
        }
        this.form = form;
        this.maxBytes = maxBytes;
    }

    /** The batches that write {@code entries} again, in the order to send them. */
    List<Batch<S>> batches(List<RecentWrites.Entry<S>> entries) {
        List<Batch<S>> batches = new ArrayList<>();
        List<RecentWrites.Entry<S>> firsts = new ArrayList<>();
        List<RecentWrites.Entry<S>> others = new ArrayList<>();
        for (RecentWrites.Entry<S> e : entries) {
            (e.first() ? firsts : others).add(e);
        }
        coalesce(firsts, batches);
        coalesce(others, batches);
        return batches;
    }

    private void coalesce(List<RecentWrites.Entry<S>> entries, List<Batch<S>> out) {
        Map<Object, List<S>> byPartition = new LinkedHashMap<>();
        List<Batch<S>> asWritten = new ArrayList<>();
        for (RecentWrites.Entry<S> e : entries) {
            List<S> timestamped = new ArrayList<>(e.statements().size());
            for (S s : e.statements()) {
                S t = form.at(s, e.timestampMicros());
                if (t == null) {
                    timestamped = null;
                    break;
                }
                timestamped.add(t);
            }
            if (timestamped == null) {
                asWritten.add(new Batch<>(e.statements(), e.timestampMicros(), false));
                continue;
            }
            for (S t : timestamped) {
                byPartition.computeIfAbsent(form.partition(t), p -> new ArrayList<>()).add(t);
            }
        }
        for (List<S> partition : byPartition.values()) {
            List<S> batch = new ArrayList<>();
            long bytes = 0;
            for (S s : partition) {
                long size = form.bytes(s);
                if (!batch.isEmpty() && bytes + size > maxBytes) {
                    out.add(new Batch<>(batch, 0, true));
                    batch = new ArrayList<>();
                    bytes = 0;
                }
                batch.add(s);
                bytes += size;
            }
            if (!batch.isEmpty()) {
                out.add(new Batch<>(batch, 0, true));
            }
        }
        out.addAll(asWritten);
    }
}
