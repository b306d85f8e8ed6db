package io.geobroker.stack;

import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class CassandraNodeTest {

    private final CassandraNode node = new CassandraNode("cassandra-sydney-1", "sydney", "SydneyDC", "127.0.1.1", true,
            Path.of("/tmp/geobroker-node"));

    @Test
    void from_a_512_mb_heap_on_half_of_it_is_for_memtables() {
        assertThat(node.yaml(List.of("127.0.1.1:7000"), 512, false)).startsWith("memtable_heap_space: 256MiB\n")
                .contains("cluster_name: geobroker-local");
        assertThat(node.yaml(List.of("127.0.1.1:7000"), 1024, false)).contains("memtable_heap_space: 512MiB\n");
        assertThat(node.yaml(List.of("127.0.1.1:7000"), 256, false)).as("a smaller heap keeps Cassandra's quarter")
                .doesNotContain("memtable_heap_space");
    }

    @Test
    void the_commit_log_is_synced_before_each_acknowledgement_only_when_asked() {
        String periodic = node.yaml(List.of("127.0.1.1:7000"), 512, false);
        assertThat(periodic).contains("commitlog_sync: periodic\n", "commitlog_sync_period: 10000ms\n")
                .doesNotContain("commitlog_sync: batch");
        String synced = node.yaml(List.of("127.0.1.1:7000"), 512, true);
        assertThat(synced).contains("commitlog_sync: batch\n").doesNotContain("periodic").doesNotContain("commitlog_sync_period");
    }
}
