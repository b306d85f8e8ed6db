package io.geobroker.testsupport;

import static org.assertj.core.api.Assertions.assertThat;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.DefaultConsistencyLevel;
import com.datastax.oss.driver.api.core.cql.Row;
import com.datastax.oss.driver.api.core.cql.SimpleStatement;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.ClassOrderer;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestClassOrder;

/**
 * A class gets the keyspace of a class that finished before it, emptied: the first nested class
 * writes rows to two tables, the second one (run after it) is given the same keyspace and finds
 * every table but {@code schema_version} empty, and the applied versions still recorded.
 */
@TestClassOrder(ClassOrderer.OrderAnnotation.class)
class KeyspaceReuseIT {

    private static String firstKeyspace;

    @Nested
    @Order(1)
    @WithLocalStack
    class First {
        @Test
        void writes_rows(StackContext stack) {
            CqlSession session = stack.session("sydney");
            session.execute(SimpleStatement.newInstance(
                    "INSERT INTO customers (customer_id, display_name, created_at) VALUES ('reuse-1', 'Ann', ?)",
                    Instant.now()).setConsistencyLevel(DefaultConsistencyLevel.ALL));
            session.execute(SimpleStatement.newInstance(
                    "INSERT INTO symbol_state (symbol, generation, last_ticker_sequence) VALUES ('IBM', 3, 42)")
                    .setConsistencyLevel(DefaultConsistencyLevel.ALL));
            assertThat(session.execute("SELECT * FROM customers").all()).hasSize(1);
            firstKeyspace = stack.keyspace();
        }
    }

    @Nested
    @Order(2)
    @WithLocalStack
    class Second {
        @Test
        void is_given_the_first_ones_keyspace_with_every_table_empty(StackContext stack) {
            assertThat(firstKeyspace).as("the first class ran").isNotNull();
            assertThat(stack.keyspace()).as("the keyspace the first class gave back").isEqualTo(firstKeyspace);
            for (String region : List.of("sydney", "nvirginia")) {
                CqlSession session = stack.session(region);
                List<String> notEmpty = new ArrayList<>();
                List<String> tables = new ArrayList<>();
                for (Row t : session.execute(SimpleStatement.newInstance(
                        "SELECT table_name FROM system_schema.tables WHERE keyspace_name = ?", stack.keyspace()))) {
                    String table = t.getString("table_name");
                    tables.add(table);
                    if (!table.equals("schema_version") && session.execute(SimpleStatement.newInstance(
                            "SELECT * FROM " + table + " LIMIT 1").setConsistencyLevel(DefaultConsistencyLevel.ALL))
                            .one() != null) {
                        notEmpty.add(table);
                    }
                }
                assertThat(tables).as("the keyspace's tables in %s", region).contains("customers", "symbol_state");
                assertThat(notEmpty).as("tables with rows in %s", region).isEmpty();
                assertThat(session.execute("SELECT version FROM schema_version").all())
                        .as("the applied versions, kept").isNotEmpty();
            }
        }
    }
}
