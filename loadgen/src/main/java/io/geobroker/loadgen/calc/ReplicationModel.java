package io.geobroker.loadgen.calc;

import io.geobroker.loadgen.report.RunReport;
import io.geobroker.loadgen.report.WanTraffic;

import java.math.BigInteger;
import java.util.Locale;
import java.util.OptionalLong;

/**
 * The bytes that cross the link between two regions' DCs while geobroker runs, both ways together,
 * as a sum of what causes them: a rate per Cassandra node (gossip; the brokers' link probes), each
 * fill (the rows of its trade and of the order it filled) and each mutation the engines write to
 * tables every DC replicates: one Cassandra message per partition of a group's batch or a projection
 * round, sent once to the other DC (whose first replica hands it on to the others), and one answer
 * back from each of that DC's replicas (the engine log's slots stay in their DC's own keyspace). Orders are not a term of their own: in every workload the load generator makes there
 * are 0.94 to 0.98 fills per order, so the runs cannot tell their bytes apart. Cassandra's internode
 * messages are not compressed in this deployment, so the bytes follow the rows. The coefficients are
 * measured ({@code geobroker/pricing.properties} says on which runs); a run that reports its own
 * counts can be checked against what they predict.
 */
public record ReplicationModel(long bytesPerNodeSecond, long bytesPerFill, long bytesPerMutation, long bytesPerAnswer) {

    public ReplicationModel {
        if (bytesPerNodeSecond < 0 || bytesPerFill < 0 || bytesPerMutation < 0 || bytesPerAnswer < 0) {
            throw new IllegalArgumentException("the replication model's coefficients cannot be negative");
        }
    }

    /**
     * What a phase of {@code millis} should carry across the link, both ways together, with
     * {@code nodes} Cassandra nodes in all, {@code replicas} per DC, and these counts.
     */
    public long bytes(long millis, int nodes, int replicas, long fills, long mutations) {
        if (millis < 0 || nodes < 1 || replicas < 1 || fills < 0 || mutations < 0) {
            throw new IllegalArgumentException("a phase needs a duration, nodes, replicas and counts that are not negative");
        }
        long perMutation = Math.addExact(bytesPerMutation, Math.multiplyExact(bytesPerAnswer, (long) replicas));
        return Math.addExact(Math.multiplyExact(Math.multiplyExact(bytesPerNodeSecond, (long) nodes), millis) / 1000,
                Math.addExact(Math.multiplyExact(bytesPerFill, fills), Math.multiplyExact(perMutation, mutations)));
    }

    /**
     * What the model predicts for a report's measured phase from the report's own counts: its fills,
     * its engines' mutations, its Cassandra nodes and replicas per DC; empty when it lacks one of them
     * or has no fill.
     */
    public OptionalLong predict(RunReport report) {
        long fills = report.regions().stream().mapToLong(RunReport.RegionSummary::fills).sum();
        OptionalLong mutations = WanTraffic.mutations(report);
        OptionalLong nodesPerDc = WanTraffic.number(report.conditions(), WanTraffic.NODES_PER_DC);
        OptionalLong replicas = WanTraffic.number(report.conditions(), WanTraffic.REPLICAS_PER_DC);
        if (fills == 0 || mutations.isEmpty() || nodesPerDc.isEmpty() || replicas.isEmpty()) {
            return OptionalLong.empty();
        }
        int nodes = Math.toIntExact(nodesPerDc.getAsLong() * report.regions().size());
        return OptionalLong.of(bytes(report.measuredMillis(), nodes, Math.toIntExact(replicas.getAsLong()), fills,
                mutations.getAsLong()));
    }

    /**
     * Bytes replicated per trade for a deployment of {@code nodes} Cassandra nodes in all and
     * {@code replicas} per DC, whose engines write {@code mutationsPerFillMilli} thousandths of a
     * mutation per fill, at {@code tradesPerMonth} (the nodes' fixed rate spread over the trades);
     * rounded half up to whole bytes.
     */
    public long bytesPerTrade(int nodes, int replicas, long mutationsPerFillMilli, long tradesPerMonth, long hoursPerMonth) {
        if (nodes < 1 || replicas < 1 || mutationsPerFillMilli < 0 || tradesPerMonth < 1 || hoursPerMonth < 1) {
            throw new IllegalArgumentException("bytes per trade need nodes, replicas, trades and hours, and mutations per fill "
                    + "that are not negative");
        }
        long perMutation = Math.addExact(bytesPerMutation, Math.multiplyExact(bytesPerAnswer, (long) replicas));
        long mutations = Usd.divideHalfUp(Math.multiplyExact(perMutation, mutationsPerFillMilli), 1000);
        long fixed = Usd.divideHalfUp(BigInteger.valueOf(bytesPerNodeSecond).multiply(BigInteger.valueOf(nodes))
                .multiply(BigInteger.valueOf(hoursPerMonth * 3_600L)), BigInteger.valueOf(tradesPerMonth));
        return Math.addExact(Math.addExact(bytesPerFill, mutations), fixed);
    }

    /** The model in one line, for a report. */
    public String describe() {
        return String.format(Locale.ROOT, "%,d bytes a second per Cassandra node + %,d per fill + %,d per mutation the "
                + "engines wrote + %,d per replica's answer to it", bytesPerNodeSecond, bytesPerFill, bytesPerMutation, bytesPerAnswer);
    }
}
