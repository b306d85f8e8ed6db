package io.geobroker.schema;

import com.datastax.oss.driver.api.core.servererrors.InvalidConfigurationInQueryException;
import org.junit.jupiter.api.Test;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class SchemaToolTest {

    private static final Map<String, String> VALUES = Map.of("keyspace", "geobroker", "replication", "{...}");

    @Test
    void a_script_is_applied_once_with_the_keyspaces_values() {
        Migration script = new Migration(3, "tables", "CREATE TABLE ${keyspace}.t (k int PRIMARY KEY);");

        assertThat(SchemaTool.valuesOf(script, "geobroker", dcs(), VALUES)).containsExactly(VALUES);
    }

    @Test
    void a_script_naming_a_dcs_keyspace_is_applied_once_per_dc_replicated_there_only() {
        Migration script = new Migration(14, "own", "CREATE KEYSPACE ${dc_keyspace} WITH replication = ${dc_replication};");

        List<Map<String, String>> each = SchemaTool.valuesOf(script, "geobroker", dcs(), VALUES);

        assertThat(each).hasSize(2);
        assertThat(each.get(0)).containsEntry("keyspace", "geobroker").containsEntry("dc_keyspace", "geobroker_sydneydc")
                .containsEntry("dc_replication", "{'class': 'NetworkTopologyStrategy', 'SydneyDC': 3}");
        assertThat(each.get(1)).containsEntry("dc_keyspace", "geobroker_northvirginiadc")
                .containsEntry("dc_replication", "{'class': 'NetworkTopologyStrategy', 'NorthVirginiaDC': 1}");
        assertThat(CqlScript.substitute(script.text(), each.get(1)))
                .isEqualTo("CREATE KEYSPACE geobroker_northvirginiadc WITH replication = "
                        + "{'class': 'NetworkTopologyStrategy', 'NorthVirginiaDC': 1};");
    }

    @Test
    void a_replication_map_naming_a_dc_not_known_yet_is_told_apart_from_other_refusals() {
        assertThat(SchemaTool.namesUnknownDataCenter(new InvalidConfigurationInQueryException(null,
                "Unrecognized strategy option {NorthVirginiaDC} passed to NetworkTopologyStrategy for keyspace geobroker")))
                .isTrue();
        assertThat(SchemaTool.namesUnknownDataCenter(new InvalidConfigurationInQueryException(null,
                "Replication factor must be non-negative; found -1"))).isFalse();
    }

    private static Map<String, Integer> dcs() {
        Map<String, Integer> rf = new LinkedHashMap<>();
        rf.put("SydneyDC", 3);
        rf.put("NorthVirginiaDC", 1);
        return rf;
    }
}
