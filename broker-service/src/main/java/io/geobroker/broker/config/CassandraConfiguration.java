package io.geobroker.broker.config;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.config.DefaultDriverOption;
import com.datastax.oss.driver.api.core.config.DriverConfigLoader;
import io.geobroker.domain.Topology;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import java.net.InetSocketAddress;
import java.util.List;

/**
 * The one Cassandra session of the broker. Multi-DC decision, in one place: the session's local DC
 * is the broker's region's DC and every request uses LOCAL_QUORUM (LOCAL_SERIAL for compare-and-set),
 * so nothing waits on the WAN. If the local DC is down the broker does not fail over to a remote DC:
 * it owns its region's data and must not write it where another region reads it as stale; it stops
 * answering (503) until its DC is back. Issue 4's remote-DC mode sets another DC on purpose.
 */
@Configuration(proxyBeanMethods = false)
public class CassandraConfiguration {

    @Bean(destroyMethod = "close")
    public CqlSession cqlSession(Topology.RegionEndpoints localRegion, BrokerProperties properties) {
        List<InetSocketAddress> contactPoints = localRegion.cassandraContactPoints().stream()
                .map(CassandraConfiguration::address)
                .toList();
        if (contactPoints.isEmpty()) {
            throw new IllegalStateException("the topology names no Cassandra contact points for region " + localRegion.name());
        }
        DriverConfigLoader config = DriverConfigLoader.programmaticBuilder()
                .withString(DefaultDriverOption.REQUEST_CONSISTENCY, "LOCAL_QUORUM")
                .withString(DefaultDriverOption.REQUEST_SERIAL_CONSISTENCY, "LOCAL_SERIAL")
                .withDuration(DefaultDriverOption.REQUEST_TIMEOUT, properties.cassandra().requestTimeout())
                .withBoolean(DefaultDriverOption.REQUEST_DEFAULT_IDEMPOTENCE, true)
                .build();
        return CqlSession.builder()
                .addContactPoints(contactPoints)
                .withLocalDatacenter(localRegion.dataCenter())
                .withKeyspace(properties.cassandra().keyspace())
                .withConfigLoader(config)
                .build();
    }

    static InetSocketAddress address(String hostAndPort) {
        int colon = hostAndPort.lastIndexOf(':');
        if (colon < 0) {
            return new InetSocketAddress(hostAndPort, 9042);
        }
        return new InetSocketAddress(hostAndPort.substring(0, colon), Integer.parseInt(hostAndPort.substring(colon + 1)));
    }
}
