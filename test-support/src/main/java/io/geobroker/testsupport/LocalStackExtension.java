package io.geobroker.testsupport;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.config.DefaultDriverOption;
import com.datastax.oss.driver.api.core.cql.SimpleStatement;
import io.geobroker.domain.Topics;
import io.geobroker.domain.Topology;
import io.geobroker.schema.SchemaTool;
import io.geobroker.stack.LocalStack;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;

/**
 * Integration tests on the real local stack: starts it once per build (see {@link SharedStack}),
 * and gives each test class its own keyspace ({@code it_<class name>}, dropped and created again
 * with the current schema) and its own Kafka topic prefix. Use {@link WithLocalStack} or
 * {@code @ExtendWith(LocalStackExtension.class)} and take a {@link StackContext} parameter.
 */
public final class LocalStackExtension implements BeforeAllCallback, ParameterResolver {

    private static final ExtensionContext.Namespace NAMESPACE = ExtensionContext.Namespace.create(LocalStackExtension.class);

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

    static final class ClassContext implements StackContext, ExtensionContext.Store.CloseableResource {
        private final LocalStack stack;
        private final Topology topology;
        private final String keyspace;
        private final Topics topics;
        private final Map<String, CqlSession> sessions = new ConcurrentHashMap<>();

        ClassContext(LocalStack stack, Class<?> testClass) {
            this.stack = stack;
            this.topology = stack.topology();
            this.keyspace = keyspaceFor(testClass);
            this.topics = new Topics(testClass.getSimpleName() + "." + UUID.randomUUID().toString().substring(0, 8) + ".");
            Topology.RegionEndpoints first = topology.regions().get(0);
            try (CqlSession admin = connect(first, null)) {
                admin.execute(SimpleStatement.newInstance("DROP KEYSPACE IF EXISTS " + keyspace)
                        .setTimeout(Duration.ofSeconds(60)));
                WithLocalStack settings = testClass.getAnnotation(WithLocalStack.class);
                SchemaTool.apply(admin, keyspace, SchemaTool.replicationOf(topology),
                        settings == null ? Integer.MAX_VALUE : settings.schemaVersion(), report -> { });
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
        }
    }
}
