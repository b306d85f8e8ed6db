package io.geobroker.loadgen.chaos;

import io.geobroker.loadgen.WorkloadOptions;
import picocli.CommandLine.Option;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/** The demo's options for {@code --scenario chaos}; ignored by the other scenarios. */
public final class ChaosOptions {

    @Option(names = "--faults", defaultValue = "cassandra,kafka,broker,wan", split = ",",
            description = "chaos: the faults to run, always in this order: cassandra (one node per DC killed, DC by DC), "
                    + "kafka, broker, wan (only with the emulated WAN on). Default: ${DEFAULT-VALUE}.")
    List<String> faults = new ArrayList<>();

    @Option(names = "--fault-regions", split = ",", description = "chaos: the regions whose processes are hurt: "
            + "Cassandra in each in turn, Kafka in the first, brokers picked at random among them. Default: every region.")
    List<String> regions = new ArrayList<>();

    @Option(names = "--cassandra-down", defaultValue = "20s", converter = WorkloadOptions.DurationConverter.class,
            description = "chaos: how long a Cassandra node stays killed before it is started again. Default: ${DEFAULT-VALUE}.")
    Duration cassandraDown;

    @Option(names = "--kafka-down", defaultValue = "5s", converter = WorkloadOptions.DurationConverter.class,
            description = "chaos: how long the Kafka broker stays killed. Default: ${DEFAULT-VALUE}.")
    Duration kafkaDown;

    @Option(names = "--broker-kills", defaultValue = "3",
            description = "chaos: how many times a broker is SIGKILLed and started again at once. Default: ${DEFAULT-VALUE}.")
    int brokerKills;

    @Option(names = "--wan-cut", defaultValue = "20s", converter = WorkloadOptions.DurationConverter.class,
            description = "chaos: how long the link between the first two regions stays cut. Default: ${DEFAULT-VALUE}.")
    Duration wanCut;

    @Option(names = "--fault-gap", defaultValue = "15s", converter = WorkloadOptions.DurationConverter.class,
            description = "chaos: recovery gap after each fault (broker kills: 0.5 to 1.5 gaps apart, at random). "
                    + "Default: ${DEFAULT-VALUE}.")
    Duration gap;

    @Option(names = "--serve-timeout", defaultValue = "120s", converter = WorkloadOptions.DurationConverter.class,
            description = "chaos: bound on a restart and on the wait until the region serves again. Default: ${DEFAULT-VALUE}.")
    Duration serveTimeout;

    @Option(names = "--converge-timeout", defaultValue = "60s", converter = WorkloadOptions.DurationConverter.class,
            description = "chaos: bound on the wait after the run until every invariant holds. Default: ${DEFAULT-VALUE}.")
    Duration convergeTimeout;

    /** The schedule these options ask for; {@code regions} are the deployment's, to check the names against. */
    public ChaosPlan plan(List<String> deploymentRegions, long seed) {
        Set<ChaosPlan.Kind> kinds = new LinkedHashSet<>();
        for (String f : faults) {
            kinds.add(ChaosPlan.Kind.parse(f));
        }
        for (String r : regions) {
            if (!deploymentRegions.contains(r)) {
                throw new IllegalArgumentException("--fault-regions: no region '" + r + "' (the regions: "
                        + String.join(", ", deploymentRegions) + ")");
            }
        }
        return new ChaosPlan(kinds, regions, cassandraDown, kafkaDown, brokerKills, wanCut, gap, serveTimeout,
                convergeTimeout, seed);
    }
}
