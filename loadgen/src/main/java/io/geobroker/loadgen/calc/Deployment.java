package io.geobroker.loadgen.calc;

import java.util.List;

/**
 * What the calculator prices: one DC per listed cloud region, each with the same Cassandra nodes
 * and broker instances. {@code tradeShares} weigh how the monthly trades split over the regions
 * (empty = evenly), e.g. the fills each region measured in a load report.
 */
public record Deployment(List<String> regions, int nodesPerDc, int replicationFactor, String cassandraInstance,
                         int cassandraVolumeGb, String brokerInstance, int brokersPerDc, int brokerVolumeGb,
                         long tradesPerMonth, long bytesReplicatedPerTrade, List<Long> tradeShares) {

    public Deployment {
        regions = List.copyOf(regions);
        tradeShares = List.copyOf(tradeShares);
        if (regions.isEmpty()) {
            throw new IllegalArgumentException("a deployment needs at least one DC");
        }
        if (nodesPerDc < 1 || replicationFactor < 1 || brokersPerDc < 0) {
            throw new IllegalArgumentException("nodes per DC and replication factor must be at least 1, brokers per DC not negative");
        }
        if (cassandraVolumeGb < 0 || brokerVolumeGb < 0 || tradesPerMonth < 0 || bytesReplicatedPerTrade < 0) {
            throw new IllegalArgumentException("volumes, trades and bytes per trade must not be negative");
        }
        if (!tradeShares.isEmpty() && (tradeShares.size() != regions.size()
                || tradeShares.stream().anyMatch(s -> s < 0) || tradeShares.stream().mapToLong(Long::longValue).sum() == 0)) {
            throw new IllegalArgumentException("trade shares need one non-negative weight per region, not all zero");
        }
    }

    public int dcs() {
        return regions.size();
    }

    public Deployment withRegions(List<String> newRegions) {
        return new Deployment(newRegions, nodesPerDc, replicationFactor, cassandraInstance, cassandraVolumeGb,
                brokerInstance, brokersPerDc, brokerVolumeGb, tradesPerMonth, bytesReplicatedPerTrade,
                newRegions.size() == tradeShares.size() ? tradeShares : List.of());
    }

    public Deployment withTradesPerMonth(long trades, List<Long> shares) {
        return new Deployment(regions, nodesPerDc, replicationFactor, cassandraInstance, cassandraVolumeGb,
                brokerInstance, brokersPerDc, brokerVolumeGb, trades, bytesReplicatedPerTrade, shares);
    }

    public Deployment withBytesReplicatedPerTrade(long bytes) {
        return new Deployment(regions, nodesPerDc, replicationFactor, cassandraInstance, cassandraVolumeGb,
                brokerInstance, brokersPerDc, brokerVolumeGb, tradesPerMonth, bytes, tradeShares);
    }

    /** Replicas of each row in one DC: no more than the DC has nodes. */
    public int effectiveReplicationFactor() {
        return Math.min(replicationFactor, nodesPerDc);
    }
}
