package io.geobroker.loadgen.driver;

import org.junit.jupiter.api.Test;

import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;

import static org.assertj.core.api.Assertions.assertThat;

public class ProcessMemoryTest {

    private static final String STATUS = """
            Name:\tjava
            Umask:\t0022
            State:\tS (sleeping)
            Pid:\t4242
            VmPeak:\t 4563216 kB
            VmSize:\t 4497680 kB
            VmHWM:\t  702348 kB
            VmRSS:\t  644120 kB
            RssAnon:\t  610000 kB
            Threads:\t53
            """;

    @Test
    void reads_the_resident_set_from_proc_status_in_bytes() {
        assertThat(ProcessMemory.vmRssBytes(STATUS)).hasValue(644_120L * 1024);
    }

    @Test
    void a_status_without_a_resident_set_gives_none() {
        // a kernel thread, or a zombie process, has no VmRSS line
        assertThat(ProcessMemory.vmRssBytes("Name:\tkthreadd\nState:\tS (sleeping)\n")).isEqualTo(OptionalLong.empty());
        assertThat(ProcessMemory.vmRssBytes("VmRSS:\t garbage kB\n")).isEqualTo(OptionalLong.empty());
    }

    @Test
    void reads_its_own_heap_after_gc_in_process() {
        System.gc();
        try (ProcessMemory self = ProcessMemory.self("load generator")) {
            assertThat(self.jvm()).isTrue();
            assertThat(self.heapAfterGcBytes()).isPresent();
            assertThat(self.heapAfterGcBytes().getAsLong()).isPositive();
        }
    }

    @Test
    void the_heap_after_young_collections_counts_what_survived_them() {
        System.gc();
        List<byte[]> kept = new ArrayList<>();
        try (ProcessMemory self = ProcessMemory.self("load generator")) {
            long before = self.heapAfterGcBytes().orElseThrow();
            for (int i = 0; i < 320; i++) {
                kept.add(new byte[100_000]);
            }
            long collections = collections();
            // garbage until two more collections (young ones: nothing asks for a full one), bounded
            for (int i = 0; i < 1_000_000 && collections() < collections + 2; i++) {
                sink = new byte[10_000];
            }
            assertThat(collections()).as("collections while allocating").isGreaterThanOrEqualTo(collections + 2);
            assertThat(self.heapAfterGcBytes().orElseThrow() - before).as("32 MB kept across young collections")
                    .isGreaterThanOrEqualTo(30_000_000L);
        }
        assertThat(kept).hasSize(320);
    }

    @Test
    void the_live_heap_is_what_a_full_collection_leaves() {
        try (ProcessMemory self = ProcessMemory.self("load generator")) {
            List<byte[]> kept = new ArrayList<>();
            for (int i = 0; i < 320; i++) {
                kept.add(new byte[100_000]);
            }
            long collections = collections();
            long withKept = self.liveHeapBytes().orElseThrow();
            assertThat(collections()).as("a collection was made").isGreaterThan(collections);
            assertThat(kept).hasSize(320);
            kept = null;
            long without = self.liveHeapBytes().orElseThrow();
            assertThat(withKept - without).as("the 32 MB no longer referenced").isGreaterThanOrEqualTo(30_000_000L);
        }
    }

    private static volatile byte[] sink;

    private static long collections() {
        return ManagementFactory.getGarbageCollectorMXBeans().stream()
                .mapToLong(GarbageCollectorMXBean::getCollectionCount).sum();
    }

    @Test
    void a_process_that_cannot_be_attached_keeps_only_its_resident_set() {
        long gone = ProcessHandle.current().pid() + 1_000_000_000L;

        try (ProcessMemory p = ProcessMemory.attach("ghost", gone)) {
            assertThat(p.jvm()).isFalse();
            assertThat(p.heapAfterGcBytes()).isEmpty();
            assertThat(p.rssBytes()).isEmpty();
        }
    }
}
