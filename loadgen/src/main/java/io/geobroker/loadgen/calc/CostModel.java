package io.geobroker.loadgen.calc;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;

/**
 * Monthly cost of a deployment: Cassandra and broker instances and their EBS volumes in every DC,
 * plus the WAN transfer of replication. Every write of a trade is sent once to each other DC (the
 * remote coordinator fans it out to that DC's replicas), so a DC's transfer out per month is
 * {@code its trades x bytes per trade x (DCs - 1)}, priced at its region's transfer-out rate.
 */
public final class CostModel {

    private static final BigInteger BYTES_PER_GB = BigInteger.valueOf(1_000_000_000L);

    /** One line of the bill. */
    public record Line(Item item, String region, long quantity, long micros) {
    }

    public enum Item {
        CASSANDRA_INSTANCES("Cassandra instances"),
        CASSANDRA_STORAGE("Cassandra storage (GB)"),
        BROKER_INSTANCES("Broker instances"),
        BROKER_STORAGE("Broker storage (GB)"),
        TRANSFER("Transfer out (GB)");

        private final String label;

        Item(String label) {
            this.label = label;
        }

        public String label() {
            return label;
        }
    }

    /** The priced deployment: its lines and totals (micro-dollars per month). */
    public record Estimate(Deployment deployment, List<Line> lines) {
        public Estimate {
            lines = List.copyOf(lines);
        }

        /** Instances and their storage: everything but transfer. */
        public long infrastructureMicros() {
            return lines.stream().filter(l -> l.item() != Item.TRANSFER).mapToLong(Line::micros).sum();
        }

        public long transferMicros() {
            return lines.stream().filter(l -> l.item() == Item.TRANSFER).mapToLong(Line::micros).sum();
        }

        public long totalMicros() {
            return infrastructureMicros() + transferMicros();
        }

        public long transferBytes() {
            return lines.stream().filter(l -> l.item() == Item.TRANSFER).mapToLong(Line::quantity).sum();
        }

        public long micros(Item item) {
            return lines.stream().filter(l -> l.item() == item).mapToLong(Line::micros).sum();
        }
    }

    private final Pricing pricing;

    public CostModel(Pricing pricing) {
        this.pricing = pricing;
    }

    public Estimate estimate(Deployment d) {
        List<Line> lines = new ArrayList<>();
        long hours = pricing.hoursPerMonth();
        List<Long> shares = shares(d);
        long shareSum = shares.stream().mapToLong(Long::longValue).sum();
        for (int i = 0; i < d.dcs(); i++) {
            Pricing.RegionPrices r = pricing.region(d.regions().get(i));
            lines.add(new Line(Item.CASSANDRA_INSTANCES, r.id(), d.nodesPerDc(),
                    Math.multiplyExact(Math.multiplyExact(r.instanceHourly(d.cassandraInstance()), hours), d.nodesPerDc())));
            long cassandraGb = (long) d.nodesPerDc() * d.cassandraVolumeGb();
            lines.add(new Line(Item.CASSANDRA_STORAGE, r.id(), cassandraGb,
                    Math.multiplyExact(r.storageMicrosPerGbMonth(), cassandraGb)));
            if (d.brokersPerDc() > 0) {
                lines.add(new Line(Item.BROKER_INSTANCES, r.id(), d.brokersPerDc(),
                        Math.multiplyExact(Math.multiplyExact(r.instanceHourly(d.brokerInstance()), hours), d.brokersPerDc())));
                long brokerGb = (long) d.brokersPerDc() * d.brokerVolumeGb();
                lines.add(new Line(Item.BROKER_STORAGE, r.id(), brokerGb,
                        Math.multiplyExact(r.storageMicrosPerGbMonth(), brokerGb)));
            }
            BigInteger bytesOut = BigInteger.valueOf(d.tradesPerMonth())
                    .multiply(BigInteger.valueOf(shares.get(i)))
                    .multiply(BigInteger.valueOf(d.bytesReplicatedPerTrade()))
                    .multiply(BigInteger.valueOf(d.dcs() - 1L));
            BigInteger shareTotal = BigInteger.valueOf(shareSum);
            long bytes = Usd.divideHalfUp(bytesOut, shareTotal);
            long micros = Usd.divideHalfUp(bytesOut.multiply(BigInteger.valueOf(r.transferOutMicrosPerGb())),
                    shareTotal.multiply(BYTES_PER_GB));
            lines.add(new Line(Item.TRANSFER, r.id(), bytes, micros));
        }
        return new Estimate(d, lines);
    }

    /**
     * The bytes per trade that make the given monthly transfer bill, rounded up to whole bytes:
     * how {@code bytes-replicated-per-trade} is derived from the prototype's $24.
     */
    public long bytesPerTradeFor(Deployment d, long transferMicros) {
        List<Long> shares = shares(d);
        long shareSum = shares.stream().mapToLong(Long::longValue).sum();
        BigInteger weightedPrice = BigInteger.ZERO;
        for (int i = 0; i < d.dcs(); i++) {
            weightedPrice = weightedPrice.add(BigInteger.valueOf(shares.get(i))
                    .multiply(BigInteger.valueOf(pricing.region(d.regions().get(i)).transferOutMicrosPerGb())));
        }
        BigInteger numerator = BigInteger.valueOf(transferMicros).multiply(BYTES_PER_GB).multiply(BigInteger.valueOf(shareSum));
        BigInteger denominator = BigInteger.valueOf(d.tradesPerMonth()).multiply(BigInteger.valueOf(d.dcs() - 1L))
                .multiply(weightedPrice);
        if (denominator.signum() == 0) {
            throw new IllegalArgumentException("one DC or no trades: nothing is replicated");
        }
        BigInteger[] qr = numerator.divideAndRemainder(denominator);
        return qr[0].longValueExact() + (qr[1].signum() > 0 ? 1 : 0);
    }

    private static List<Long> shares(Deployment d) {
        if (!d.tradeShares().isEmpty()) {
            return d.tradeShares();
        }
        List<Long> even = new ArrayList<>();
        for (int i = 0; i < d.dcs(); i++) {
            even.add(1L);
        }
        return even;
    }
}
