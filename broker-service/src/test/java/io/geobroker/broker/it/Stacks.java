package io.geobroker.broker.it;

import com.datastax.oss.driver.api.core.CqlSession;
import io.geobroker.domain.Topics;
import io.geobroker.domain.Topology;
import io.geobroker.schema.SchemaTool;
import io.geobroker.stack.LocalStack;

import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/** Connects broker ITs to a running local stack (its work directory in {@code GEOBROKER_IT_STACK}). */
final class Stacks {

    private static final Map<String, CqlSession> SESSIONS = new ConcurrentHashMap<>();

    private Stacks() {
    }

    static TestStack forClass(Class<?> testClass) {
        LocalStack stack = LocalStack.attach(Path.of(System.getenv().getOrDefault("GEOBROKER_IT_STACK", ".stack")));
        Topology topology = stack.topology();
        String name = ("it_" + testClass.getSimpleName() + "_" + Long.toString(System.currentTimeMillis(), 36))
                .toLowerCase();
        CqlSession admin = session(topology, topology.regions().get(0).name(), null);
        SchemaTool.apply(admin, name, SchemaTool.replicationOf(topology));
        return new TestStack(topology, name, new Topics(name + "."),
                region -> SESSIONS.computeIfAbsent(name + region, k -> session(topology, region, name)),
                region -> topology.region(region).orElseThrow().kafkaBootstrap());
    }

    private static CqlSession session(Topology topology, String region, String keyspace) {
        Topology.RegionEndpoints r = topology.region(region).orElseThrow();
        var builder = CqlSession.builder().withLocalDatacenter(r.dataCenter());
        for (String hostPort : r.cassandraContactPoints()) {
            int colon = hostPort.lastIndexOf(':');
            builder.addContactPoint(new InetSocketAddress(hostPort.substring(0, colon),
                    Integer.parseInt(hostPort.substring(colon + 1))));
        }
        if (keyspace != null) {
            builder.withKeyspace(keyspace);
        }
        return builder.build();
    }
}
