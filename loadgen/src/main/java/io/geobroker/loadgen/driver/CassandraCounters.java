package io.geobroker.loadgen.driver;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.cql.Row;
import com.datastax.oss.driver.api.core.cql.SimpleStatement;
import com.datastax.oss.driver.api.core.metadata.Node;
import io.geobroker.domain.Topology;

import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Cassandra's own counters of each DC's nodes, read from their virtual tables: the table writes
 * each node applied in the keyspace ({@code system_views.local_write_latency}, replicas from other
 * DCs included) and the bytes it sent to nodes of other DCs ({@code system_views.internode_outbound});
 * and each node's {@link Backlog} of compactions and hints.
 * Sessions are opened once, before a run, so that a reading costs the nodes a few small queries.
 */
public final class CassandraCounters implements AutoCloseable {

    /** Counter keys: {@code <prefix><data centre>}. */
    public static final String WRITES = "cassandra-table-writes:";
    public static final String SENT_TO_OTHER_DCS = "cassandra-bytes-to-other-dcs:";

    private static final Duration TIMEOUT = Duration.ofSeconds(5);

    private final String keyspace;
    private final List<CqlSession> sessions;
    private final List<String> dataCentres;

    private CassandraCounters(String keyspace, List<CqlSession> sessions, List<String> dataCentres) {
        this.keyspace = keyspace;
        this.sessions = sessions;
        this.dataCentres = dataCentres;
    }

    /** One session per region of the topology, local to its DC. */
    public static CassandraCounters connect(Topology topology, String keyspace) {
        List<CqlSession> sessions = new ArrayList<>();
        List<String> dataCentres = new ArrayList<>();
        try {
            for (Topology.RegionEndpoints r : topology.regions()) {
                sessions.add(CqlSession.builder()
                        .addContactPoints(r.cassandraContactPoints().stream().map(CassandraCounters::address).toList())
                        .withLocalDatacenter(r.dataCenter())
                        .build());
                dataCentres.add(r.dataCenter());
            }
        } catch (RuntimeException e) {
            sessions.forEach(CqlSession::close);
            throw e;
        }
        return new CassandraCounters(keyspace, sessions, dataCentres);
    }

    /** The counters now, summed over each DC's nodes; a node that does not answer is left out. */
    public Map<String, Long> read() {
        Map<String, Long> counters = new TreeMap<>();
        forEachNode((session, node, dc) -> {
            long writes = 0;
            for (Row row : session.execute(on(node, SimpleStatement.newInstance(
                    "SELECT count FROM system_views.local_write_latency WHERE keyspace_name = ?", keyspace)))) {
                writes += row.getLong("count");
            }
            long sent = 0;
            for (Row row : session.execute(on(node, SimpleStatement.newInstance(
                    "SELECT dc, sent_bytes FROM system_views.internode_outbound")))) {
                if (!dc.equals(row.getString("dc"))) {
                    sent += row.getLong("sent_bytes");
                }
            }
            counters.merge(WRITES + dc, writes, Long::sum);
            counters.merge(SENT_TO_OTHER_DCS + dc, sent, Long::sum);
        });
        return counters;
    }

    /**
     * A node's backlog at one moment: the compactions waiting in its {@code CompactionExecutor}
     * ({@code system_views.thread_pools}, what {@code nodetool tpstats} shows) and the hint files it
     * holds for other nodes ({@code system_views.pending_hints}, summed over them).
     */
    public record Backlog(int pendingCompactions, int pendingHintFiles) {
    }

    /** Each node's backlog now, by {@code <DC> <address>}; a node that does not answer is left out. */
    public Map<String, Backlog> backlog() {
        Map<String, Backlog> backlog = new TreeMap<>();
        forEachNode((session, node, dc) -> {
            int compactions = 0;
            for (Row row : session.execute(on(node, SimpleStatement.newInstance(
                    "SELECT pending_tasks FROM system_views.thread_pools WHERE name = 'CompactionExecutor'")))) {
                compactions += row.getInt("pending_tasks");
            }
            int hintFiles = 0;
            for (Row row : session.execute(on(node, SimpleStatement.newInstance(
                    "SELECT files FROM system_views.pending_hints")))) {
                hintFiles += row.getInt("files");
            }
            backlog.put(dc + " " + host(node), new Backlog(compactions, hintFiles));
        });
        return backlog;
    }

    private static String host(Node node) {
        SocketAddress address = node.getEndPoint().resolve();
        return address instanceof InetSocketAddress a && a.getAddress() != null ? a.getAddress().getHostAddress()
                : address.toString();
    }

    /** What to read from one node, through the session of its DC. */
    private interface NodeReading {
        void read(CqlSession session, Node node, String dc);
    }

    /** Runs {@code reading} on every node of each session's own DC; a node that fails it is skipped. */
    private void forEachNode(NodeReading reading) {
        for (int i = 0; i < sessions.size(); i++) {
            CqlSession session = sessions.get(i);
            String dc = dataCentres.get(i);
            for (Node node : session.getMetadata().getNodes().values()) {
                if (!dc.equals(node.getDatacenter())) {
                    continue;
                }
                try {
                    reading.read(session, node, dc);
                } catch (RuntimeException e) {
                    // a node down or slow: it is missing from this reading
                }
            }
        }
    }

    private static final Duration CLOSE_WAIT = Duration.ofSeconds(5);

    private static SimpleStatement on(Node node, SimpleStatement statement) {
        return statement.setNode(node).setTimeout(TIMEOUT);
    }

    private static InetSocketAddress address(String hostPort) {
        int colon = hostPort.lastIndexOf(':');
        return colon < 0 ? new InetSocketAddress(hostPort, 9042)
                : new InetSocketAddress(hostPort.substring(0, colon), Integer.parseInt(hostPort.substring(colon + 1)));
    }

    /**
     * Closes the sessions, waiting at most {@link #CLOSE_WAIT} for each and then forcing it: this
     * runs in the shutdown path of `up` and `demo`, where a close that never completes once kept
     * the process (and `down`) waiting for good.
     */
    @Override
    public void close() {
        for (CqlSession s : sessions) {
            try {
                s.closeAsync().toCompletableFuture().get(CLOSE_WAIT.toMillis(), TimeUnit.MILLISECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                s.forceCloseAsync();
            } catch (ExecutionException | TimeoutException e) {
                s.forceCloseAsync();
            }
        }
    }
}
