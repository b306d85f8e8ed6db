package io.geobroker.broker.config;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

import java.time.Duration;

/**
 * The broker's own settings ({@code geobroker.*}); the deployment's regions come from the topology
 * ({@code geobroker.topology.*}, see {@link io.geobroker.domain.Topology}). Every default can be
 * overridden with an environment variable named in {@code application.yml}.
 */
@ConfigurationProperties("geobroker")
public record BrokerProperties(
        /* The region this broker serves; must be one of the topology's regions. */
        String region,
        @DefaultValue Cassandra cassandra,
        @DefaultValue Kafka kafka,
        @DefaultValue Engine engine,
        @DefaultValue Security security,
        @DefaultValue Web web) {

    /** Cassandra keyspace and request timeout; contact points and local DC come from the topology. */
    public record Cassandra(
            @DefaultValue("geobroker") String keyspace,
            /* How long one request may take before the driver gives up. Longer rides out GC pauses of
               a loaded node; shorter frees a stuck engine group sooner for its retry. */
            @DefaultValue("5s") Duration requestTimeout) {
    }

    /** Kafka client settings; the bootstrap servers are the region's, from the topology. */
    public record Kafka(
            /* Prepended to every topic name and the consumer group (isolates test data sets). */
            @DefaultValue("") String topicPrefix,
            /* Producer linger: 0 publishes each fill at once (lowest latency); a few ms batches more
               fills per request when the fill rate is high. */
            @DefaultValue("0") int lingerMs,
            /* Most records one poll returns: larger polls amortise overhead, smaller keeps the engine
               queue shallow and latency even. */
            @DefaultValue("500") int maxPollRecords) {
    }

    /** The single-threaded engine and its group commit. */
    public record Engine(
            /* Most commands applied before one durable batch. Larger groups cost fewer Cassandra round
               trips per command (throughput) but each command waits for the whole group (latency),
               and the logged batch must stay under Cassandra's batch_size_fail_threshold. */
            @DefaultValue("32") int maxGroupCommands,
            /* Stop adding commands to a group at this many CQL statements: keeps ordinary groups well
               under max-batch-bytes (a fill writes about seven statements of ~100-250 bytes). */
            @DefaultValue("120") int maxGroupStatements,
            /* Largest batch written atomically, in serialized bytes; must stay below Cassandra's
               batch_size_fail_threshold (50 KiB by default). A group above it (a ticker with very
               many fills) is written in several batches and loses its atomicity. */
            @DefaultValue("40960") int maxBatchBytes,
            /* Row deletions in one open_orders partition before the symbol moves to a new generation.
               Lower keeps start-up reads cleaner of tombstones but copies the live orders more often. */
            @DefaultValue("100") int deletionsPerGeneration,
            /* Commands that may wait for the engine. A full queue blocks the ticker consumer and makes
               REST calls wait, instead of growing the heap. */
            @DefaultValue("65536") int queueCapacity,
            /* A BUY STOP reserves cash and never pays more than its stop price plus this margin, in
               basis points (stop with protection). Wider fills more often in a fast market but
               reserves more cash. */
            @DefaultValue("500") int stopProtectionBps,
            /* How long a REST call waits for its command to become durable before answering 503. */
            @DefaultValue("10s") Duration commandTimeout,
            /* How often the idle engine checks DAY orders for expiry. */
            @DefaultValue("1s") Duration expiryInterval) {
    }

    /** Secrets for operators and peer brokers; customer tokens live (hashed) in Cassandra. */
    public record Security(
            @DefaultValue("") String adminToken,
            @DefaultValue("") String peerToken) {
    }

    /** HTTP request limits. */
    public record Web(
            /* Largest accepted request body; larger ones get 413 before they are parsed. */
            @DefaultValue("16384") int maxBodyBytes) {
    }
}
