package io.geobroker.loadgen.calc;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;

/**
 * Cassandra CPU load and write amplification per DC. A DC's nodes pay for their own reads and
 * writes and, because every DC holds a full replica set, for the writes of every other DC too:
 * at the reference load that is {@code read% + write% + replicated% x (N - 1)} per node, i.e.
 * 20 + 20 x N % with the prototype's coefficients (40 % for 1 DC, 180 % for 8). Other loads scale
 * linearly; more nodes than replicas spread the work ({@code x RF / nodes}); an instance type
 * with more vCPUs than the reference's 2 divides it.
 */
public final class LoadModel {

    /** Measured or assumed operations per second of one DC, in thousandths (milli-ops/s). */
    public record DcRates(String region, long readsMilliPerSecond, long writesMilliPerSecond) {
    }

    /** One DC's outcome: CPU percent of each Cassandra node and the writes it applies per second. */
    public record DcLoad(String region, int cpuPercent, long localWritesMilliPerSecond,
                         long replicatedWritesMilliPerSecond) {
    }

    private static final int REFERENCE_VCPUS = 2;

    private final Pricing pricing;

    public LoadModel(Pricing pricing) {
        this.pricing = pricing;
    }

    /** Every DC of the deployment at the price list's reference load. */
    public List<DcLoad> atReference(Deployment d) {
        return at(d, uniform(d, pricing.cpu().referenceReadsPerSecond() * 1000, pricing.cpu().referenceWritesPerSecond() * 1000));
    }

    /** Every DC of the deployment with the same given rates (e.g. a load report's per-region average). */
    public static List<DcRates> uniform(Deployment d, long readsMilli, long writesMilli) {
        List<DcRates> rates = new ArrayList<>();
        for (String region : d.regions()) {
            rates.add(new DcRates(region, readsMilli, writesMilli));
        }
        return rates;
    }

    public List<DcLoad> at(Deployment d, List<DcRates> rates) {
        if (rates.size() != d.dcs()) {
            throw new IllegalArgumentException("need the rates of each of the " + d.dcs() + " DCs");
        }
        Pricing.CpuModel cpu = pricing.cpu();
        long totalWrites = rates.stream().mapToLong(DcRates::writesMilliPerSecond).sum();
        BigInteger refR = BigInteger.valueOf(cpu.referenceReadsPerSecond() * 1000);
        BigInteger refW = BigInteger.valueOf(cpu.referenceWritesPerSecond() * 1000);
        int vcpus = pricing.vcpusOf(d.cassandraInstance());
        List<DcLoad> loads = new ArrayList<>();
        for (DcRates r : rates) {
            long replicated = totalWrites - r.writesMilliPerSecond();
            // percent = (read% * reads / refR + write% * writes / refW + repl% * replicated / refW)
            //           * RF / nodes * 2 / vcpus, computed over a common denominator and rounded half up.
            BigInteger numerator = BigInteger.valueOf(cpu.localReadPercent()).multiply(BigInteger.valueOf(r.readsMilliPerSecond())).multiply(refW)
                    .add(BigInteger.valueOf(cpu.localWritePercent()).multiply(BigInteger.valueOf(r.writesMilliPerSecond())).multiply(refR))
                    .add(BigInteger.valueOf(cpu.replicatedWritePercentPerDc()).multiply(BigInteger.valueOf(replicated)).multiply(refR))
                    .multiply(BigInteger.valueOf((long) d.effectiveReplicationFactor() * REFERENCE_VCPUS));
            BigInteger denominator = refR.multiply(refW).multiply(BigInteger.valueOf((long) d.nodesPerDc() * vcpus));
            int percent = Math.toIntExact(Usd.divideHalfUp(numerator, denominator));
            loads.add(new DcLoad(r.region(), percent, r.writesMilliPerSecond(), replicated));
        }
        return loads;
    }

    /** Copies of every written row across the deployment: RF in each DC. */
    public static int storedCopiesPerWrite(Deployment d) {
        return d.effectiveReplicationFactor() * d.dcs();
    }
}
