package io.geobroker.broker.matching;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.cql.BoundStatement;
import com.datastax.oss.driver.api.core.cql.PreparedStatement;
import com.datastax.oss.driver.api.core.cql.Row;
import io.geobroker.testsupport.StackContext;
import io.geobroker.testsupport.WithLocalStack;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import java.util.List;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The packed form of the statements a heal writes again ({@link KeptStatement}), against a real
 * Cassandra node: bound again, a statement has its prepared statement and every value as it was,
 * a NULL still deletes and an unset value still overwrites nothing.
 */
@WithLocalStack
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class KeptStatementIT {

    private CqlSession session;
    private PreparedStatement insertOrder;

    @BeforeAll
    void start(StackContext context) {
        session = context.session("nvirginia");
        insertOrder = session.prepare("INSERT INTO customer_orders (customer_id, order_id, client_order_id, status, "
                + "filled_quantity, reject_reason, limit_price) VALUES (?, ?, ?, ?, ?, ?, ?)");
    }

    @Test
    void bound_again_a_statement_has_its_values_as_they_were() {
        BoundStatement original = insertOrder.bind("kept-" + UUID.randomUUID(), UUID.randomUUID(), "", "OPEN", 7L, null, 1234L)
                .unset(6);

        KeptStatement kept = KeptStatement.of(original);
        BoundStatement again = kept.bound();

        assertThat(again.getPreparedStatement()).isSameAs(insertOrder);
        assertThat(again.size()).isEqualTo(original.size());
        for (int i = 0; i < original.size(); i++) {
            assertThat(again.isSet(i)).as("value %d set", i).isEqualTo(original.isSet(i));
            if (original.isSet(i)) {
                assertThat(again.getBytesUnsafe(i)).as("value %d", i).isEqualTo(original.getBytesUnsafe(i));
            }
        }
        assertThat(again.getString(2)).as("an empty string is not a NULL").isEmpty();
        assertThat(again.isNull(5)).isTrue();
        assertThat(again.isSet(6)).isFalse();
        assertThat(KeptStatement.bound(List.of(kept, kept))).hasSize(2);
        long values = 0;
        for (int i = 0; i < original.size(); i++) {
            values += original.isSet(i) && original.getBytesUnsafe(i) != null ? original.getBytesUnsafe(i).remaining() : 0;
        }
        assertThat(kept.bytes()).isEqualTo(64 + values + 4L * original.size());
    }

    @Test
    void written_again_a_null_deletes_and_an_unset_value_overwrites_nothing() {
        String customer = "kept-" + UUID.randomUUID();
        UUID order = UUID.randomUUID();
        session.execute(insertOrder.bind(customer, order, "c1", "OPEN", 0L, "reason", 500L).setQueryTimestamp(1_000L));
        BoundStatement later = insertOrder.bind(customer, order, "c1", "FILLED", 10L, null, 0L).unset(6)
                .setQueryTimestamp(2_000L);

        session.execute(KeptStatement.of(later).bound().setQueryTimestamp(2_000L));

        Row r = session.execute("SELECT status, filled_quantity, reject_reason, limit_price FROM customer_orders "
                + "WHERE customer_id = ? AND order_id = ?", customer, order).one();
        assertThat(r.getString("status")).isEqualTo("FILLED");
        assertThat(r.getLong("filled_quantity")).isEqualTo(10L);
        assertThat(r.isNull("reject_reason")).as("the NULL written again deletes the cell").isTrue();
        assertThat(r.getLong("limit_price")).as("the unset value leaves the cell alone").isEqualTo(500L);
    }
}
