package io.geobroker.loadgen.calc;

import java.util.Locale;

/**
 * The bytes that cross the link between two regions' DCs while geobroker runs, both ways together,
 * as a sum of what causes them: a fixed rate (Cassandra's gossip, the brokers' link probes), each
 * order placed (its rows, and a cross-region order's announcement or relay), each fill (its rows)
 * and each mutation the engines write (one Cassandra message per partition of a group's batch or a
 * projection round, sent once to the other DC, and the replicas' answers). Cassandra's internode
 * messages between the DCs are not compressed in this deployment, so the bytes follow the rows.
 * The coefficients are measured ({@code geobroker/pricing.properties} says on which runs); a run
 * that reports its own counts can be checked against what they predict.
 */
public record ReplicationModel(long bytesPerSecond, long bytesPerOrder, long bytesPerFill, long bytesPerMutation) {

    public ReplicationModel {
        if (bytesPerSecond < 0 || bytesPerOrder < 0 || bytesPerFill < 0 || bytesPerMutation < 0) {
            throw new IllegalArgumentException("the replication model's coefficients cannot be negative");
        }
    }

    /** What a phase of {@code millis} with these counts should carry across the link, both ways together. */
    public long bytes(long millis, long orders, long fills, long mutations) {
        if (millis < 0 || orders < 0 || fills < 0 || mutations < 0) {
            throw new IllegalArgumentException("a phase's duration and counts cannot be negative");
        }
        return Math.addExact(Math.addExact(Math.multiplyExact(bytesPerSecond, millis) / 1000,
                Math.multiplyExact(bytesPerOrder, orders)),
                Math.addExact(Math.multiplyExact(bytesPerFill, fills), Math.multiplyExact(bytesPerMutation, mutations)));
    }

    /** The model in one line, for a report. */
    public String describe() {
        return String.format(Locale.ROOT, "%,d bytes a second + %,d per order + %,d per fill + %,d per mutation the engines wrote",
                bytesPerSecond, bytesPerOrder, bytesPerFill, bytesPerMutation);
    }
}
