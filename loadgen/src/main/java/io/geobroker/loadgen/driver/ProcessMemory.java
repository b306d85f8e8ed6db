package io.geobroker.loadgen.driver;

import com.sun.tools.attach.VirtualMachine;

import javax.management.MBeanServerConnection;
import javax.management.ObjectName;
import javax.management.openmbean.CompositeData;
import javax.management.remote.JMXConnector;
import javax.management.remote.JMXConnectorFactory;
import javax.management.remote.JMXServiceURL;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryType;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * The memory of one process on this machine: its resident set ({@code VmRSS} of
 * {@code /proc/<pid>/status}) and, for a JVM, the heap it still used after its last garbage
 * collection — the sum of its heap pools' {@code CollectionUsage}, which grows only if live data
 * does. Another JVM is read over JMX: the JDK's attach API starts its local management agent, and
 * the connection stays open until {@link #close()}.
 */
public final class ProcessMemory implements AutoCloseable {

    private static final String HEAP_POOLS = ManagementFactory.MEMORY_POOL_MXBEAN_DOMAIN_TYPE + ",*";

    private final String name;
    private final long pid;
    private final Optional<JMXConnector> connector;
    private final Optional<MBeanServerConnection> jvm;
    private final List<ObjectName> heapPools;

    private ProcessMemory(String name, long pid, Optional<JMXConnector> connector, Optional<MBeanServerConnection> jvm,
                          List<ObjectName> heapPools) {
        this.name = name;
        this.pid = pid;
        this.connector = connector;
        this.jvm = jvm;
        this.heapPools = List.copyOf(heapPools);
    }

    /** This JVM, the load generator, read in-process. */
    public static ProcessMemory self(String name) {
        MBeanServerConnection server = ManagementFactory.getPlatformMBeanServer();
        return new ProcessMemory(name, ProcessHandle.current().pid(), Optional.empty(), Optional.of(server),
                heapPools(server).orElse(List.of()));
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
            Optional<List<ObjectName>> pools = heapPools(server);
            if (pools.isEmpty()) {
                throw new IOException("its memory pools could not be listed");
            }
            return new ProcessMemory(name, pid, Optional.of(connector), Optional.of(server), pools.get());
        } catch (Exception e) {
            // AttachNotSupportedException (not a JVM, another user, attach disabled), IOException (agent
            // unreachable, e.g. in another network namespace), JMX errors: the RSS is still worth having
            closeQuietly(connector);
            System.err.println("resources: no heap of " + name + " (pid " + pid + "): " + e.getClass().getSimpleName()
                    + (e.getMessage() == null ? "" : ": " + firstLine(e.getMessage())));
            return new ProcessMemory(name, pid, Optional.empty(), Optional.empty(), List.of());
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
     * The heap used after the last collection, summed over the heap pools that report it; empty
     * without a JVM connection, if it fails, or before any pool was collected.
     */
    public OptionalLong heapAfterGcBytes() {
        if (jvm.isEmpty()) {
            return OptionalLong.empty();
        }
        long used = 0;
        try {
            for (ObjectName pool : heapPools) {
                if (jvm.get().getAttribute(pool, "CollectionUsage") instanceof CompositeData usage) {
                    used += (Long) usage.get("used");
                }
            }
        } catch (Exception e) {
            return OptionalLong.empty();
        }
        // every pool reports 0 until its first collection, and a collected heap is never empty
        return used > 0 ? OptionalLong.of(used) : OptionalLong.empty();
    }

    /** The JVM's heap memory pools that are collected (those with a {@code CollectionUsage}). */
    private static Optional<List<ObjectName>> heapPools(MBeanServerConnection server) {
        try {
            List<ObjectName> pools = new ArrayList<>();
            for (ObjectName pool : server.queryNames(new ObjectName(HEAP_POOLS), null)) {
                Object type = server.getAttribute(pool, "Type");
                if (MemoryType.HEAP.name().equals(type) && server.getAttribute(pool, "CollectionUsage") != null) {
                    pools.add(pool);
                }
            }
            return Optional.of(pools);
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
