package io.geobroker.broker.config;

import io.geobroker.domain.SymbolDirectory;
import io.geobroker.domain.Topology;
import org.junit.jupiter.api.Test;

import java.util.Properties;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Which Cassandra DC a broker's session uses: its own region's, or another one in remote-DC mode. */
class CassandraConfigurationTest {

    private final Topology topology = topology();

    @Test
    void a_broker_uses_its_own_regions_dc_by_default() {
        Topology.RegionEndpoints sydney = topology.region("sydney").orElseThrow();

        assertThat(CassandraConfiguration.dataRegion(topology, sydney, "")).isSameAs(sydney);
        assertThat(CassandraConfiguration.dataRegion(topology, sydney, "sydney")).isSameAs(sydney);
    }

    @Test
    void remote_dc_mode_uses_the_named_regions_dc_and_contact_points() {
        Topology.RegionEndpoints sydney = topology.region("sydney").orElseThrow();

        Topology.RegionEndpoints used = CassandraConfiguration.dataRegion(topology, sydney, "nvirginia");

        assertThat(used.dataCenter()).isEqualTo("NorthVirginiaDC");
        assertThat(used.cassandraContactPoints()).containsExactly("127.0.2.1:9042");
    }

    @Test
    void an_unknown_region_is_refused_with_the_known_ones() {
        Topology.RegionEndpoints sydney = topology.region("sydney").orElseThrow();

        assertThatThrownBy(() -> CassandraConfiguration.dataRegion(topology, sydney, "mars"))
                .hasMessageContaining("'mars'").hasMessageContaining("[sydney, nvirginia]");
    }

    private static Topology topology() {
        Properties p = new Properties();
        p.setProperty("geobroker.topology.regions", "sydney,nvirginia");
        p.setProperty("geobroker.topology.region.sydney.cassandra", "127.0.1.1:9042");
        p.setProperty("geobroker.topology.region.nvirginia.cassandra", "127.0.2.1:9042");
        return Topology.fromProperties(p, SymbolDirectory.standard());
    }
}
