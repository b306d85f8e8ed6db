package io.geobroker.broker.it;

import com.datastax.oss.driver.api.core.CqlSession;
import io.geobroker.domain.Topics;
import io.geobroker.domain.Topology;

import java.util.HashMap;
import java.util.Map;
import java.util.function.Function;

/** What a broker integration test needs from the local stack: its topology, keyspace, topics and clients. */
record TestStack(Topology topology, String keyspace, Topics topics, Function<String, CqlSession> sessions,
                 Function<String, String> kafka) {

    /** The broker properties that point an instance at this stack as the given region. */
    Map<String, Object> brokerProperties(String region, String adminToken) {
        Map<String, Object> p = new HashMap<>();
        topology.toProperties().forEach((k, v) -> p.put((String) k, v));
        p.put("spring.config.import", "");
        p.put("geobroker.region", region);
        p.put("geobroker.cassandra.keyspace", keyspace);
        p.put("geobroker.kafka.topic-prefix", topics.prefix());
        p.put("geobroker.security.admin-token", adminToken);
        return p;
    }

    CqlSession session(String region) {
        return sessions.apply(region);
    }

    String kafkaBootstrap(String region) {
        return kafka.apply(region);
    }
}
