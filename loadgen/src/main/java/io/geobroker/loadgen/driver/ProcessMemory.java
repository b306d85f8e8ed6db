package io.geobroker.loadgen.driver;

import com.sun.tools.attach.VirtualMachine;

import javax.management.MBeanServerConnection;
import javax.management.ObjectName;
import javax.management.openmbean.CompositeData;
import javax.management.openmbean.TabularData;
import javax.management.remote.JMXConnector;
import javax.management.remote.JMXConnectorFactory;
import javax.management.remote.JMXServiceURL;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryType;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;

/**
 * The memory of one process on this machine: its resident set ({@code VmRSS} of
 * {@code /proc/<pid>/status}) and, for a JVM, the heap it still used after its last garbage
 * collection — its heap pools' usage after the collection that ended last, young or old (a pool's
 * own {@code CollectionUsage} would not do: G1's old generation updates it only after a collection
 * of its own, so between those it stays at its value of long ago), which grows only if live data
 * does. Another JVM is read over JMX: the JDK's attach API starts its local management agent, and
 * the connection stays open until {@link #close()}.
 */
public final class ProcessMemory implements AutoCloseable {

    private static final String HEAP_POOLS = ManagementFactory.MEMORY_POOL_MXBEAN_DOMAIN_TYPE + ",*";
    private static final String COLLECTORS = ManagementFactory.GARBAGE_COLLECTOR_MXBEAN_DOMAIN_TYPE + ",*";

    private final String name;
    private final long pid;
    private final Optional<JMXConnector> connector;
    private final Optional<MBeanServerConnection> jvm;
    /** The names of its heap pools, and its collectors. */
    private final Set<String> heapPools;
    private final List<ObjectName> collectors;

    private ProcessMemory(String name, long pid, Optional<JMXConnector> connector, Optional<MBeanServerConnection> jvm,
                          Beans beans) {
        this.name = name;
        this.pid = pid;
        this.connector = connector;
        this.jvm = jvm;
        this.heapPools = Set.copyOf(beans.heapPools());
        this.collectors = List.copyOf(beans.collectors());
    }

    private record Beans(Set<String> heapPools, List<ObjectName> collectors) {
        static final Beans NONE = new Beans(Set.of(), List.of());
    }

    /** This JVM, the load generator, read in-process. */
    public static ProcessMemory self(String name) {
        MBeanServerConnection server = ManagementFactory.getPlatformMBeanServer();
        return new ProcessMemory(name, ProcessHandle.current().pid(), Optional.empty(), Optional.of(server),
                beans(server).orElse(Beans.NONE));
    }

    /**
     * Process {@code pid}: its RSS always, its heap if it is a JVM this user may attach to and whose
     * management agent answers; otherwise says so in one line on stderr and reads the RSS alone.
     */
    public static ProcessMemory attach(String name, long pid) {
        JMXConnector connector = null;
        try {
            VirtualMachine vm = VirtualMachine.attach(Long.toString(pid));
            String address;
            try {
                address = vm.startLocalManagementAgent();
            } finally {
                vm.detach();
            }
            connector = JMXConnectorFactory.connect(new JMXServiceURL(address));
            MBeanServerConnection server = connector.getMBeanServerConnection();
            Optional<Beans> beans = beans(server);
            if (beans.isEmpty()) {
                throw new IOException("its memory pools and collectors could not be listed");
            }
            return new ProcessMemory(name, pid, Optional.of(connector), Optional.of(server), beans.get());
        } catch (Exception e) {
            // AttachNotSupportedException (not a JVM, another user, attach disabled), IOException (agent
            // unreachable, e.g. in another network namespace), JMX errors: the RSS is still worth having
            closeQuietly(connector);
            System.err.println("resources: no heap of " + name + " (pid " + pid + "): " + e.getClass().getSimpleName()
                    + (e.getMessage() == null ? "" : ": " + firstLine(e.getMessage())));
            return new ProcessMemory(name, pid, Optional.empty(), Optional.empty(), Beans.NONE);
        }
    }

    public String name() {
        return name;
    }

    /** Whether this process's heap can be read. */
    public boolean jvm() {
        return jvm.isPresent();
    }

    /** Its resident set in bytes; empty if the process is gone or {@code /proc} does not say. */
    public OptionalLong rssBytes() {
        try {
            return vmRssBytes(Files.readString(Path.of("/proc", Long.toString(pid), "status"), StandardCharsets.UTF_8));
        } catch (IOException | RuntimeException e) {
            return OptionalLong.empty();
        }
    }

    /** The {@code VmRSS} line of a {@code /proc/<pid>/status} text, in bytes (the kernel gives kB). */
    static OptionalLong vmRssBytes(String status) {
        for (String line : status.split("\n")) {
            if (line.startsWith("VmRSS:")) {
                String[] parts = line.substring("VmRSS:".length()).trim().split("\\s+");
                try {
                    long kb = Long.parseLong(parts[0]);
                    return OptionalLong.of(parts.length > 1 && parts[1].equalsIgnoreCase("kB") ? kb * 1024 : kb);
                } catch (NumberFormatException e) {
                    return OptionalLong.empty();
                }
            }
        }
        return OptionalLong.empty();
    }

    /**
     * The heap used at the end of the collection that ended last, summed over the heap pools; empty
     * without a JVM connection, if it fails, or before the first collection.
     */
    public OptionalLong heapAfterGcBytes() {
        if (jvm.isEmpty()) {
            return OptionalLong.empty();
        }
        try {
            long lastEnd = -1;
            long used = 0;
            for (ObjectName collector : collectors) {
                if (jvm.get().getAttribute(collector, "LastGcInfo") instanceof CompositeData info
                        && (Long) info.get("endTime") > lastEnd) {
                    lastEnd = (Long) info.get("endTime");
                    used = usedAfter(info, heapPools);
                }
            }
            return lastEnd < 0 ? OptionalLong.empty() : OptionalLong.of(used);
        } catch (Exception e) {
            return OptionalLong.empty();
        }
    }

    /**
     * The heap still in use after a full collection asked for now ({@code MemoryMXBean.gc()}): the
     * live data, which the heap after a young collection overstates by the old generation's garbage
     * until a concurrent cycle clears it. It pauses the JVM for the collection. Empty without a JVM
     * connection, if it fails, or if the JVM ignores the request ({@code -XX:+DisableExplicitGC}).
     */
    public OptionalLong liveHeapBytes() {
        if (jvm.isEmpty()) {
            return OptionalLong.empty();
        }
        try {
            long before = collections();
            jvm.get().invoke(new ObjectName(ManagementFactory.MEMORY_MXBEAN_NAME), "gc", null, null);
            return collections() > before ? heapAfterGcBytes() : OptionalLong.empty();
        } catch (Exception e) {
            return OptionalLong.empty();
        }
    }

    private long collections() throws Exception {
        long count = 0;
        for (ObjectName collector : collectors) {
            count += (Long) jvm.get().getAttribute(collector, "CollectionCount");
        }
        return count;
    }

    /** The {@code used} bytes of the named pools in a {@code GcInfo}'s {@code memoryUsageAfterGc}. */
    static long usedAfter(CompositeData gcInfo, Set<String> pools) {
        long used = 0;
        for (Object row : ((TabularData) gcInfo.get("memoryUsageAfterGc")).values()) {
            CompositeData entry = (CompositeData) row;
            if (pools.contains((String) entry.get("key"))) {
                used += (Long) ((CompositeData) entry.get("value")).get("used");
            }
        }
        return used;
    }

    /** The names of the JVM's heap memory pools, and its garbage collectors. */
    private static Optional<Beans> beans(MBeanServerConnection server) {
        try {
            Set<String> pools = new HashSet<>();
            for (ObjectName pool : server.queryNames(new ObjectName(HEAP_POOLS), null)) {
                if (MemoryType.HEAP.name().equals(server.getAttribute(pool, "Type"))) {
                    pools.add(pool.getKeyProperty("name"));
                }
            }
            return Optional.of(new Beans(pools, List.copyOf(server.queryNames(new ObjectName(COLLECTORS), null))));
        } catch (Exception e) {
            return Optional.empty();
        }
    }

    private static String firstLine(String text) {
        int newline = text.indexOf('\n');
        return newline < 0 ? text : text.substring(0, newline);
    }

    private static void closeQuietly(JMXConnector connector) {
        if (connector != null) {
            try {
                connector.close();
            } catch (IOException e) {
                // the connection is gone either way
            }
        }
    }

    @Override
    public void close() {
        connector.ifPresent(ProcessMemory::closeQuietly);
    }
}
