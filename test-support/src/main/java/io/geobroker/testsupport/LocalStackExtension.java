package io.geobroker.testsupport;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.config.DefaultDriverOption;
import com.datastax.oss.driver.api.core.cql.SimpleStatement;
import io.geobroker.domain.Keyspaces;
import io.geobroker.domain.Topics;
import io.geobroker.domain.Topology;
import io.geobroker.schema.SchemaTool;
import io.geobroker.stack.LocalStack;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;

/**
 * Integration tests on the real local stack: starts it once per build (see {@link SharedStack}),
 * and gives each test class its own empty keyspace at the current schema and its own Kafka topic
 * prefix. Use {@link WithLocalStack} or {@code @ExtendWith(LocalStackExtension.class)} and take a
 * {@link StackContext} parameter.
 *
 * <p>Keyspaces: applying the schema takes ~16 s (each of its ~35 DDL statements flushes the schema
 * tables of both nodes and waits for their agreement), truncating its tables ~0.7 s. So a class gets
 * the keyspace of a class of the same test JVM that has finished, every table but
 * {@code schema_version} truncated (and those of its DCs' own keyspaces); only when none is free
 * is {@code it_<class name>} dropped and created. Truncation is safe against what the previous
 * class left in flight: Cassandra drops hints and replayed batch-log mutations written before a
 * table's truncation. A class asking for an older schema ({@link WithLocalStack#schemaVersion()})
 * always gets its own, and does not give it back.
 */
public final class LocalStackExtension implements BeforeAllCallback, ParameterResolver {

    private static final ExtensionContext.Namespace NAMESPACE = ExtensionContext.Namespace.create(LocalStackExtension.class);
    private static final Duration TRUNCATE_TIMEOUT = Duration.ofSeconds(60);
    /** Keyspaces at the current schema whose classes have finished, per stack. */
    private static final Map<LocalStack, Deque<String>> FREE_KEYSPACES = new ConcurrentHashMap<>();

    @Override
    public void beforeAll(ExtensionContext context) {
        contextOf(context);
    }

    @Override
    public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
        return parameter.getParameter().getType() == StackContext.class;
    }

    @Override
    public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
        return contextOf(context);
    }

    private static ClassContext contextOf(ExtensionContext context) {
        ExtensionContext classContext = context;
        while (classContext.getTestMethod().isPresent() && classContext.getParent().isPresent()) {
            classContext = classContext.getParent().get();
        }
        Class<?> testClass = classContext.getRequiredTestClass();
        return classContext.getStore(NAMESPACE).getOrComputeIfAbsent(testClass,
                c -> new ClassContext(SharedStack.get(), testClass), ClassContext.class);
    }

    /** Keyspace name for a test class: {@code it_} and the class's simple name, lower case. */
    static String keyspaceFor(Class<?> testClass) {
        String name = "it_" + testClass.getSimpleName().replaceAll("[^A-Za-z0-9]", "_").toLowerCase(Locale.ROOT);
        return name.length() > 48 ? name.substring(0, 48) : name;
    }

    /** {@code keyspace} and the keyspace of each DC's own tables beside it ({@link Keyspaces#ofDataCenter}). */
    static List<String> withOwnOfEachDc(String keyspace, Topology topology) {
        List<String> all = new ArrayList<>();
        all.add(keyspace);
        topology.regions().forEach(r -> all.add(Keyspaces.ofDataCenter(keyspace, r.dataCenter())));
        return all;
    }

    /** Drops {@code keyspace} and each DC's own keyspace beside it, those that exist. */
    static void drop(CqlSession session, String keyspace, Topology topology) {
        for (String each : withOwnOfEachDc(keyspace, topology)) {
            session.execute(SimpleStatement.newInstance("DROP KEYSPACE IF EXISTS " + each).setTimeout(Duration.ofSeconds(60)));
        }
    }

    static final class ClassContext implements StackContext, ExtensionContext.Store.CloseableResource {
        private final LocalStack stack;
        private final Topology topology;
        private final String keyspace;
        private final Topics topics;
        private final Map<String, CqlSession> sessions = new ConcurrentHashMap<>();

        private final boolean current;

        ClassContext(LocalStack stack, Class<?> testClass) {
            this.stack = stack;
            this.topology = stack.topology();
            this.topics = new Topics(testClass.getSimpleName() + "." + UUID.randomUUID().toString().substring(0, 8) + ".");
            WithLocalStack settings = testClass.getAnnotation(WithLocalStack.class);
            int version = settings == null ? Integer.MAX_VALUE : settings.schemaVersion();
            this.current = version == Integer.MAX_VALUE;
            try (CqlSession admin = connect(topology.regions().get(0), null)) {
                String reused = current ? emptied(admin, stack) : null;
                if (reused != null) {
                    this.keyspace = reused;
                } else {
                    this.keyspace = keyspaceFor(testClass);
                    drop(admin, keyspace, topology);
                    SchemaTool.apply(admin, keyspace, SchemaTool.replicationOf(topology), version, report -> { });
                }
            }
        }

        /**
         * A free keyspace of this stack with every table but {@code schema_version} truncated, or
         * null when none is free or truncating failed (a node down, say: TRUNCATE needs every replica).
         */
        private static String emptied(CqlSession admin, LocalStack stack) {
            Deque<String> free = FREE_KEYSPACES.computeIfAbsent(stack, s -> new ArrayDeque<>());
            String keyspace;
            synchronized (free) {
                keyspace = free.poll();
            }
            if (keyspace == null) {
                return null;
            }
            try {
                List<CompletableFuture<?>> truncations = new ArrayList<>();
                for (String each : withOwnOfEachDc(keyspace, stack.topology())) {
                    for (var row : admin.execute(SimpleStatement.newInstance(
                            "SELECT table_name FROM system_schema.tables WHERE keyspace_name = ?", each))) {
                        String table = row.getString("table_name");
                        if (!table.equals("schema_version")) {
                            truncations.add(admin.executeAsync(SimpleStatement.newInstance(
                                    "TRUNCATE " + each + "." + table).setTimeout(TRUNCATE_TIMEOUT)).toCompletableFuture());
                        }
                    }
                }
                CompletableFuture.allOf(truncations.toArray(CompletableFuture[]::new)).join();
                return truncations.isEmpty() ? null : keyspace;
            } catch (RuntimeException e) {
                System.err.printf("keyspace %s not reused (%s): creating one%n", keyspace, e);
                return null;
            }
        }

        @Override
        public Topology topology() {
            return topology;
        }

        @Override
        public String keyspace() {
            return keyspace;
        }

        @Override
        public Topics topics() {
            return topics;
        }

        @Override
        public CqlSession session(String region) {
            Topology.RegionEndpoints endpoints = endpoints(region);
            return sessions.computeIfAbsent(region, r -> connect(endpoints, keyspace));
        }

        @Override
        public String kafkaBootstrap(String region) {
            return endpoints(region).kafkaBootstrap();
        }

        @Override
        public LocalStack stack() {
            return stack;
        }

        @Override
        public Path workDir() {
            return stack.workDir();
        }

        private Topology.RegionEndpoints endpoints(String region) {
            return topology.region(region).orElseThrow(() -> new IllegalArgumentException(
                    "region '" + region + "' is not in the stack's topology"));
        }

        private static CqlSession connect(Topology.RegionEndpoints region, String keyspace) {
            var builder = CqlSession.builder()
                    .addContactPoints(region.cassandraContactPoints().stream().map(ClassContext::address).toList())
                    .withLocalDatacenter(region.dataCenter())
                    .withConfigLoader(SchemaTool.ddlSessionConfig()
                            // Cross-DC consistency levels wait for the emulated WAN.
                            .withDuration(DefaultDriverOption.REQUEST_TIMEOUT, Duration.ofSeconds(10))
                            .withDuration(DefaultDriverOption.CONTROL_CONNECTION_AGREEMENT_TIMEOUT, Duration.ofSeconds(30))
                            .build());
            if (keyspace != null) {
                builder.withKeyspace(keyspace);
            }
            return builder.build();
        }

        private static InetSocketAddress address(String hostPort) {
            int colon = hostPort.lastIndexOf(':');
            return new InetSocketAddress(hostPort.substring(0, colon), Integer.parseInt(hostPort.substring(colon + 1)));
        }

        @Override
        public void close() {
            sessions.values().forEach(CqlSession::close);
            if (current) {
                Deque<String> free = FREE_KEYSPACES.computeIfAbsent(stack, s -> new ArrayDeque<>());
                synchronized (free) {
                    free.push(keyspace);
                }
            }
        }
    }
}
