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
        @DefaultValue Web web,
        @DefaultValue CrossRegion crossRegion,
        @DefaultValue Placement placement,
        @DefaultValue Fix fix) {

    /** Cassandra keyspace and request timeout; contact points and local DC come from the topology. */
    public record Cassandra(
            @DefaultValue("geobroker") String keyspace,
            /* Remote-DC mode: the region whose Cassandra DC (contact points and local DC) the broker
               uses. Empty = its own region's DC, the only sensible production setting: any other
               puts the WAN under every read and write (the prototype's local-versus-remote experiment). */
            @DefaultValue("") String dataCenterRegion,
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
            @DefaultValue("500") int maxPollRecords,
            /* Least time between two commits of the ticker offsets the engine has made durable. Every
               commit is a request and a write to __consumer_offsets; a later commit covers the earlier
               offsets, and tickers after the committed offset are read again after a restart and
               recognised as replays, so a longer interval only means more of them are read again. */
            @DefaultValue("250ms") Duration offsetCommitInterval,
            /* Longest time between two polls of the ticker consumer before the group takes its
               partitions away (Kafka's max.poll.interval.ms). The consumer waits while the engine's
               queue is full, i.e. while Cassandra does not answer; it rejoins afterwards. */
            @DefaultValue("5m") Duration maxPollInterval) {
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
            /* Row deletions in one generation of a symbol's resting orders before it moves to the next.
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
            @DefaultValue("1s") Duration expiryInterval,
            /* Least time from one group commit's start to the next: commands arriving meanwhile join
               the next group. Every batch costs a fixed amount of work whatever its size (Cassandra in
               both DCs, the fills' Kafka request, the wake-ups; ~1 ms of CPU on the local stack,
               docs/results.md, 279d8e2), so a longer interval means fewer, larger batches (less CPU)
               and a longer wait for the command that opens a group (up to the interval, half of it on
               average); 0 commits as soon as the previous batch is durable, which at moderate load
               lets the commits per second, and their CPU, grow until the machine is saturated. 10 ms
               bounds a region to 100 commits a second and costs nothing when commands are further
               apart. */
            @DefaultValue("10ms") Duration commitInterval,
            /* Least time from one group commit's start to the next when the group holds a fill: a
               ticker that fills an order (or a market order filled at once) does not wait out the
               commit interval, only this. The fills are what the customer waits for; the groups
               without one (resting placements, tickers that change no order) keep the longer
               interval, so the commits a second grow only with the groups that fill. At or above
               the commit interval, a fill waits like everything else. */
            @DefaultValue("2ms") Duration fillCommitInterval,
            /* Groups whose log-slot writes may be under way at once (1 to 64): the engine builds and
               writes the next group while Cassandra answers, and each group is answered, published
               and its offsets committed only once it and every group before it are durable. With
               writes shorter than the commit interval (a local DC) at most one is under way; where a
               write takes longer (a remote DC in another region, a busy node) the commits a second
               stay at one per interval instead of one per write. 1 waits for each write before the
               next starts (one group built meanwhile). */
            @DefaultValue("32") int groupsInFlight,
            /* Longest time a symbol's latest quote waits to be written when its tickers change no
               order (a ticker that fills or triggers something is written with its group). Shorter
               keeps the quotes other regions and the REST API read fresher; each write is one more
               Cassandra mutation replicated to every DC, and most tickers fill nothing. 0 writes
               every ticker's quote with its group. */
            @DefaultValue("1s") Duration quotePersistInterval,
            /* How often the symbols' rows (symbol_state, symbol_orders, symbol_fills) logged by the
               group commits since the last time are written to their tables, coalesced: each symbol's
               partition once per interval instead of once per group. Longer writes less (a row
               overwritten or deleted within it is not written at all) and leaves more to write again
               at a start; only the engine reads these tables, at start, and quotes lag by up to it. */
            @DefaultValue("500ms") Duration projectionInterval,
            /* Batches of a projection round under way at once. A round sends its batches (each up
               to max-batch-bytes) this many at a time, so that a group commit's log slot written
               meanwhile waits for at most this many batches at the node, not for the whole round;
               more finishes a round sooner when the node has cores to spare. */
            @DefaultValue("1") int projectionBatchesInFlight,
            /* Fewest symbols a group's symbol rows must touch to go through the engine log. A log slot
               is a partition (a mutation) itself, so a group that changes one symbol saves nothing
               by it and writes that symbol's rows directly; 1 logs every group's. */
            @DefaultValue("2") int minLoggedSymbols,
            /* Whether a group's customers' rows (orders, cash, holdings, transactions) go through the
               engine log with its symbols' rows: the group is then one single-partition write (no
               batch log, one mutation to replicate) and each customer's partition is written once a
               projection round, whatever its changes in the round. This region's reads of a customer
               with changes not projected yet wait for them (a round started at once); other regions
               see them later by up to the projection interval (the default, true). false writes
               them with the group's slot in one logged batch, as min-logged-symbols says. */
            @DefaultValue("true") boolean logCustomerRows,
            /* The keyspace whose engine_log table holds the region's engine log. Empty (the
               default): the own keyspace of the DC the broker uses (schema V014), replicated to that
               DC only, since only this engine reads its log, at start, there. The broker's own
               keyspace puts it where V011 did, replicated to every DC: each group commit is then a
               mutation every other DC receives over the WAN and applies. */
            @DefaultValue("") String logKeyspace) {
    }

    /** Secrets for operators and peer brokers; customer tokens live (hashed) in Cassandra. */
    public record Security(
            @DefaultValue("") String adminToken,
            @DefaultValue("") String peerToken) {
    }

    /** Orders placed in one region for another region's symbols (issue 4, README "Cross-region"). */
    public record CrossRegion(
            /* How often the home broker reads the tail of its order inbox. Shorter makes an order
               placed elsewhere matchable sooner (replication + half this), at one small read each. */
            @DefaultValue("250ms") Duration inboxPollInterval,
            /* How far behind "now" each tail read starts, so rows that replicate out of placement
               order (different regions, different delays) are still seen: above the largest one-way
               delay between regions. */
            @DefaultValue("1s") Duration inboxTailMargin,
            /* How often the whole recent inbox (sweepWindow) is read for rows the tail missed: rows
               that arrived late because a region was cut off and its writes came back as hints. */
            @DefaultValue("15s") Duration inboxSweepInterval,
            /* How far back a sweep (and the sweep at start) reads. An outage longer than this needs a
               repair and a broker restart with a longer window. */
            @DefaultValue("10m") Duration inboxSweepWindow,
            /* Connecting to a peer broker. */
            @DefaultValue("1s") Duration peerConnectTimeout,
            /* A forwarded call's answer (one WAN round trip plus the home's group commit); for a
               market order, how long the home may take to take it (its engine refuses it after). */
            @DefaultValue("1200ms") Duration peerRequestTimeout,
            /* How much longer than peerRequestTimeout a forwarded market order's answer is awaited:
               an order the home took just before the deadline is still committed there and answered
               back across the WAN. Without it, an order executed at 1.1 s and answered at 1.3 s was
               a 503 to the customer. After both, the answer is 503 (outcome unknown: repeat it). */
            @DefaultValue("1s") Duration peerAnswerGrace,
            /* Connections to each peer kept open and warm, so a forwarded order costs one round trip
               and not a TCP handshake first. */
            @DefaultValue("8") int peerWarmConnections,
            /* How often the warm connections are used, below the peers' keep-alive timeout. */
            @DefaultValue("20s") Duration peerKeepWarmInterval,
            /* Announcement requests to one peer at a time; orders placed while they are all under
               way go together in the next one. More sends each order sooner (up to one request per
               order, each a request for both brokers to handle); fewer waits longer for a free one
               (at most a WAN round trip) and sends more orders per request. */
            @DefaultValue("4") int peerAnnouncementsInFlight,
            /* How often each peer's liveness is asked, to notice a cut link and its return. */
            @DefaultValue("1s") Duration linkProbeInterval,
            /* The engine's batches kept to be written again after a cut link comes back: this long
               before the cut was noticed (two probes without an answer: 2-5 s) and all of them
               after it. Longer keeps more of the heap (at the default load ~20 batches/s of ~90
               statements per region). */
            @DefaultValue("10s") Duration resendWindow,
            /* Bound on the bytes so kept; during a longer cut the oldest are left to Cassandra's
               hints (0: nothing kept, nothing written again). */
            @DefaultValue("67108864") long resendMaxBytes) {
    }

    /** A placement's check for an earlier order of its client order id ({@code order.KnownOrderIds}). */
    public record Placement(
            /* How long a customer's placing regions are trusted before they are read again. While only
               this region places the customer's orders, a new client order id needs no read of
               customer_orders; a repeat placed here of an order placed through another region within
               this time (plus the replication) of that region's first placement of the customer is
               taken as new and left to the order's home, as a repeat within the replication window
               is. Shorter: one small read per active customer this often. 0: every placement reads. */
            @DefaultValue("1s") Duration placingRegionsRefresh,
            /* Order ids kept in memory over all customers (~72 bytes each); the least recently placing
               customers' are read again at their next placement. A customer with more than a quarter
               of this is read at every placement. */
            @DefaultValue("500000") int knownOrderIds) {
    }

    /** HTTP request limits. */
    public record Web(
            /* Largest accepted request body; larger ones get 413 before they are parsed. */
            @DefaultValue("16384") int maxBodyBytes,
            /* Largest accepted body of a day-trading batch (up to 1,000 workload lines). */
            @DefaultValue("1048576") int maxBatchBodyBytes) {
    }

    /** The FIX 4.4 order entry (one acceptor per broker, customers as initiators). */
    public record Fix(
            /* Whether the broker accepts FIX sessions at all. */
            @DefaultValue("true") boolean enabled,
            /* The acceptor's TCP port, on the HTTP listener's bind address. */
            @DefaultValue("9878") int port,
            /* The broker's CompID: a client's TargetCompID; its SenderCompID is its customer id. */
            @DefaultValue("GEOBROKER") String compId,
            /* Where each session's sequence numbers and sent messages are kept (written through to
               disk), so that a restart resends what a client missed. Must survive restarts: a
               persistent volume in Kubernetes, the instance's disk in the Terraform deployment. */
            @DefaultValue("fix-store") String storeDirectory,
            /* Whether every stored message and sequence number is forced to disk (fsync) before the
               next step. Off, the store survives the broker's process dying at any point (the
               operating system holds what was written), not the machine failing: the same promise
               as Cassandra's periodic commit log. On costs a disk flush per message. */
            @DefaultValue("false") boolean storeSync,
            /* How many of a session's last sent messages are read at start to recognise fills that
               were already reported (the fills consumer may read the last poll again after a crash). */
            @DefaultValue("100000") int rememberedReports,
            /* The regions whose fills topics are read for trade reports (their Kafka must be
               reachable from this broker). Empty: every region of the topology, so a FIX client
               also hears of its orders in other regions' symbols. */
            @DefaultValue("") java.util.List<String> fillRegions) {
    }
}
