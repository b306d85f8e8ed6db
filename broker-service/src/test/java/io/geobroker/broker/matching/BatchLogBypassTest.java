package io.geobroker.broker.matching;

import com.datastax.oss.driver.api.core.DefaultConsistencyLevel;
import com.datastax.oss.driver.api.core.metadata.NodeState;
import com.datastax.oss.driver.api.core.servererrors.DefaultWriteType;
import com.datastax.oss.driver.api.core.servererrors.WriteTimeoutException;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;

import static org.assertj.core.api.Assertions.assertThat;

class BatchLogBypassTest {

    @Test
    void the_window_is_closed_until_a_batch_log_cannot_be_written() {
        BatchLogBypass bypass = new BatchLogBypass();
        assertThat(bypass.active()).isFalse();

        assertThat(bypass.opensOn(timeout(DefaultWriteType.BATCH))).as("the batch itself timed out: it may be applied")
                .isFalse();
        assertThat(bypass.opensOn(new IllegalStateException("no node"))).isFalse();
        assertThat(bypass.active()).isFalse();

        assertThat(bypass.opensOn(timeout(DefaultWriteType.BATCH_LOG))).isTrue();
        assertThat(bypass.active()).isTrue();
    }

    @Test
    void a_local_node_down_beside_one_up_opens_it_without_a_timeout() {
        assertThat(BatchLogBypass.someDownBesideUp(List.of(NodeState.UP, NodeState.UP, NodeState.DOWN))).isTrue();
        assertThat(BatchLogBypass.someDownBesideUp(List.of(NodeState.FORCED_DOWN, NodeState.UP))).isTrue();
        assertThat(BatchLogBypass.someDownBesideUp(List.of(NodeState.UP, NodeState.UP, NodeState.UP))).isFalse();
        assertThat(BatchLogBypass.someDownBesideUp(List.of(NodeState.DOWN))).as("one node per DC, down: nothing to "
                + "write to anyway").isFalse();
        assertThat(BatchLogBypass.someDownBesideUp(List.of(NodeState.UP, NodeState.UNKNOWN))).as("not yet known")
                .isFalse();

        AtomicBoolean down = new AtomicBoolean();
        BatchLogBypass bypass = new BatchLogBypass(down::get);
        assertThat(bypass.active()).isFalse();
        down.set(true);
        assertThat(bypass.active()).isTrue();
        down.set(false);
        assertThat(bypass.active()).as("the node back: logged batches again").isFalse();
    }

    private static WriteTimeoutException timeout(DefaultWriteType type) {
        return new WriteTimeoutException(null, DefaultConsistencyLevel.TWO, 1, 2, type);
    }
}
