package io.geobroker.broker.matching;

import com.datastax.oss.driver.api.core.DefaultConsistencyLevel;
import com.datastax.oss.driver.api.core.metadata.NodeState;
import com.datastax.oss.driver.api.core.servererrors.DefaultWriteType;
import com.datastax.oss.driver.api.core.servererrors.WriteTimeoutException;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

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
    void a_batch_that_timed_out_after_its_batch_log_was_written_is_durable() {
        assertThat(BatchLogBypass.loggedButLate(timeout(DefaultWriteType.BATCH))).isTrue();
        assertThat(BatchLogBypass.loggedButLate(timeout(DefaultWriteType.BATCH_LOG))).as("nothing was logged").isFalse();
        assertThat(BatchLogBypass.loggedButLate(timeout(DefaultWriteType.SIMPLE))).as("no batch log").isFalse();
        assertThat(BatchLogBypass.loggedButLate(new IllegalStateException("no node"))).isFalse();
    }

    @Test
    void a_local_node_is_just_back_for_a_minute_after_it_came_up_again_beside_another() {
        long since = 1_000_000;
        long back = since + 5_000;
        List<BatchLogBypass.LocalNode> returned = List.of(up(since - 30_000), up(since - 30_000), up(back));

        assertThat(BatchLogBypass.justBack(returned, since, back + 1_000)).isTrue();
        assertThat(BatchLogBypass.justBack(returned, since, back + BatchLogBypass.RETURN_WINDOW_MILLIS - 1)).isTrue();
        assertThat(BatchLogBypass.justBack(returned, since, back + BatchLogBypass.RETURN_WINDOW_MILLIS))
                .as("the window has passed").isFalse();
        assertThat(BatchLogBypass.justBack(List.of(up(since - 1), up(since - 2), up(since - 3)), since, back))
                .as("up since before the bypass was made: the session's first connections").isFalse();
        assertThat(BatchLogBypass.justBack(List.of(up(back)), since, back + 1_000))
                .as("one node per DC: its batch log is its own").isFalse();
        assertThat(BatchLogBypass.justBack(List.of(new BatchLogBypass.LocalNode(NodeState.DOWN, -1), up(back)), since,
                back + 1_000)).as("no other node up").isFalse();
    }

    @Test
    void a_bypass_watching_nodes_is_open_while_one_is_down_or_just_back() {
        long now = System.currentTimeMillis();
        List<List<BatchLogBypass.LocalNode>> nodes = new ArrayList<>(List.of(List.of(up(now - 120_000),
                up(now - 120_000), up(now - 120_000))));
        BatchLogBypass bypass = new BatchLogBypass(() -> nodes.get(0), now - 60_000);
        assertThat(bypass.active()).isFalse();
        assertThat(bypass.localNodeDown()).isFalse();

        nodes.set(0, List.of(up(now - 120_000), up(now - 120_000), down()));
        assertThat(bypass.active()).isTrue();
        assertThat(bypass.localNodeDown()).isTrue();

        nodes.set(0, List.of(up(now - 120_000), up(now - 120_000), up(now - 1_000)));
        assertThat(bypass.active()).as("just back").isTrue();
        assertThat(bypass.localNodeDown()).isFalse();

        nodes.set(0, List.of(down(), down(), down()));
        assertThat(bypass.active()).as("nothing up: nothing can be written either way").isFalse();
    }

    @Test
    void batch_logs_go_to_other_nodes_only_in_a_dc_of_several() {
        assertThat(new BatchLogBypass().batchLogsMayGoElsewhere()).as("watching no session").isFalse();
        assertThat(new BatchLogBypass(() -> List.of(up(1)), 0).batchLogsMayGoElsewhere()).isFalse();
        assertThat(new BatchLogBypass(() -> List.of(up(1), up(1), down()), 0).batchLogsMayGoElsewhere()).isTrue();
    }

    @Test
    void a_node_down_counts_only_beside_one_up() {
        assertThat(BatchLogBypass.downBesideUp(List.of(up(1), down()))).isTrue();
        assertThat(BatchLogBypass.downBesideUp(List.of(up(1), up(2)))).isFalse();
        assertThat(BatchLogBypass.downBesideUp(List.of(down()))).isFalse();
        assertThat(BatchLogBypass.downBesideUp(List.of())).isFalse();
    }

    private static BatchLogBypass.LocalNode down() {
        return new BatchLogBypass.LocalNode(NodeState.DOWN, -1);
    }

    private static BatchLogBypass.LocalNode up(long sinceMillis) {
        return new BatchLogBypass.LocalNode(NodeState.UP, sinceMillis);
    }

    private static WriteTimeoutException timeout(DefaultWriteType type) {
        return new WriteTimeoutException(null, DefaultConsistencyLevel.TWO, 1, 2, type);
    }
}
