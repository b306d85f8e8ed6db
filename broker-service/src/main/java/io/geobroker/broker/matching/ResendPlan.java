package io.geobroker.broker.matching;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * How the batches kept during a cut ({@link RecentWrites}) are written again once the link is back:
 * not batch by batch, but partition by partition. A 20 s cut at the default load keeps ~1,000
 * engine batches of a few partitions each; written again one by one, at EACH_QUORUM, that is some
 * 2,500 mutations for every replica of every DC to apply, on the same cores as the live load. Every
 * kept statement writes absolute values at its group's timestamp, so statements of many groups can
 * share one batch as long as each carries its own timestamp ({@code USING TIMESTAMP ?}): Cassandra
 * then keeps, cell by cell, what it would have kept had the groups been written again one by one. So
 * each partition's statements become one unlogged batch (one mutation), cut where it would pass
 * {@code maxBytes}: a few dozen batches instead of a thousand. A statement whose every cell a later
 * statement of the same form and row writes again is left out: it would change nothing.
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

        /**
         * The row the statement writes, as far as a later statement of the same form writing the
         * same cells makes it needless (its form and primary key), or null where that cannot be
         * told (a deletion, a statement with its own timestamp): such statements are always written.
         */
        Object row(S statement);

        /** The cells the statement writes in its {@link #row}, one bit each (64 at most). */
        long cells(S statement);
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
        Set<Long> overwritten = overwritten(entries);
        for (int entry = 0; entry < entries.size(); entry++) {
            RecentWrites.Entry<S> e = entries.get(entry);
            List<S> timestamped = new ArrayList<>(e.statements().size());
            for (int index = 0; index < e.statements().size(); index++) {
                S s = e.statements().get(index);
                if (overwritten.contains(position(entry, index))) {
                    continue;
                }
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

    /**
     * Where the statements are whose every cell a statement of the same row with a later timestamp
     * writes again ({@link #position}): written again they would change nothing, since Cassandra
     * keeps, cell by cell, the write with the latest timestamp (a cut's groups rewrite the same cash,
     * holdings and order rows over and over). Compared within {@code entries} only.
     */
    private Set<Long> overwritten(List<RecentWrites.Entry<S>> entries) {
        record Write(long position, long timestamp, long cells) {
        }
        Map<Object, List<Write>> byRow = new HashMap<>();
        for (int entry = 0; entry < entries.size(); entry++) {
            RecentWrites.Entry<S> e = entries.get(entry);
            for (int index = 0; index < e.statements().size(); index++) {
                S s = e.statements().get(index);
                Object row = form.row(s);
                if (row != null) {
                    byRow.computeIfAbsent(row, r -> new ArrayList<>())
                            .add(new Write(position(entry, index), e.timestampMicros(), form.cells(s)));
                }
            }
        }
        Set<Long> overwritten = new HashSet<>();
        for (List<Write> writes : byRow.values()) {
            if (writes.size() < 2) {
                continue;
            }
            writes.sort(Comparator.comparingLong(Write::timestamp).reversed());
            long later = 0;
            int i = 0;
            while (i < writes.size()) {
                // the writes of one timestamp are judged against the later ones only
                int j = i;
                long atThisTimestamp = 0;
                while (j < writes.size() && writes.get(j).timestamp() == writes.get(i).timestamp()) {
                    Write w = writes.get(j);
                    if ((later & w.cells()) == w.cells()) {
                        overwritten.add(w.position());
                    }
                    atThisTimestamp |= w.cells();
                    j++;
                }
                later |= atThisTimestamp;
                i = j;
            }
        }
        return overwritten;
    }

    /** A statement's place: its entry's index and its own within the entry. */
    private static long position(int entry, int index) {
        return ((long) entry << 32) | index;
    }
}
