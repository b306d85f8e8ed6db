package io.geobroker.broker.matching;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.loadbalancing.NodeDistance;
import com.datastax.oss.driver.api.core.metadata.Node;
import com.datastax.oss.driver.api.core.metadata.NodeState;
import com.datastax.oss.driver.api.core.servererrors.DefaultWriteType;
import com.datastax.oss.driver.api.core.servererrors.WriteTimeoutException;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * A window in which logged batches are not tried: it opens when Cassandra could not write a logged
 * batch's batch log (a {@code BATCH_LOG} write timeout, after which nothing of the batch was
 * applied). At three nodes per DC the batch log goes to the coordinator DC's two other nodes, so
 * while one of them is dead but not yet convicted by the failure detector (~20 s after a SIGKILL),
 * every logged batch would wait out the write timeout and fail. Writers that can do without the
 * batch log for a while ({@link BatchWriter}, the inbox's order rows) ask {@link #active()} first.
 *
 * <p>Watching a session, it is also open while the driver sees a node of the local DC down beside
 * one up (it knows at once what the failure detector convicts only later), and for
 * {@link #RETURN_WINDOW_MILLIS} after a node of the local DC came back up beside another: a node just
 * restarted is chosen for batch logs as soon as its peers see it alive, while it still replays hints
 * and compiles its code, and a logged batch whose log went to it waited out the write timeout in the
 * chaos runs (10–20 s after the node's return).
 */
public final class BatchLogBypass {

    /** How long the window stays open. */
    static final long WINDOW_NANOS = TimeUnit.SECONDS.toNanos(30);

    /** How long a local node that came back up counts as just back. */
    static final long RETURN_WINDOW_MILLIS = TimeUnit.SECONDS.toMillis(60);
    /** Nodes the driver marks up this soon after the bypass was made are its first connections, not returns. */
    static final long START_GRACE_MILLIS = TimeUnit.SECONDS.toMillis(10);

    /** A local-DC node as the driver sees it: its state and since when it is up (-1 when not). */
    record LocalNode(NodeState state, long upSinceMillis) {
    }

    /** Until when (System.nanoTime()) the window is open; 0 when it is closed. */
    private volatile long untilNanos;
    /** The local-DC nodes as the driver sees them now; none for a bypass opened by timeouts only. */
    private final Supplier<List<LocalNode>> localNodes;
    /** Nodes up since before this (System.currentTimeMillis()) are not returns. */
    private final long sinceMillis;

    /** A window opened by timeouts only. */
    public BatchLogBypass() {
        this(List::of, 0);
    }

    BatchLogBypass(Supplier<List<LocalNode>> localNodes, long sinceMillis) {
        this.localNodes = localNodes;
        this.sinceMillis = sinceMillis;
    }

    /** Opened by timeouts, and open while a local node of the session's driver is down or just back. */
    public static BatchLogBypass watching(CqlSession session) {
        return new BatchLogBypass(() -> localNodes(session.getMetadata().getNodes().values()),
                System.currentTimeMillis() + START_GRACE_MILLIS);
    }

    /** Whether the window is open, or a local node is down or just back beside one up. */
    public boolean active() {
        long until = untilNanos;
        if (until != 0 && System.nanoTime() - until < 0) {
            return true;
        }
        List<LocalNode> nodes = localNodes.get();
        return downBesideUp(nodes) || justBack(nodes, sinceMillis, System.currentTimeMillis());
    }

    /**
     * Whether the driver sees a local node down beside one up: a SIGKILLed node's connections break
     * at once, so the driver knows within milliseconds what Cassandra's failure detector convicts
     * only ~20 s later, and a logged batch already under way need not wait out its timeout.
     */
    boolean localNodeDown() {
        return downBesideUp(localNodes.get());
    }

    /**
     * Whether the local DC has other nodes a batch log can go to: with one node per DC the log is the
     * coordinator's own, and a logged batch is waited for as any other write.
     */
    boolean batchLogsMayGoElsewhere() {
        return localNodes.get().size() > 1;
    }

    static boolean downBesideUp(List<LocalNode> nodes) {
        boolean up = false;
        boolean down = false;
        for (LocalNode node : nodes) {
            up |= node.state() == NodeState.UP;
            down |= node.state() == NodeState.DOWN || node.state() == NodeState.FORCED_DOWN;
        }
        return up && down;
    }

    /**
     * Whether one of the nodes came up after {@code sinceMillis} and less than
     * {@link #RETURN_WINDOW_MILLIS} before {@code nowMillis}, while another is up too (with one node
     * per DC the batch log is the node's own, and with none up nothing can be written anyway).
     */
    static boolean justBack(List<LocalNode> nodes, long sinceMillis, long nowMillis) {
        int up = 0;
        boolean back = false;
        for (LocalNode node : nodes) {
            if (node.state() == NodeState.UP) {
                up++;
                back |= node.upSinceMillis() > sinceMillis && nowMillis - node.upSinceMillis() < RETURN_WINDOW_MILLIS;
            }
        }
        return back && up >= 2;
    }

    private static List<LocalNode> localNodes(Collection<Node> nodes) {
        List<LocalNode> local = new ArrayList<>(nodes.size());
        for (Node node : nodes) {
            if (node.getDistance() == NodeDistance.LOCAL) {
                local.add(new LocalNode(node.getState(), node.getUpSinceMillis()));
            }
        }
        return local;
    }

    /** Opens the window and returns true when {@code e} says a batch log could not be written. */
    public boolean opensOn(RuntimeException e) {
        if (e instanceof WriteTimeoutException timeout && timeout.getWriteType() == DefaultWriteType.BATCH_LOG) {
            untilNanos = System.nanoTime() + WINDOW_NANOS;
            return true;
        }
        return false;
    }

    /**
     * Whether {@code e} says a logged batch is durable though not yet applied everywhere: a
     * {@code BATCH} write timeout comes after the batch log was written, and Cassandra replays a
     * batch from its log until every statement is applied, so the batch's rows will all be there.
     */
    public static boolean loggedButLate(RuntimeException e) {
        return e instanceof WriteTimeoutException timeout && timeout.getWriteType() == DefaultWriteType.BATCH;
    }

    /** The window's length in seconds, for messages. */
    public static long windowSeconds() {
        return TimeUnit.NANOSECONDS.toSeconds(WINDOW_NANOS);
    }
}
