package io.geobroker.domain;

import org.junit.jupiter.api.Test;

import java.util.Properties;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class TopologyTest {

    private static Properties props(String... keyValues) {
        Properties p = new Properties();
        for (int i = 0; i < keyValues.length; i += 2) {
            p.setProperty(Topology.PREFIX + keyValues[i], keyValues[i + 1]);
        }
        return p;
    }

    @Test
    void known_regions_take_their_dc_and_exchanges_from_the_catalogue() {
        Topology t = Topology.fromProperties(props("regions", "sydney,nvirginia",
                "region.sydney.kafka", "127.0.1.100:9092"), SymbolDirectory.standard());
        assertThat(t.regions()).extracting(Topology.RegionEndpoints::dataCenter)
                .containsExactly("SydneyDC", "NorthVirginiaDC");
        assertThat(t.homeOfExchange("NASDAQ").orElseThrow().name()).isEqualTo("nvirginia");
        assertThat(t.region("sydney").orElseThrow().kafkaBootstrap()).isEqualTo("127.0.1.100:9092");
    }

    @Test
    void a_third_region_is_configuration_only() {
        Topology t = Topology.fromProperties(props("regions", "sydney,nvirginia,frankfurt"), SymbolDirectory.standard());
        assertThat(t.homeOfExchange("XETR").orElseThrow().dataCenter()).isEqualTo("FrankfurtDC");
    }

    @Test
    void round_trips_through_properties() {
        Topology t = Topology.fromProperties(props("regions", "sydney,nvirginia",
                "region.nvirginia.cassandra", "127.0.2.1:9042,127.0.2.2:9042",
                "region.nvirginia.replication-factor", "3"), SymbolDirectory.standard());
        Topology again = Topology.fromProperties(t.toProperties(), SymbolDirectory.standard());
        assertThat(again.regions()).isEqualTo(t.regions());
        assertThat(again.region("nvirginia").orElseThrow().cassandraContactPoints()).hasSize(2);
    }

    @Test
    void rejects_unknown_regions_and_exchanges_owned_twice() {
        assertThatThrownBy(() -> Topology.fromProperties(props("regions", "mars"), SymbolDirectory.standard()))
                .hasMessageContaining("unknown region 'mars'");
        assertThatThrownBy(() -> Topology.fromProperties(props("regions", "sydney,nvirginia",
                "region.sydney.exchanges", "ASX,NYSE"), SymbolDirectory.standard()))
                .hasMessageContaining("exchange NYSE is owned by both");
    }
}
