package io.geobroker.kafka;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.TopicExistsException;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import java.util.stream.Collectors;

/**
 * Makes sure every topic a service writes exists and its partition leaders accept writes before the
 * first record is sent: creates a missing topic (the broker's default partitions and replication),
 * then waits until the leader of every partition answers a ListOffsets request. The ticker service
 * waits for its ticker topics before it generates the first ticker; the broker waits for its fills,
 * order events and dead-letter topics before it sends the first fill or order event or dead-letters
 * the first ticker.
 *
 * <p>Why: with an idempotent producer, the first produce request to a partition the leader has not
 * yet applied from the metadata log fails with a retriable error, and a later request that arrives
 * after it has is appended; the broker (Kafka before 4.5, KAFKA-15591) then rejects every retry of
 * the first request as out of sequence until it expires. Those records fail after the producer's
 * delivery timeout: tickers would be lost (every symbol's sequence starting with a gap), a fill
 * would hold up its engine until it is sent again, and a poison ticker would not be dead-lettered. A leader that answers ListOffsets for the partition has
 * applied it, so the race cannot happen. It also means the service works where topic auto-creation
 * is off.
 *
 * <p>A Kafka that cannot be reached or refuses is retried (backing off from 100 ms to every second),
 * logged once it has failed for 10 s and then at most every 10 s, until it answers or the caller
 * stops waiting: the service stays up and starts writing late.
 */
public final class TopicReadiness {

    /** One topic and the Kafka of the region it is written to. */
    public record Target(String region, String bootstrap, String topic) {
    }

    private static final Logger LOG = LoggerFactory.getLogger(TopicReadiness.class);
    private static final long FIRST_RETRY_NANOS = TimeUnit.MILLISECONDS.toNanos(100);
    private static final long MAX_RETRY_NANOS = TimeUnit.SECONDS.toNanos(1);
    private static final long LOG_INTERVAL_NANOS = TimeUnit.SECONDS.toNanos(10);
    private static final long CALL_TIMEOUT_SECONDS = 10;

    private final String clientIdPrefix;
    private final List<Target> targets;

    /** {@code clientIdPrefix} names the admin clients in Kafka's logs, followed by the region. */
    public TopicReadiness(String clientIdPrefix, List<Target> targets) {
        this.clientIdPrefix = clientIdPrefix;
        this.targets = List.copyOf(targets);
    }

    /**
     * Returns true once every topic is writable, false if {@code stopped} became true first.
     * Topics of one region are checked with one admin client.
     */
    public boolean await(BooleanSupplier stopped) {
        Map<String, List<Target>> byBootstrap = targets.stream()
                .collect(Collectors.groupingBy(Target::bootstrap, LinkedHashMap::new, Collectors.toList()));
        for (List<Target> region : byBootstrap.values()) {
            if (!awaitRegion(region, stopped)) {
                return false;
            }
        }
        return true;
    }

    /**
     * Starts {@link #await} on a daemon thread named {@code threadName}, for a service that must not
     * wait at start but must wait before its first send ({@link Check#await}).
     */
    public Check inBackground(String threadName, BooleanSupplier stopped) {
        Check check = new Check();
        Thread thread = new Thread(() -> {
            try {
                check.writable = await(stopped);
            } finally {
                check.done.countDown();
            }
        }, threadName);
        thread.setDaemon(true);
        thread.start();
        return check;
    }

    /** A check running in the background. */
    public static final class Check {

        private final CountDownLatch done = new CountDownLatch(1);
        private volatile boolean writable;

        private Check() {
        }

        /** Whether the check has ended: every topic writable, or the caller stopped it. */
        public boolean isDone() {
            return done.getCount() == 0;
        }

        /** Waits until the check has ended; returns true if every topic is writable. */
        public boolean await() throws InterruptedException {
            done.await();
            return writable;
        }
    }

    private boolean awaitRegion(List<Target> region, BooleanSupplier stopped) {
        Target first = region.get(0);
        try (Admin admin = Admin.create(Map.of(
                AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, first.bootstrap(),
                AdminClientConfig.CLIENT_ID_CONFIG, clientIdPrefix + "-" + first.region(),
                // Short, so that a stop is noticed within seconds while a region's Kafka is unreachable.
                AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, 3_000,
                AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, 5_000,
                // With the default (rebootstrap), an admin client whose bootstrap servers refuse connections
                // logs "Rebootstrapping" at INFO some 300 times a second; this short-lived client has no
                // stale metadata to recover from.
                AdminClientConfig.METADATA_RECOVERY_STRATEGY_CONFIG, "none"))) {
            long lastLog = System.nanoTime();
            for (Target target : region) {
                long retryNanos = FIRST_RETRY_NANOS;
                while (true) {
                    if (stopped.getAsBoolean()) {
                        return false;
                    }
                    try {
                        int partitions = makeWritable(admin, target.topic());
                        LOG.info("Topic {} on the Kafka of region {} is writable ({} partition{})",
                                target.topic(), target.region(), partitions, partitions == 1 ? "" : "s");
                        break;
                    } catch (ExecutionException | TimeoutException e) {
                        Throwable cause = e instanceof ExecutionException && e.getCause() != null ? e.getCause() : e;
                        long now = System.nanoTime();
                        if (now - lastLog >= LOG_INTERVAL_NANOS) {
                            lastLog = now;
                            LOG.warn("Topic {} on the Kafka of region {} ({}) is not writable yet: {}; writing "
                                            + "starts when it is, retrying every second",
                                    target.topic(), target.region(), target.bootstrap(), cause.toString());
                        }
                        LockSupport.parkNanos(retryNanos);
                        retryNanos = Math.min(2 * retryNanos, MAX_RETRY_NANOS);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                        return false;
                    }
                }
            }
        }
        return true;
    }

    /** Creates the topic if it is missing and waits until every partition's leader answers; returns the partitions. */
    private static int makeWritable(Admin admin, String topic)
            throws ExecutionException, TimeoutException, InterruptedException {
        TopicDescription description;
        try {
            description = describe(admin, topic);
        } catch (ExecutionException e) {
            if (!(e.getCause() instanceof UnknownTopicOrPartitionException)) {
                throw e;
            }
            try {
                admin.createTopics(List.of(new NewTopic(topic, Optional.empty(), Optional.empty())))
                        .all().get(CALL_TIMEOUT_SECONDS, TimeUnit.SECONDS);
            } catch (ExecutionException created) {
                if (!(created.getCause() instanceof TopicExistsException)) {
                    throw created;
                }
            }
            description = describe(admin, topic);
        }
        Map<TopicPartition, OffsetSpec> latest = new LinkedHashMap<>();
        description.partitions().forEach(p -> latest.put(new TopicPartition(topic, p.partition()), OffsetSpec.latest()));
        admin.listOffsets(latest).all().get(CALL_TIMEOUT_SECONDS, TimeUnit.SECONDS);
        return latest.size();
    }

    private static TopicDescription describe(Admin admin, String topic)
            throws ExecutionException, TimeoutException, InterruptedException {
        return admin.describeTopics(List.of(topic)).allTopicNames().get(CALL_TIMEOUT_SECONDS, TimeUnit.SECONDS).get(topic);
    }
}
