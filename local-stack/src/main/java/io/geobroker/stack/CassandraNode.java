package io.geobroker.stack;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * One Cassandra node of the local stack: its configuration files and the command that runs it on
 * JDK 17 (module flags from Cassandra's {@code conf/jvm17-server.options}).
 */
record CassandraNode(String name, String region, String dataCenter, String address, boolean seed, Path dir) {

    /** From Cassandra 5.0's conf/jvm17-server.options: JDK 17 needs these to run it. */
    static final List<String> JDK17_FLAGS = List.of(
            "--add-exports", "java.base/jdk.internal.misc=ALL-UNNAMED",
            "--add-exports", "java.management.rmi/com.sun.jmx.remote.internal.rmi=ALL-UNNAMED",
            "--add-exports", "java.rmi/sun.rmi.registry=ALL-UNNAMED",
            "--add-exports", "java.rmi/sun.rmi.server=ALL-UNNAMED",
            "--add-exports", "java.sql/java.sql=ALL-UNNAMED",
            "--add-exports", "java.base/java.lang.ref=ALL-UNNAMED",
            "--add-exports", "jdk.unsupported/sun.misc=ALL-UNNAMED",
            "--add-exports", "jdk.compiler/com.sun.tools.javac.file=ALL-UNNAMED",
            "--add-exports", "jdk.attach/sun.tools.attach=ALL-UNNAMED",
            "--add-opens", "java.base/java.lang.module=ALL-UNNAMED",
            "--add-opens", "java.base/jdk.internal.loader=ALL-UNNAMED",
            "--add-opens", "java.base/jdk.internal.ref=ALL-UNNAMED",
            "--add-opens", "java.base/jdk.internal.reflect=ALL-UNNAMED",
            "--add-opens", "java.base/jdk.internal.math=ALL-UNNAMED",
            "--add-opens", "java.base/jdk.internal.module=ALL-UNNAMED",
            "--add-opens", "java.base/jdk.internal.util.jar=ALL-UNNAMED",
            "--add-opens", "jdk.management/com.sun.management.internal=ALL-UNNAMED",
            "--add-opens", "java.base/sun.nio.ch=ALL-UNNAMED",
            "--add-opens", "java.base/java.io=ALL-UNNAMED",
            "--add-opens", "java.base/java.lang.reflect=ALL-UNNAMED",
            "--add-opens", "jdk.compiler/com.sun.tools.javac=ALL-UNNAMED",
            "--add-opens", "java.base/java.lang=ALL-UNNAMED",
            "--add-opens", "java.base/java.util=ALL-UNNAMED",
            "-Djdk.attach.allowAttachSelf=true",
            "-Dio.netty.tryReflectionSetAccessible=true");

    Path logDir() {
        return dir.resolve("logs");
    }

    /** Writes cassandra.yaml, cassandra-rackdc.properties and logback.xml (again on every start). */
    void configure(List<String> seeds, int heapMb, boolean syncedCommitLog) {
        try {
            for (String sub : List.of("data", "commitlog", "saved_caches", "hints", "cdc_raw", "logs", "conf")) {
                Files.createDirectories(dir.resolve(sub));
            }
            Files.writeString(dir.resolve("conf/cassandra.yaml"), yaml(seeds, heapMb, syncedCommitLog), StandardCharsets.UTF_8);
            Files.writeString(dir.resolve("conf/cassandra-rackdc.properties"),
                    "dc=" + dataCenter + "\nrack=rack1\nprefer_local=true\n", StandardCharsets.UTF_8);
            Files.writeString(dir.resolve("conf/logback.xml"), """
                    <configuration>
                      <appender name="FILE" class="ch.qos.logback.core.FileAppender">
                        <file>%s</file>
                        <encoder><pattern>%%-5level [%%thread] %%date{ISO8601} %%logger{0} - %%msg%%n</pattern></encoder>
                      </appender>
                      <root level="INFO"><appender-ref ref="FILE"/></root>
                    </configuration>
                    """.formatted(logDir().resolve("system.log")), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the configuration of " + name, e);
        }
    }

    /**
     * The lean settings (small caches, 8 MiB commit log segments, one compactor) keep a node near
     * 0.5 GB RSS; {@code auto_bootstrap: false} on non-seeds lets all nodes of a fresh cluster
     * start at once. ring_delay and schema_delay keep their defaults: nodes die at start without.
     * Memtables hold their cells off the heap, in up to 512 MiB: with the default (a quarter of a
     * 256 MB heap) the demo's writes flushed a memtable every few seconds and kept the one
     * compactor busy; off-heap, half the flushes and a tenth of the compactions, ~8 % less CPU.
     * Memtables are tries and sstables the trie-indexed format (BTI, which needs the storage
     * compatibility mode NONE; a node of an older stack restarts with it): at the default load the
     * engines' logged batches took 39 and 20 ms on average instead of 55 and 27 (one run each,
     * docs/results.md). Hints are flushed to their files every second instead of every ten: a node
     * sends another DC the hints it kept during a cut only from files, when its dispatch check runs
     * (every 10 s, fixed), so a region sees the other's writes of a cut sooner after it heals.
     * A partition's rows are indexed every KiB instead of every 16 (BTI's default): a customer's
     * {@code customer_orders} partition holds every order the customer ever placed, and each
     * placement's idempotency read looks its id up in every sstable holding the partition, where
     * it read past tens of rows of an index block before the row or the gap it was after.
     * From a 512 MB heap on, the memtables may take half of it ({@link #memtableHeapMb}).
     *
     * <p>The commit log is synced every 10 s (Cassandra's default) unless {@code syncedCommitLog}
     * ({@link LocalStack.Builder#syncedCommitLog}).
     */
    String yaml(List<String> seeds, int heapMb, boolean syncedCommitLog) {
        String d = dir.toString();
        return memtableHeapSpace(heapMb) + commitLogSync(syncedCommitLog) + """
                cluster_name: geobroker-local
                num_tokens: 16
                partitioner: org.apache.cassandra.dht.Murmur3Partitioner
                endpoint_snitch: GossipingPropertyFileSnitch
                seed_provider:
                  - class_name: org.apache.cassandra.locator.SimpleSeedProvider
                    parameters:
                      - seeds: "%s"
                listen_address: %s
                rpc_address: %s
                storage_port: %d
                native_transport_port: %d
                start_native_transport: true
                auto_bootstrap: %s
                data_file_directories:
                  - %s/data
                commitlog_directory: %s/commitlog
                saved_caches_directory: %s/saved_caches
                hints_directory: %s/hints
                hints_flush_period: 1000ms
                cdc_raw_directory: %s/cdc_raw
                file_cache_size: 16MiB
                networking_cache_size: 8MiB
                commitlog_segment_size: 8MiB
                key_cache_size: 0MiB
                counter_cache_size: 0MiB
                concurrent_compactors: 1
                memtable_allocation_type: offheap_objects
                memtable_offheap_space: 512MiB
                memtable:
                  configurations:
                    skiplist:
                      class_name: SkipListMemtable
                    trie:
                      class_name: TrieMemtable
                    default:
                      inherits: trie
                sstable:
                  selected_format: bti
                storage_compatibility_mode: NONE
                auto_snapshot: false
                batch_size_warn_threshold: 4096KiB
                batch_size_fail_threshold: 4096KiB
                column_index_size: 1KiB
                """.formatted(String.join(",", seeds), address, address, StackConfig.STORAGE_PORT,
                StackConfig.CQL_PORT, seed ? "true" : "false", d, d, d, d, d);
    }

    /**
     * The memtables' share of the heap: half of it from 512 MB on, else Cassandra's default (a
     * quarter). Memtables are flushed when their cells on the heap reach a third of that space,
     * whatever they hold off the heap: at the default load with a quarter of 256 MB, each node flushed
     * a 1–2 MiB {@code customer_orders} sstable every ~30 s, its one compactor fell behind (66 tasks
     * queued after 12 minutes) and the placements' reads went through ever more sstables, so a
     * 30-minute run slowed down as it went (docs/results.md). With half of 512 MB: a flush every
     * ~2 minutes, no compaction queued, and the same run as fast at its end as at its start.
     */
    static int memtableHeapMb(int heapMb) {
        return heapMb >= 512 ? heapMb / 2 : 0;
    }

    /**
     * Periodic: a SIGKILLed node loses what it acknowledged in about its last 100 ms, since its
     * commit log's replay stops at the last section marker, written every 100 ms (an order answered
     * 201 right before the kill was gone after the restart, at one node per DC). Batch: synced
     * before each acknowledgement, writes queued meanwhile share the next sync.
     */
    private static String commitLogSync(boolean synced) {
        return synced ? "commitlog_sync: batch\n" : "commitlog_sync: periodic\ncommitlog_sync_period: 10000ms\n";
    }

    private static String memtableHeapSpace(int heapMb) {
        int mb = memtableHeapMb(heapMb);
        return mb == 0 ? "" : "memtable_heap_space: " + mb + "MiB\n";
    }

    List<String> command(Path java, List<Path> classPath, Path watchDir, long ownerPid, int heapMb,
                         List<String> jvmOptions) {
        Path jamm = classPath.stream().filter(p -> p.getFileName().toString().startsWith("jamm-")).findFirst()
                .orElseThrow(() -> new StackException("jamm jar missing from the Cassandra class path"));
        List<String> cmd = new ArrayList<>(List.of(java.toString(),
                "-Xms" + heapMb + "m", "-Xmx" + heapMb + "m", "-Xss256k",
                Jdk17.GC, "-XX:CICompilerCount=2", "-XX:+HeapDumpOnOutOfMemoryError",
                "-XX:HeapDumpPath=" + dir.resolve("logs"),
                "-javaagent:" + jamm));
        cmd.addAll(JDK17_FLAGS);
        cmd.addAll(List.of(
                "-Dcassandra.config=" + dir.resolve("conf/cassandra.yaml").toUri(),
                "-Dcassandra-rackdc.properties=" + dir.resolve("conf/cassandra-rackdc.properties").toUri(),
                "-Dcassandra-foreground=yes",
                "-Dcassandra.storagedir=" + dir,
                "-Dcassandra.logdir=" + logDir(),
                "-Dlogback.configurationFile=" + dir.resolve("conf/logback.xml"),
                "-Dcassandra.skip_wait_for_gossip_to_settle=0",
                // Schema changes are flushed as Cassandra does by default: with
                // cassandra.test.flush_local_schema_changes=false (DDL ~3 s faster at start) a node
                // SIGKILLed after an ALTER TABLE could not start again, its commit log holding rows
                // of a column its schema on disk did not have yet (CassandraRestartIT).
                "-Dgeobroker.stack.node=" + name,
                Jdk17.rmiHostname(address)));
        cmd.addAll(jvmOptions);
        cmd.addAll(List.of(
                "-cp", watchDir + File.pathSeparator + join(classPath),
                ParentWatch.class.getName(), Long.toString(ownerPid),
                "org.apache.cassandra.service.CassandraDaemon"));
        return cmd;
    }

    static String join(List<Path> classPath) {
        return String.join(File.pathSeparator, classPath.stream().map(Path::toString).toList());
    }
}
