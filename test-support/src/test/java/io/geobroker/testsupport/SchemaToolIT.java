package io.geobroker.testsupport;

import static org.assertj.core.api.Assertions.assertThat;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.cql.Row;
import com.datastax.oss.driver.api.core.metadata.schema.KeyspaceMetadata;
import io.geobroker.domain.Keyspaces;
import io.geobroker.schema.SchemaTool;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The schema tool on the real cluster: versions recorded, nothing applied twice, the command line. */
@WithLocalStack
class SchemaToolIT {

    @Test
    void records_applied_versions_and_applies_nothing_the_second_time(StackContext stack) {
        CqlSession session = stack.session("sydney");

        List<Integer> again = SchemaTool.apply(session, stack.keyspace(), SchemaTool.replicationOf(stack.topology()));

        assertThat(again).isEmpty();
        List<Row> versions = session.execute("SELECT version, name, checksum FROM schema_version").all();
        assertThat(versions).extracting(r -> r.getInt("version")).contains(1);
        assertThat(versions).allSatisfy(r -> assertThat(r.getString("checksum")).hasSize(16));
        assertThat(session.getMetadata().getKeyspace(stack.keyspace()).orElseThrow().getTable("customer_orders")).isPresent();
    }

    @Test
    void each_dc_has_a_keyspace_of_its_own_replicated_there_only_for_the_engine_log(StackContext stack) {
        CqlSession session = stack.session("sydney");

        for (String dc : List.of("SydneyDC", "NorthVirginiaDC")) {
            KeyspaceMetadata own = session.getMetadata().getKeyspace(Keyspaces.ofDataCenter(stack.keyspace(), dc)).orElseThrow();
            assertThat(own.getReplication()).containsEntry("class", "org.apache.cassandra.locator.NetworkTopologyStrategy")
                    .containsEntry(dc, "1").hasSize(2);
            assertThat(own.getTable("engine_log")).isPresent();
        }
    }

    @Test
    void the_command_line_applies_the_schema_from_a_topology_file(StackContext stack) {
        String keyspace = stack.keyspace() + "_cli";
        CqlSession session = stack.session("nvirginia");
        LocalStackExtension.drop(session, keyspace, stack.topology());

        int exit = SchemaTool.run("apply", "--topology", stack.workDir().resolve("topology.properties").toString(),
                "--keyspace", keyspace);

        assertThat(exit).isZero();
        SchemaTool.awaitSchemaAgreement(session);
        assertThat(session.getMetadata().getKeyspace(keyspace)).isPresent();
        assertThat(session.getMetadata().getKeyspace(keyspace).orElseThrow().getReplication())
                .containsEntry("class", "org.apache.cassandra.locator.NetworkTopologyStrategy")
                .containsEntry("SydneyDC", "1").containsEntry("NorthVirginiaDC", "1");
        assertThat(session.getMetadata().getKeyspace(Keyspaces.ofDataCenter(keyspace, "NorthVirginiaDC"))).isPresent();
        LocalStackExtension.drop(session, keyspace, stack.topology());
    }
}
