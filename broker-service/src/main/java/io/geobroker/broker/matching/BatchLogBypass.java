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
import java.util.function.BooleanSupplier;

/**
 * A window in which logged batches are not tried: it opens when Cassandra could not write a logged
 * batch's batch log (a {@code BATCH_LOG} write timeout, after which nothing of the batch was
 * applied). At three nodes per DC the batch log goes to the coordinator DC's two other nodes, so
 * while one of them is dead but not yet convicted by the failure detector (~20 s after a SIGKILL),
 * every logged batch would wait out the write timeout and fail. Writers that can do without the
 * batch log for a while ({@link BatchWriter}, the inbox's order rows) ask {@link #active()} first.
 *
 * <p>It is also active, without waiting for that first timeout, while the driver sees a node of the
 * local DC down beside one that is up: a SIGKILLed node's connections break at once, so the driver
 * knows within milliseconds what Cassandra's failure detector convicts only ~20 s later, and the
 * first batch after a node's loss need not wait out the 2 s write timeout either. (With every local
 * node down nothing can be written anyway, and with one node per DC the batch log is local.)
 */
public final class BatchLogBypass {

    /** How long the window stays open. */
    static final long WINDOW_NANOS = TimeUnit.SECONDS.toNanos(30);

    /** Until when (System.nanoTime()) the window is open; 0 when it is closed. */
    private volatile long untilNanos;
    private final BooleanSupplier localNodeDown;

    /** A window opened by timeouts only. */
    public BatchLogBypass() {
        this(() -> false);
    }

    /** A window opened by timeouts, and open whenever {@code localNodeDown} says so. */
    BatchLogBypass(BooleanSupplier localNodeDown) {
        this.localNodeDown = localNodeDown;
    }

    /** Open also while the session's driver sees a local-DC node down and another up. */
    public static BatchLogBypass watching(CqlSession session) {
        return new BatchLogBypass(() -> someDownBesideUp(localStates(session.getMetadata().getNodes().values())));
    }

    /** Whether the window is open, or a local node down. */
    public boolean active() {
        long until = untilNanos;
        return until != 0 && System.nanoTime() - until < 0 || localNodeDown.getAsBoolean();
    }

    /** The states of the nodes of the local DC (the driver's LOCAL distance). */
    private static List<NodeState> localStates(Collection<Node> nodes) {
        List<NodeState> states = new ArrayList<>(nodes.size());
        for (Node node : nodes) {
            if (node.getDistance() == NodeDistance.LOCAL) {
                states.add(node.getState());
            }
        }
        return states;
    }

    /** Whether one of the nodes is down (or forced down) while another is up. */
    static boolean someDownBesideUp(List<NodeState> states) {
        return states.contains(NodeState.UP)
                && (states.contains(NodeState.DOWN) || states.contains(NodeState.FORCED_DOWN));
    }

    /** Opens the window and returns true when {@code e} says a batch log could not be written. */
    public boolean opensOn(RuntimeException e) {
        if (e instanceof WriteTimeoutException timeout && timeout.getWriteType() == DefaultWriteType.BATCH_LOG) {
            untilNanos = System.nanoTime() + WINDOW_NANOS;
            return true;
        }
        return false;
    }

    /** The window's length in seconds, for messages. */
    public static long windowSeconds() {
        return TimeUnit.NANOSECONDS.toSeconds(WINDOW_NANOS);
    }
}
