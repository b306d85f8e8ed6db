package io.geobroker.loadgen.chaos;

import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * The chaos scenario's schedule: which faults, in this order (each after the one before has been
 * served again and {@code gap} has passed), how long each lasts, and how long the run may wait for
 * the regions to agree afterwards.
 *
 * @param faults          of {@link Kind}, run in the kinds' order
 * @param regions         the regions whose processes are hurt (empty: every region)
 * @param cassandraDown   how long one Cassandra node per DC stays killed (each DC in turn)
 * @param kafkaDown       how long the region's Kafka broker stays killed
 * @param brokerKills     how many times a broker is SIGKILLed and restarted at once
 * @param wanCut          how long the link between the first two regions stays cut
 * @param gap             the recovery gap after each fault; broker kills come at random moments
 *                        between half and one and a half gaps apart
 * @param serveTimeout    bound on a restart and on the wait until the region serves again
 * @param convergeTimeout bound on the wait after the run until every invariant holds
 */
public record ChaosPlan(Set<Kind> faults, List<String> regions, Duration cassandraDown, Duration kafkaDown,
                        int brokerKills, Duration wanCut, Duration gap, Duration serveTimeout, Duration convergeTimeout,
                        long seed) {

    /** The faults, in the order they run. */
    public enum Kind {
        CASSANDRA, KAFKA, BROKER, WAN;

        public String label() {
            return name().toLowerCase(Locale.ROOT);
        }

        public static Kind parse(String value) {
            for (Kind k : values()) {
                if (k.label().equals(value.trim().toLowerCase(Locale.ROOT))) {
                    return k;
                }
            }
            throw new IllegalArgumentException("'" + value + "' is not a fault: cassandra, kafka, broker or wan");
        }
    }

    /**
     * About what a restart and the wait for serving again took on the build machine (loaded: 7-11 s
     * for a Cassandra node, 13-15 s for Kafka, 12 s for a broker), for {@link #estimatedLength}.
     */
    static final Duration CASSANDRA_RESTART = Duration.ofSeconds(12);
    static final Duration KAFKA_RESTART = Duration.ofSeconds(15);
    static final Duration BROKER_RESTART = Duration.ofSeconds(15);

    public ChaosPlan {
        faults = Set.copyOf(faults);
        regions = List.copyOf(regions);
        for (Duration d : List.of(cassandraDown, kafkaDown, wanCut, gap, serveTimeout, convergeTimeout)) {
            if (d.isNegative()) {
                throw new IllegalArgumentException("the chaos durations must not be negative");
            }
        }
        if (brokerKills < 0) {
            throw new IllegalArgumentException("--broker-kills must not be negative");
        }
        if (serveTimeout.isZero() || convergeTimeout.isZero()) {
            throw new IllegalArgumentException("--serve-timeout and --converge-timeout must be positive");
        }
    }

    public boolean has(Kind kind) {
        return faults.contains(kind);
    }

    /**
     * About how long the schedule runs in a deployment of {@code regionCount} regions (the measured
     * phase is made at least this long, so that every fault happens under load).
     */
    public Duration estimatedLength(int regionCount, boolean wan) {
        int hurt = regions.isEmpty() ? regionCount : regions.size();
        Duration total = Duration.ZERO;
        if (has(Kind.CASSANDRA)) {
            total = total.plus(cassandraDown.plus(CASSANDRA_RESTART).plus(gap).multipliedBy(hurt));
        }
        if (has(Kind.KAFKA)) {
            total = total.plus(kafkaDown).plus(KAFKA_RESTART).plus(gap);
        }
        if (has(Kind.BROKER)) {
            total = total.plus(BROKER_RESTART.plus(gap).multipliedBy(brokerKills));
        }
        if (has(Kind.WAN) && wan) {
            total = total.plus(wanCut).plus(gap).plus(gap);
        }
        return total;
    }
}
