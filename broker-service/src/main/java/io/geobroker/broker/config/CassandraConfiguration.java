package io.geobroker.broker.config;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.config.DefaultDriverOption;
import com.datastax.oss.driver.api.core.config.DriverConfigLoader;
import com.datastax.oss.driver.api.core.cql.BoundStatement;
import io.geobroker.domain.Topology;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.List;

/**
 * The one Cassandra session of the broker. Multi-DC decision, in one place: the session's local DC
 * is the broker's region's DC and every request uses LOCAL_QUORUM (LOCAL_SERIAL for compare-and-set),
 * so nothing waits on the WAN. If the local DC is down the broker does not fail over to a remote DC:
 * it owns its region's data and must not write it where another region reads it as stale; it stops
 * answering (503) until its DC is back.
 *
 * <p>Remote-DC mode ({@code GEOBROKER_CASSANDRA_REGION=<another region>}) points the session at
 * another region's DC on purpose: every read and write then crosses the WAN, which is the
 * prototype's local-versus-remote experiment. Which data the broker owns does not change.
 */
@Configuration(proxyBeanMethods = false)
public class CassandraConfiguration {

    private static final Logger log = LoggerFactory.getLogger(CassandraConfiguration.class);

    /**
     * The execution profile of the reads a customer's request waits on: when the coordinator has
     * not answered after {@link #SPECULATIVE_READ_DELAY} (a node just restarted, still slow, or one
     * dead and not yet convicted), the same read goes to the next node of the query plan as well,
     * and the first answer counts. At one node per DC there is no next node and nothing changes.
     * Writes keep the default profile: a slow write must not be sent twice into a slow cluster.
     */
    public static final String SPECULATIVE_READS = "speculative-reads";
    static final Duration SPECULATIVE_READ_DELAY = Duration.ofMillis(500);
    /** The driver's topology event window: gossip's node events applied 0.1 s after the last one. */
    static final Duration TOPOLOGY_EVENT_WINDOW = Duration.ofMillis(100);

    /** A read a customer's request waits on, on the {@link #SPECULATIVE_READS} profile. */
    public static BoundStatement requestRead(BoundStatement read) {
        return read.setExecutionProfileName(SPECULATIVE_READS);
    }

    @Bean(destroyMethod = "close")
    public CqlSession cqlSession(Topology topology, Topology.RegionEndpoints localRegion, BrokerProperties properties) {
        Topology.RegionEndpoints dataRegion = dataRegion(topology, localRegion, properties.cassandra().dataCenterRegion());
        if (dataRegion != localRegion) {
            log.warn("remote-DC mode: region {} uses the Cassandra DC {} of region {}; every request crosses the WAN",
                    localRegion.name(), dataRegion.dataCenter(), dataRegion.name());
        }
        List<InetSocketAddress> contactPoints = dataRegion.cassandraContactPoints().stream()
                .map(CassandraConfiguration::address)
                .toList();
        if (contactPoints.isEmpty()) {
            throw new IllegalStateException("the topology names no Cassandra contact points for region " + dataRegion.name());
        }
        DriverConfigLoader config = DriverConfigLoader.programmaticBuilder()
                .withString(DefaultDriverOption.REQUEST_CONSISTENCY, "LOCAL_QUORUM")
                .withString(DefaultDriverOption.REQUEST_SERIAL_CONSISTENCY, "LOCAL_SERIAL")
                .withDuration(DefaultDriverOption.REQUEST_TIMEOUT, properties.cassandra().requestTimeout())
                .withBoolean(DefaultDriverOption.REQUEST_DEFAULT_IDEMPOTENCE, true)
                // The session is closed last, when nothing can submit work to it any more; Netty's
                // default 2 s quiet period would only delay every shutdown by 2 s.
                .withInt(DefaultDriverOption.NETTY_IO_SHUTDOWN_QUIET_PERIOD, 0)
                .withInt(DefaultDriverOption.NETTY_ADMIN_SHUTDOWN_QUIET_PERIOD, 0)
                // Nodes' UP and DOWN events from Cassandra's gossip reach the node states only after
                // this window without another event (1 s by default, started again by each event):
                // after a WAN cut the other DC's nodes come back over a second or two, and the link's
                // return (HealResend) waited a second more for the last of them.
                .withDuration(DefaultDriverOption.METADATA_TOPOLOGY_WINDOW, TOPOLOGY_EVENT_WINDOW)
                .startProfile(SPECULATIVE_READS)
                .withString(DefaultDriverOption.SPECULATIVE_EXECUTION_POLICY_CLASS, "ConstantSpeculativeExecutionPolicy")
                .withInt(DefaultDriverOption.SPECULATIVE_EXECUTION_MAX, 2)
                .withDuration(DefaultDriverOption.SPECULATIVE_EXECUTION_DELAY, SPECULATIVE_READ_DELAY)
                .endProfile()
                .build();
        return CqlSession.builder()
                .addContactPoints(contactPoints)
                .withLocalDatacenter(dataRegion.dataCenter())
                .withKeyspace(properties.cassandra().keyspace())
                .withConfigLoader(config)
                .build();
    }

    /** The region whose DC the session uses: the broker's own unless remote-DC mode names another. */
    public static Topology.RegionEndpoints dataRegion(Topology topology, Topology.RegionEndpoints local, String configured) {
        if (configured == null || configured.isBlank() || configured.equals(local.name())) {
            return local;
        }
        return topology.region(configured).orElseThrow(() -> new IllegalStateException(
                "geobroker.cassandra.data-center-region '" + configured + "' is not in the topology "
                        + topology.regions().stream().map(Topology.RegionEndpoints::name).toList()));
    }

    static InetSocketAddress address(String hostAndPort) {
        int colon = hostAndPort.lastIndexOf(':');
        if (colon < 0) {
            return new InetSocketAddress(hostAndPort, 9042);
        }
        return new InetSocketAddress(hostAndPort.substring(0, colon), Integer.parseInt(hostAndPort.substring(colon + 1)));
    }
}
