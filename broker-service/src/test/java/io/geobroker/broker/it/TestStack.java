package io.geobroker.broker.it;

import com.datastax.oss.driver.api.core.CqlSession;
import io.geobroker.domain.Topics;
import io.geobroker.domain.Topology;
import io.geobroker.testsupport.StackContext;

import java.util.HashMap;
import java.util.Map;
import java.util.function.Function;

/** What a broker integration test needs from the local stack: its topology, keyspace, topics and clients. */
record TestStack(Topology topology, String keyspace, Topics topics, Function<String, CqlSession> sessions,
                 Function<String, String> kafka, String addressPrefix) {

    static TestStack of(StackContext context) {
        return new TestStack(context.topology(), context.keyspace(), context.topics(), context::session,
                context::kafkaBootstrap, context.stack().addressPrefix());
    }

    /**
     * A local address for a broker started by a test (in the root network namespace, which reaches
     * every region without the emulated WAN's delay): {@code <prefix>.0.<host>}.
     */
    String testAddress(int host) {
        return addressPrefix + ".0." + host;
    }

    /**
     * The extra properties of a Sydney and an N. Virginia broker started by a test on port 8080 of
     * the given addresses, each knowing the other's URL and the peer token (market orders and cancels
     * are forwarded, orders announced).
     */
    static Map<String, Object> peeredBrokers(String sydneyAddress, String nvirginiaAddress, String peerToken) {
        Map<String, Object> extra = new HashMap<>();
        extra.put("server.port", "8080");
        extra.put("geobroker.topology.region.sydney.broker-url", "http://" + sydneyAddress + ":8080");
        extra.put("geobroker.topology.region.nvirginia.broker-url", "http://" + nvirginiaAddress + ":8080");
        extra.put("geobroker.security.peer-token", peerToken);
        return extra;
    }

    /** The broker properties that point an instance at this stack as the given region. */
    Map<String, Object> brokerProperties(String region, String adminToken) {
        Map<String, Object> p = new HashMap<>();
        topology.toProperties().forEach((k, v) -> p.put((String) k, v));
        p.put("spring.config.import", "");
        p.put("geobroker.region", region);
        p.put("geobroker.cassandra.keyspace", keyspace);
        p.put("geobroker.kafka.topic-prefix", topics.prefix());
        p.put("geobroker.security.admin-token", adminToken);
        // Tests that speak FIX switch it on with their own port and store.
        p.put("geobroker.fix.enabled", "false");
        return p;
    }

    CqlSession session(String region) {
        return sessions.apply(region);
    }

    String kafkaBootstrap(String region) {
        return kafka.apply(region);
    }
}
