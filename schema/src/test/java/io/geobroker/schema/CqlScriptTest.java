package io.geobroker.schema;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class CqlScriptTest {

    @Test
    void splits_on_semicolons_outside_comments_and_literals() {
        String script = """
                -- a comment; with a semicolon
                CREATE TABLE a (x int PRIMARY KEY); // another; one
                /* block; comment */ INSERT INTO a (x, s) VALUES (1, 'it''s; fine');
                CREATE TABLE "we;ird" (x int PRIMARY KEY)
                """;
        assertThat(CqlScript.split(script)).containsExactly(
                "CREATE TABLE a (x int PRIMARY KEY)",
                "INSERT INTO a (x, s) VALUES (1, 'it''s; fine')",
                "CREATE TABLE \"we;ird\" (x int PRIMARY KEY)");
    }

    @Test
    void rejects_an_unterminated_literal() {
        assertThatThrownBy(() -> CqlScript.split("INSERT INTO a (s) VALUES ('x);"))
                .hasMessageContaining("unterminated");
    }

    @Test
    void substitutes_placeholders_and_rejects_unknown_ones() {
        assertThat(CqlScript.substitute("CREATE KEYSPACE ${keyspace} WITH replication = ${replication}",
                Map.of("keyspace", "k", "replication", "{'class': 'X'}")))
                .isEqualTo("CREATE KEYSPACE k WITH replication = {'class': 'X'}");
        assertThatThrownBy(() -> CqlScript.substitute("${nope}", Map.of())).hasMessageContaining("${nope}");
    }

    @Test
    void replication_lists_each_data_centre_with_its_factor() {
        Map<String, Integer> rf = new LinkedHashMap<>();
        rf.put("SydneyDC", 3);
        rf.put("NorthVirginiaDC", 1);
        assertThat(SchemaTool.replication(rf))
                .isEqualTo("{'class': 'NetworkTopologyStrategy', 'SydneyDC': 3, 'NorthVirginiaDC': 1}");
        assertThatThrownBy(() -> SchemaTool.replication(Map.of("SydneyDC", 0))).hasMessageContaining("at least 1");
    }

    @Test
    void the_shipped_scripts_are_found_in_order_and_split_into_statements() {
        List<Migration> migrations = Migration.onClassPath(getClass().getClassLoader());
        assertThat(migrations).isNotEmpty();
        assertThat(migrations.get(0).version()).isEqualTo(1);
        String v1 = CqlScript.substitute(migrations.get(0).text(),
                Map.of("keyspace", "k", "replication", "{'class': 'NetworkTopologyStrategy', 'DC1': 1}"));
        List<String> statements = CqlScript.split(v1);
        assertThat(statements.get(0)).startsWith("CREATE KEYSPACE IF NOT EXISTS k");
        assertThat(statements).allSatisfy(s -> assertThat(s).startsWith("CREATE"));
    }
}
