package io.geobroker.broker.matching;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.DefaultConsistencyLevel;
import com.datastax.oss.driver.api.core.cql.BatchStatement;
import com.datastax.oss.driver.api.core.cql.BatchType;
import com.datastax.oss.driver.api.core.cql.BoundStatement;
import com.datastax.oss.driver.api.core.cql.PreparedStatement;
import com.datastax.oss.driver.api.core.metadata.Node;
import com.datastax.oss.driver.api.core.metadata.NodeState;
import io.geobroker.broker.config.BrokerProperties;
import io.geobroker.broker.config.CassandraConfiguration;
import io.geobroker.broker.routing.PeerClient;
import io.geobroker.domain.Topology;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;
import org.springframework.stereotype.Component;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.LongAccumulator;
import java.util.function.Function;

/**
 * Brings the other regions' DCs up to date with this engine's writes as soon as a cut link is back,
 * instead of when Cassandra's hints arrive. A replica in another DC that misses writes during a cut
 * gets them from the coordinator's hints, but a node looks for hints to send only every 10 s (fixed
 * in Cassandra 5.0), and hints still being written wait for the check after the one that closes their
 * file: 10-20 s after the link is back, and more with Cassandra's delivery throttle.
 *
 * <p>So the engine keeps its confirmed batches of the last {@code resendWindow} ({@link RecentWrites}),
 * the rows of the tables other regions read: those only the home region reads are left to the hints.
 * Every {@code linkProbeInterval} this asks each peer broker's liveness and looks at how the driver
 * sees the other DCs' nodes (Cassandra's own view, from its gossip). Two probes in a row without an
 * answer in time, or another DC with a majority of its nodes down (its only node, at one node per
 * DC), is a cut: from then on every batch is kept, and the peers are probed every
 * {@link #CUT_PROBE_INTERVAL} without waiting for the probes before. Once every peer has answered (or
 * refused: its host is reachable) a probe sent since the cut was noticed and no other DC has lost its
 * majority, the kept batches are written again at their own
 * write timestamps on a thread of their own: the latest until every DC acknowledged it
 * (EACH_QUORUM), which tells that Cassandra's connection to them carries messages again, then the
 * others, including those written until then, at EACH_QUORUM too (so a LOCAL_QUORUM read in any DC
 * sees them), what was not acknowledged again a few times. The others are not written batch by
 * batch but partition by partition, each statement at its own group's timestamp ({@link ResendPlan}):
 * a few dozen mutations for the replicas to apply instead of thousands.
 * That is safe because every engine write carries absolute values at its group's timestamp: a row
 * written again is written identically, and anything written later (a later group, a deletion) has
 * a later timestamp and still wins. A peer broker that restarts is refused, not timed out, so it is
 * not taken for a cut.
 */
@Component
public class HealResend implements SmartLifecycle {

    private static final Logger log = LoggerFactory.getLogger(HealResend.class);
    /** Probes without an answer in a row that make a cut. */
    static final int MISSES_FOR_A_CUT = 2;
    /**
     * Batches written again at a time (each waits for a quorum in every DC: a WAN round trip). At
     * three nodes per DC after a 20 s cut, 256 wrote ~1,000 engine batches one by one in 3.0-5.2 s
     * where 64 took 5.8-9.4 s; partition by partition they are a few dozen.
     */
    private static final int IN_FLIGHT = 256;
    /**
     * Tables only the home region's engine reads, at LOCAL_QUORUM in its own DC: a symbol's state,
     * open orders and fills, the engine's log and journal. After a cut the other DCs get their rows
     * from Cassandra's hints; only what the other regions read is written again (a customer's orders,
     * books and ledger, the inbox).
     */
    static final Set<String> HOME_ONLY_TABLES = Set.of("symbol_state", "symbol_orders", "symbol_fills", "engine_log",
            "engine_journal");
    /**
     * Rounds of writing again what was not acknowledged before it is left to Cassandra's hints; no
     * round starts later than {@link #PROBE_DEADLINE} after the first.
     */
    static final int RESEND_ROUNDS = 8;
    /** How soon the first batch is written again when the other DCs did not acknowledge it. */
    static final java.time.Duration PROBE_RETRY = java.time.Duration.ofMillis(250);
    /** How long the first batch is written again before the cut's batches are left to Cassandra's hints. */
    static final java.time.Duration PROBE_DEADLINE = java.time.Duration.ofSeconds(60);
    /**
     * How often the peers are probed while a cut lasts, each probe without waiting for the earlier
     * ones. A round that waited for its probes took the request timeout (1.2 s) plus the probe
     * interval (1 s) while the link was down, so a link back was noticed up to 2.2 s (and a round
     * trip) late: 1.0-3.6 s after a 60 s cut healed at three nodes per DC (docs/results.md).
     */
    static final java.time.Duration CUT_PROBE_INTERVAL = java.time.Duration.ofMillis(250);

    private final CqlSession session;
    private final PeerClient peers;
    private final String localDataCenter;
    private final BrokerProperties.CrossRegion config;
    private final RecentWrites<KeptStatement> recent;
    private final Counter resentBatches;
    /** Each kept statement's form with its own write timestamp. */
    private final TimestampedForms forms;
    private final ResendPlan<BoundStatement> plan = new ResendPlan<>(new ResendPlan.Form<>() {
        @Override
        public BoundStatement at(BoundStatement statement, long timestampMicros) {
            return forms.at(statement, timestampMicros);
        }

        @Override
        public Object partition(BoundStatement statement) {
            ByteBuffer key = statement.getRoutingKey();
            return key != null ? key : statement;
        }

        @Override
        public long bytes(BoundStatement statement) {
            return bytesHeld(List.of(statement));
        }

        @Override
        public Object row(BoundStatement statement) {
            return forms.row(statement);
        }

        @Override
        public long cells(BoundStatement statement) {
            return forms.cells(statement);
        }
    }, BatchWriter.SPLIT_BATCH_BYTES);
    /** The table of each prepared statement kept so far. */
    private final Map<PreparedStatement, String> tables = new ConcurrentHashMap<>();
    private final Map<String, Integer> misses = new HashMap<>();
    /** Per peer region, when the latest probe it answered (or refused) was sent (System.nanoTime()). */
    private final Map<String, Long> answeredSentAt = new ConcurrentHashMap<>();
    /** When the current cut was noticed (System.nanoTime()); only probes sent since can end it. */
    private volatile long cutNoticedNanos;
    private ScheduledExecutorService timer;
    private volatile boolean running;
    private volatile long cutSinceMillis = -1;
    private volatile long lastHealMillis = -1;
    private volatile long lastCutSinceMillis = -1;
    private String cutReason = "";

    public HealResend(CqlSession session, PeerClient peers, Topology topology, Topology.RegionEndpoints localRegion,
                      BrokerProperties properties, MeterRegistry meters) {
        this.session = session;
        this.forms = new TimestampedForms(session);
        this.peers = peers;
        this.config = properties.crossRegion();
        this.localDataCenter = CassandraConfiguration.dataRegion(topology, localRegion,
                properties.cassandra().dataCenterRegion()).dataCenter();
        this.recent = new RecentWrites<>(config.resendWindow().toMillis(), config.resendMaxBytes());
        this.resentBatches = Counter.builder("geobroker.engine.resent.batches")
                .description("Engine batches written again after a cut link to another region came back")
                .register(meters);
        io.micrometer.core.instrument.Gauge.builder("geobroker.link.cut", () -> cutSinceMillis >= 0 ? 1 : 0)
                .description("1 while a cut link to another region is noticed (its writes kept to be sent again), else 0")
                .register(meters);
    }

    /**
     * Keeps a batch Cassandra confirmed, to be written again after a cut: the engine's, less the rows
     * of the tables only the home region reads ({@link #HOME_ONLY_TABLES}).
     */
    public void confirmed(List<BoundStatement> statements, long timestampMicros) {
        List<BoundStatement> shared = sharedRows(statements, this::table);
        if (!shared.isEmpty()) {
            List<KeptStatement> kept = KeptStatement.of(shared);
            recent.add(System.currentTimeMillis(), timestampMicros, kept, KeptStatement.bytes(kept));
        }
    }

    /** {@link #confirmed} for statements packed already (the projection's). */
    public void confirmedKept(List<KeptStatement> statements, long timestampMicros) {
        List<KeptStatement> shared = sharedRows(statements, k -> table(k.prepared()));
        if (!shared.isEmpty()) {
            recent.add(System.currentTimeMillis(), timestampMicros, shared, KeptStatement.bytes(shared));
        }
    }

    /**
     * The statements that write rows other regions read, in order: those of {@link #HOME_ONLY_TABLES}
     * left out ({@code statements} itself when there are none).
     */
    static <T> List<T> sharedRows(List<T> statements, Function<T, String> table) {
        List<T> shared = null;
        for (int i = 0; i < statements.size(); i++) {
            T s = statements.get(i);
            if (HOME_ONLY_TABLES.contains(table.apply(s))) {
                if (shared == null) {
                    shared = new ArrayList<>(statements.subList(0, i));
                }
            } else if (shared != null) {
                shared.add(s);
            }
        }
        return shared == null ? statements : shared;
    }

    /** The table a statement writes, from its prepared metadata ("" when it binds no value). */
    private String table(BoundStatement statement) {
        return table(statement.getPreparedStatement());
    }

    private String table(PreparedStatement prepared) {
        return tables.computeIfAbsent(prepared, p -> {
            var variables = p.getVariableDefinitions();
            return variables.size() == 0 ? "" : variables.get(0).getTable().asInternal();
        });
    }

    /**
     * Keeps a batch as {@link #confirmed} does, to be written again before the engine's: the rows of an
     * order placed here for another region's symbol (its PENDING row and the home region's inbox row).
     * The home region takes such an order from the placing broker's announcement, sent again once the
     * link is back; an announcement that was lost (this broker restarted during the cut, or its queue
     * overflowed) leaves the order to the home's inbox reads, which need both rows in its DC: without
     * this it waited for Cassandra's hints, and behind the engine's batches it waited for them.
     */
    public void confirmedFirst(List<BoundStatement> statements, long timestampMicros) {
        List<KeptStatement> kept = KeptStatement.of(statements);
        recent.add(System.currentTimeMillis(), timestampMicros, kept, KeptStatement.bytes(kept), true);
    }

    /** What a batch's statements hold on to (their values), cheaper than the driver's exact wire size. */
    private static long bytesHeld(List<BoundStatement> statements) {
        long bytes = 0;
        for (BoundStatement s : statements) {
            bytes += 64;
            for (ByteBuffer v : s.getValues()) {
                bytes += v == null ? 0 : v.remaining();
            }
        }
        return bytes;
    }

    /**
     * When a cut link to another region was last noticed back (System.currentTimeMillis()), or -1:
     * the inbox poller reads the inbox often for a while then, as the other region's writes of the
     * cut arrive.
     */
    public long lastHealMillis() {
        return lastHealMillis;
    }

    /**
     * When the cut that {@link #lastHealMillis} ended began, as noticed (System.currentTimeMillis()),
     * or -1: the writes kept for the resend go back {@code resendWindow} before it.
     */
    public long lastCutSinceMillis() {
        return lastCutSinceMillis;
    }

    @Override
    public void start() {
        running = true;
        if (config.resendMaxBytes() == 0 || peers.peerRegions().isEmpty() && otherDataCenterNodes().isEmpty()) {
            return;
        }
        timer = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "heal-resend");
            t.setDaemon(true);
            return t;
        });
        timer.schedule(this::tick, config.linkProbeInterval().toMillis(), TimeUnit.MILLISECONDS);
    }

    /** One round, then the next: {@link #CUT_PROBE_INTERVAL} later while a cut lasts, else the probe interval. */
    private void tick() {
        try {
            if (cutSinceMillis >= 0) {
                checkDuringCut();
            } else {
                check();
            }
            logDropped();
        } finally {
            long next = cutSinceMillis >= 0 ? CUT_PROBE_INTERVAL.toMillis() : config.linkProbeInterval().toMillis();
            if (running) {
                try {
                    timer.schedule(this::tick, next, TimeUnit.MILLISECONDS);
                } catch (RejectedExecutionException stopped) {
                    // stopping
                }
            }
        }
    }

    /**
     * A round while a cut lasts: probes every peer without waiting for the answers, and ends the cut
     * once every peer has answered (or refused) a probe sent since the cut was noticed and no other
     * DC has lost its majority of nodes.
     */
    private void checkDuringCut() {
        try {
            for (String region : peers.peerRegions()) {
                long sent = System.nanoTime();
                peers.probe(region).thenAccept(p -> {
                    if (p != PeerClient.Probe.TIMED_OUT) {
                        answeredSentAt.merge(region, sent, HealResend::later);
                    }
                });
            }
            if (!answeredSince(peers.peerRegions(), answeredSentAt, cutNoticedNanos)
                    || !downInCutDataCenters(otherDataCenterNodes()).isEmpty()) {
                return;
            }
            peers.peerRegions().forEach(r -> misses.put(r, 0));
            healed(System.currentTimeMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (Exception e) {
            log.warn("checking the links to other regions failed: {}", e.toString());
        }
    }

    /**
     * Whether every one of {@code regions} answered a probe sent at or after {@code sinceNanos}
     * (System.nanoTime() values, compared as differences), by the send times of their latest answers.
     */
    static boolean answeredSince(Collection<String> regions, Map<String, Long> answeredSentAt, long sinceNanos) {
        for (String region : regions) {
            Long at = answeredSentAt.get(region);
            if (at == null || at - sinceNanos < 0) {
                return false;
            }
        }
        return true;
    }

    /** The later of two System.nanoTime() values, across their wrap. */
    static long later(long a, long b) {
        return b - a > 0 ? b : a;
    }

    /** The link is back: the cut ends and its batches are written again. */
    private void healed(long now) throws InterruptedException {
        long since = cutSinceMillis;
        cutSinceMillis = -1;
        lastCutSinceMillis = since;
        lastHealMillis = now;
        resend(now - since);
    }

    private void logDropped() {
        long dropped = recent.takeDropped();
        if (dropped > 0) {
            log.warn("{} batches written during the cut no longer kept ({} bytes at most): Cassandra's hints carry them",
                    dropped, config.resendMaxBytes());
        }
    }

    /** One probe round while the link is up: notices a cut. */
    private void check() {
        try {
            Map<String, CompletableFuture<PeerClient.Probe>> probes = new HashMap<>();
            for (String region : peers.peerRegions()) {
                probes.put(region, peers.probe(region));
            }
            List<String> unanswered = new ArrayList<>();
            for (Map.Entry<String, CompletableFuture<PeerClient.Probe>> p : probes.entrySet()) {
                PeerClient.Probe probe = p.getValue().get(config.peerRequestTimeout().toMillis() + 1_000, TimeUnit.MILLISECONDS);
                int missed = probe == PeerClient.Probe.TIMED_OUT ? misses.merge(p.getKey(), 1, Integer::sum) : 0;
                misses.put(p.getKey(), missed);
                if (missed >= MISSES_FOR_A_CUT) {
                    unanswered.add(p.getKey());
                }
            }
            List<String> down = downInCutDataCenters(otherDataCenterNodes());
            long now = System.currentTimeMillis();
            boolean cut = !unanswered.isEmpty() || !down.isEmpty();
            if (cut && cutSinceMillis < 0) {
                cutNoticedNanos = System.nanoTime();
                cutSinceMillis = now - (long) MISSES_FOR_A_CUT * config.linkProbeInterval().toMillis();
                cutReason = (unanswered.isEmpty() ? "" : "brokers of " + unanswered + " not answering")
                        + (unanswered.isEmpty() || down.isEmpty() ? "" : ", ")
                        + (down.isEmpty() ? "" : "Cassandra nodes down: " + down);
                recent.hold(cutSinceMillis);
                log.warn("link to another region cut ({}): keeping this engine's writes to send them again when it is back",
                        cutReason);
                // The forms the resend writes them in, prepared now (on this DC's nodes) and not when
                // the link is back, where they took 0.2-1.1 s (docs/results.md); a form first used
                // later in the cut is prepared then.
                forms.prepareForms(recent.held().stream().flatMap(e -> e.statements().stream())
                        .map(KeptStatement::prepared).distinct().toList());
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (Exception e) {
            log.warn("checking the links to other regions failed: {}", e.toString());
        }
    }

    /**
     * The down nodes of the other DCs that have lost a majority of their nodes, as "DC endpoint".
     * Such a DC cannot take its share of LOCAL_QUORUM writes and reads, so it is cut off as a whole.
     * A minority down (one node of three) is no cut: the DC's other replicas took every write, its
     * reads at LOCAL_QUORUM see them, and the node catches up from hints; writing the outage's batches
     * again when it returns only loaded the machine (every engine write of a minute again in a burst,
     * when the returning node was already busiest) and held up the regions' forwarded orders.
     */
    static List<String> downInCutDataCenters(List<Node> nodes) {
        Map<String, List<Node>> byDataCenter = new HashMap<>();
        for (Node n : nodes) {
            byDataCenter.computeIfAbsent(n.getDatacenter(), dc -> new ArrayList<>()).add(n);
        }
        List<String> down = new ArrayList<>();
        for (List<Node> dc : byDataCenter.values()) {
            List<Node> dcDown = dc.stream().filter(HealResend::isDown).toList();
            if (lostMajority(dc.size(), dcDown.size())) {
                dcDown.forEach(n -> down.add(n.getDatacenter() + " " + n.getEndPoint()));
            }
        }
        return down;
    }

    /** Whether a DC of {@code nodes} nodes with {@code down} of them down has fewer than a majority up. */
    static boolean lostMajority(int nodes, int down) {
        return down > 0 && (nodes - down) <= nodes / 2;
    }

    private static boolean isDown(Node n) {
        return n.getState() == NodeState.DOWN || n.getState() == NodeState.FORCED_DOWN;
    }

    private List<Node> otherDataCenterNodes() {
        return session.getMetadata().getNodes().values().stream()
                .filter(n -> n.getDatacenter() != null && !n.getDatacenter().equals(localDataCenter))
                .toList();
    }

    /**
     * Writes the kept batches again. The link being back does not mean Cassandra's connection to the
     * other DC carries messages yet: after a cut it can sit in TCP's retransmission back-off, and a
     * write queued behind it expires after the write timeout and becomes a hint again. So the latest
     * batch goes first, at EACH_QUORUM, again every {@link #PROBE_RETRY} until every DC acknowledged
     * it (at most {@link #PROBE_DEADLINE}); then the others kept until that moment, in order,
     * {@link #writeAgain}, the ones not acknowledged again up to {@link #RESEND_ROUNDS} times. Those
     * kept until the first write went out are made ready while it is under way.
     */
    private void resend(long cutMillis) throws InterruptedException {
        RecentWrites.Entry<KeptStatement> last = recent.latestHeld();
        if (last == null) {
            recent.release(System.currentTimeMillis());
            log.info("link to the other regions back after {} ms ({}): nothing written meanwhile", cutMillis, cutReason);
            return;
        }
        long start = System.nanoTime();
        long deadline = start + PROBE_DEADLINE.toNanos();
        RecentWrites.Entry<BoundStatement> lastBound = bound(last);
        CompletionStage<?> firstWrite = session.executeAsync(batch(lastBound, DefaultConsistencyLevel.EACH_QUORUM));
        // While the other DCs take the first write (0.5-1.6 s after a 60 s cut at three nodes per DC),
        // the batches kept so far are made ready: their timestamped forms prepared and their partitions
        // planned, 0.4-2.0 s of work that the heal waited for after that write (docs/results.md).
        List<RecentWrites.Entry<KeptStatement>> early = recent.held();
        Set<RecentWrites.Entry<KeptStatement>> planned = Collections.newSetFromMap(new IdentityHashMap<>());
        planned.add(last);
        List<ResendPlan.Batch<BoundStatement>> batches = new ArrayList<>(ready(early, planned));
        long readyNanos = System.nanoTime() - start;
        int attempts = 1;
        while (true) {
            try {
                if (firstWrite != null) {
                    await(firstWrite);
                } else {
                    attempts++;
                    session.execute(batch(lastBound, DefaultConsistencyLevel.EACH_QUORUM));
                }
                resentBatches.increment();
                break;
            } catch (RuntimeException e) {
                firstWrite = null;
                if (System.nanoTime() > deadline || !running) {
                    int left = recent.release(System.currentTimeMillis()).size();
                    log.warn("link to the other regions back after {} ms, but the other DCs did not acknowledge a write "
                            + "in {} attempts ({}): the {} batches of the cut are left to Cassandra's hints", cutMillis,
                            attempts, e.toString(), left);
                    return;
                }
                if (attempts == 1) {
                    log.info("the first write again not acknowledged by every DC after {} ms ({}); trying again every {} ms",
                            (System.nanoTime() - start) / 1_000_000, e.toString(), PROBE_RETRY.toMillis());
                }
                Thread.sleep(PROBE_RETRY.toMillis());
            }
        }
        long flowingNanos = System.nanoTime() - start;
        // Kept until now: the link is back some seconds before Cassandra sees the other DC's nodes up
        // again, and what was written in between became hints as well. A row both in the batches made
        // ready before and in those written since is written twice; the later timestamp wins.
        long lateStart = System.nanoTime();
        int earlyBatches = planned.size() - 1;
        batches.addAll(ready(recent.release(System.currentTimeMillis()), planned));
        long lateNanos = System.nanoTime() - lateStart;
        long statements = 0;
        long bytes = 0;
        for (RecentWrites.Entry<KeptStatement> e : planned) {
            statements += e.statements().size();
            bytes += e.bytes();
        }
        long writeStart = System.nanoTime();
        int coalesced = batches.size();
        long written = batches.stream().mapToLong(b -> b.statements().size()).sum();
        int rounds = 0;
        long roundsDeadline = System.nanoTime() + PROBE_DEADLINE.toNanos();
        while (!batches.isEmpty() && rounds < RESEND_ROUNDS && running && System.nanoTime() < roundsDeadline) {
            if (rounds++ > 0) {
                Thread.sleep(PROBE_RETRY.toMillis());
            }
            batches = writeAgain(batches);
        }
        log.info("link to the other regions back after {} ms ({}): the other DCs acknowledged a write after {} ms "
                        + "({} attempts; the {} batches kept until it was sent made ready meanwhile in {} ms, the {} "
                        + "since in {} ms); wrote again {} batches ({} statements, {} bytes) as {} partition batches of {} "
                        + "statements (the others overwritten later) in {} ms, of which writing {} ms, {} round(s){}",
                cutMillis, cutReason, flowingNanos / 1_000_000, attempts, earlyBatches, readyNanos / 1_000_000,
                planned.size() - 1 - earlyBatches, lateNanos / 1_000_000, planned.size(), statements, bytes, coalesced,
                written, (System.nanoTime() - start) / 1_000_000, (System.nanoTime() - writeStart) / 1_000_000, rounds,
                batches.isEmpty() ? "" : "; " + batches.size() + " not acknowledged, left to Cassandra's hints");
    }

    /**
     * The partition batches that write {@code entries} again, leaving out those already in {@code
     * planned} (compared by identity), which then holds them too; their forms prepared first.
     */
    private List<ResendPlan.Batch<BoundStatement>> ready(List<RecentWrites.Entry<KeptStatement>> entries,
                                                         Set<RecentWrites.Entry<KeptStatement>> planned) {
        List<RecentWrites.Entry<BoundStatement>> pending = new ArrayList<>(entries.size());
        for (RecentWrites.Entry<KeptStatement> e : entries) {
            if (planned.add(e)) {
                pending.add(bound(e));
            }
        }
        if (pending.isEmpty()) {
            return List.of();
        }
        forms.prepare(pending.stream().flatMap(e -> e.statements().stream()).toList());
        return plan.batches(pending);
    }

    /** Waits for a write; its failure thrown as the driver reported it. */
    private static void await(CompletionStage<?> write) throws InterruptedException {
        try {
            write.toCompletableFuture().get();
        } catch (ExecutionException e) {
            throw e.getCause() instanceof RuntimeException r ? r : new IllegalStateException(e.getCause());
        }
    }

    /**
     * Writes the batches at EACH_QUORUM, {@link #IN_FLIGHT} at a time, and returns those not
     * acknowledged, in their order. A quorum in every DC, not one replica anywhere: at three nodes per
     * DC a coordinator still taking a node of the other DC for down hints its write there instead of
     * sending it, and a LOCAL_QUORUM read in that DC may then ask the two replicas without it.
     */
    private List<ResendPlan.Batch<BoundStatement>> writeAgain(List<ResendPlan.Batch<BoundStatement>> batches)
            throws InterruptedException {
        Semaphore slots = new Semaphore(IN_FLIGHT);
        boolean[] failed = new boolean[batches.size()];
        long[] tookNanos = new long[batches.size()];
        AtomicReference<Throwable> firstError = new AtomicReference<>();
        LongAccumulator lastFailureNanos = new LongAccumulator(Math::max, 0);
        long start = System.nanoTime();
        for (int i = 0; i < batches.size(); i++) {
            int index = i;
            slots.acquire();
            long sent = System.nanoTime();
            CompletionStage<?> written = session.executeAsync(batch(batches.get(i), DefaultConsistencyLevel.EACH_QUORUM));
            written.whenComplete((rs, error) -> {
                tookNanos[index] = System.nanoTime() - sent;
                if (error != null) {
                    failed[index] = true;
                    firstError.compareAndSet(null, error);
                    lastFailureNanos.accumulate(System.nanoTime() - start);
                } else {
                    resentBatches.increment();
                }
                slots.release();
            });
        }
        slots.acquire(IN_FLIGHT);
        logLatencies(batches, tookNanos, System.nanoTime() - start);
        List<ResendPlan.Batch<BoundStatement>> again = new ArrayList<>();
        for (int i = 0; i < batches.size(); i++) {
            if (failed[i]) {
                again.add(batches.get(i));
            }
        }
        if (!again.isEmpty()) {
            // what a round after the heal waits for: in the chaos runs, write timeouts at the other DC;
            // the error as text, since SLF4J takes a Throwable in last place for a stack trace to print
            log.info("{} of {} batches written again not acknowledged in {} ms (the last failure after {} ms), e.g. {}",
                    again.size(), batches.size(), (System.nanoTime() - start) / 1_000_000,
                    lastFailureNanos.get() / 1_000_000, String.valueOf(firstError.get()));
        }
        return again;
    }

    /**
     * One round's batches as Cassandra answered them: how long the median and the slowest took (sent
     * to answered or failed) and the slowest one's statements and bytes, to tell a round held up by
     * one large partition from one where every batch waited.
     */
    private void logLatencies(List<ResendPlan.Batch<BoundStatement>> batches, long[] tookNanos, long roundNanos) {
        if (batches.isEmpty()) {
            return;
        }
        int slowest = 0;
        for (int i = 1; i < tookNanos.length; i++) {
            if (tookNanos[i] > tookNanos[slowest]) {
                slowest = i;
            }
        }
        long[] sorted = tookNanos.clone();
        Arrays.sort(sorted);
        ResendPlan.Batch<BoundStatement> b = batches.get(slowest);
        log.info("a round of {} batches written again in {} ms: each answered after {} ms (median), the slowest "
                        + "after {} ms ({} statements, {} bytes)", batches.size(), roundNanos / 1_000_000,
                sorted[sorted.length / 2] / 1_000_000, sorted[sorted.length - 1] / 1_000_000, b.statements().size(),
                bytesHeld(b.statements()));
    }

    private static BatchStatement batch(ResendPlan.Batch<BoundStatement> b, DefaultConsistencyLevel consistency) {
        BatchStatement batch = BatchStatement.newInstance(BatchType.UNLOGGED)
                .addAll(b.statements())
                .setConsistencyLevel(consistency)
                .setIdempotent(true);
        return b.ownTimestamps() ? batch : batch.setQueryTimestamp(b.timestampMicros());
    }

    /** A kept batch with its statements bound again. */
    private static RecentWrites.Entry<BoundStatement> bound(RecentWrites.Entry<KeptStatement> e) {
        return new RecentWrites.Entry<>(e.writtenMillis(), e.timestampMicros(), KeptStatement.bound(e.statements()),
                e.bytes(), e.first());
    }

    private static BatchStatement batch(RecentWrites.Entry<BoundStatement> e, DefaultConsistencyLevel consistency) {
        return batch(new ResendPlan.Batch<>(e.statements(), e.timestampMicros(), false), consistency);
    }

    @Override
    public void stop() {
        running = false;
        if (timer != null) {
            timer.shutdownNow();
        }
    }

    @Override
    public boolean isRunning() {
        return running;
    }
}
