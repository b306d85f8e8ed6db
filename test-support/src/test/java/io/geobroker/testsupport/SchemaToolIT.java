package io.geobroker.testsupport;

import static org.assertj.core.api.Assertions.assertThat;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.cql.Row;
import com.datastax.oss.driver.api.core.cql.SimpleStatement;
import io.geobroker.schema.SchemaTool;
import java.time.Duration;
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
    void the_command_line_applies_the_schema_from_a_topology_file(StackContext stack) {
        String keyspace = stack.keyspace() + "_cli";
        CqlSession session = stack.session("nvirginia");
        session.execute(SimpleStatement.newInstance("DROP KEYSPACE IF EXISTS " + keyspace).setTimeout(Duration.ofSeconds(60)));

        int exit = SchemaTool.run("apply", "--topology", stack.workDir().resolve("topology.properties").toString(),
                "--keyspace", keyspace);

        assertThat(exit).isZero();
        SchemaTool.awaitSchemaAgreement(session);
        assertThat(session.getMetadata().getKeyspace(keyspace)).isPresent();
        assertThat(session.getMetadata().getKeyspace(keyspace).orElseThrow().getReplication())
                .containsEntry("class", "org.apache.cassandra.locator.NetworkTopologyStrategy")
                .containsEntry("SydneyDC", "1").containsEntry("NorthVirginiaDC", "1");
        session.execute(SimpleStatement.newInstance("DROP KEYSPACE " + keyspace).setTimeout(Duration.ofSeconds(60)));
    }
}
