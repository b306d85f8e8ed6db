package io.geobroker.loadgen.driver;

import io.geobroker.kafka.TopicReadiness;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;

import java.io.IOException;
import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Checks that a deployment can be driven before anything is created in it: every broker answers UP
 * and every region's Kafka has the fills and ticker topics (created with the cluster's defaults when
 * missing) and, when the load generator publishes the tickers itself, accepts writes to them.
 */
final class ReadinessCheck {

    private final Target target;
    private final Collection<BrokerClient> brokers;
    private final boolean publishesTickers;

    ReadinessCheck(Target target, Collection<BrokerClient> brokers, boolean publishesTickers) {
        this.target = target;
        this.brokers = brokers;
        this.publishesTickers = publishesTickers;
    }

    /** Waits until all is ready, or fails with a message naming what is missing once {@code timeout} has passed. */
    void await(Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        for (BrokerClient broker : brokers) {
            String last = "no answer";
            while (true) {
                try {
                    BrokerClient.Answer health = broker.health();
                    if (health.ok() && health.body() != null && "UP".equals(health.body().path("status").asText())) {
                        break;
                    }
                    last = health.describe() + (health.body() == null ? "" : " " + health.body().path("status").asText());
                } catch (IOException e) {
                    last = e.getClass().getSimpleName() + (e.getMessage() == null ? "" : ": " + e.getMessage());
                }
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException("broker of region " + broker.region() + " at " + broker.base()
                            + " is not ready after " + timeout.toSeconds() + " s (" + last + ")");
                }
                Thread.sleep(500);
            }
        }
        for (Target.RegionTarget r : target.regions()) {
            Set<String> wanted = new TreeSet<>();
            wanted.add(target.topics().fills());
            for (String exchange : r.region().exchanges()) {
                wanted.add(target.topics().tickers(exchange));
            }
            long remainingMillis = Math.max(1_000, (deadline - System.nanoTime()) / 1_000_000);
            Properties p = new Properties();
            p.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, r.kafkaBootstrap());
            p.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, (int) Math.min(5_000, remainingMillis));
            p.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, (int) Math.min(30_000, remainingMillis));
            try (Admin admin = Admin.create(p)) {
                Set<String> existing = admin.listTopics().names().get(remainingMillis, TimeUnit.MILLISECONDS);
                Set<String> missing = new TreeSet<>(wanted);
                missing.removeAll(existing);
                if (!missing.isEmpty()) {
                    // A fresh deployment creates these with its first fill or ticker, with the cluster's
                    // defaults; creating them now the same way lets the fill readers subscribe first.
                    System.err.println("Creating topic(s) " + missing + " on the Kafka of region " + r.name()
                            + " with the cluster's default partitions and replication");
                    admin.createTopics(missing.stream().map(t -> new NewTopic(t, Optional.empty(), Optional.empty())).toList())
                            .all().get(remainingMillis, TimeUnit.MILLISECONDS);
                }
            } catch (ExecutionException | TimeoutException e) {
                Throwable cause = e.getCause() == null ? e : e.getCause();
                throw new IllegalStateException("Kafka of region " + r.name() + " at " + r.kafkaBootstrap()
                        + " is not reachable or refused: " + cause.getClass().getSimpleName()
                        + (cause.getMessage() == null ? "" : " (" + cause.getMessage() + ")"));
            }
            if (publishesTickers) {
                awaitWritable(r, wanted, deadline, timeout);
            }
        }
    }

    /**
     * The load generator's own ticker producer is idempotent: its first record to a partition whose
     * leader has not applied the topic yet (one created moments ago) can be refused until it expires
     * (see {@link TopicReadiness}), losing tickers of the run. Waits until every partition's leader
     * answers, within the same deadline.
     */
    private static void awaitWritable(Target.RegionTarget r, Set<String> topics, long deadline, Duration timeout) {
        List<TopicReadiness.Target> targets = topics.stream()
                .map(t -> new TopicReadiness.Target(r.name(), r.kafkaBootstrap(), t)).toList();
        if (!new TopicReadiness("loadgen", targets).await(() -> System.nanoTime() > deadline)) {
            throw new IllegalStateException("topics " + topics + " on the Kafka of region " + r.name() + " at "
                    + r.kafkaBootstrap() + " were not writable after " + timeout.toSeconds() + " s");
        }
    }
}
