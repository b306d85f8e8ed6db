package io.geobroker.broker.matching;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.cql.BoundStatement;
import com.datastax.oss.driver.api.core.cql.PreparedStatement;
import com.datastax.oss.driver.api.core.cql.Row;
import com.datastax.oss.driver.api.core.uuid.Uuids;
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
    private PreparedStatement markProcessed;

    @BeforeAll
    void start(StackContext context) {
        session = context.session("nvirginia");
        insertOrder = session.prepare("INSERT INTO customer_orders (customer_id, order_id, client_order_id, status, "
                + "filled_quantity, reject_reason, limit_price) VALUES (?, ?, ?, ?, ?, ?, ?)");
        markProcessed = session.prepare("UPDATE order_inbox SET processed = true "
                + "WHERE home_region = ? AND minute = ? AND placed_at = ? AND order_id = ?");
    }

    @Test
    void a_packed_statement_reads_its_values_and_routes_as_the_driver_does() {
        BoundStatement single = insertOrder.bind("kept-" + UUID.randomUUID(), UUID.randomUUID(), "", "OPEN", 7L, null, 1234L)
                .unset(6);
        BoundStatement composite = markProcessed.bind("nvirginia", 29_000_000L, Uuids.timeBased(), UUID.randomUUID());

        KeptStatement kept = KeptStatement.of(single);

        assertThat(kept.size()).isEqualTo(7);
        assertThat(kept.value(0)).isEqualTo(single.getBytesUnsafe(0));
        assertThat(kept.value(4)).isEqualTo(single.getBytesUnsafe(4));
        assertThat(kept.value(2)).as("an empty string").isEqualTo(single.getBytesUnsafe(2)).isNotNull();
        assertThat(kept.isSet(5)).as("a NULL is set").isTrue();
        assertThat(kept.value(5)).as("a NULL").isNull();
        assertThat(kept.isSet(6)).isFalse();
        assertThat(kept.value(6)).as("unset").isNull();
        assertThat(kept.routingKey()).as("one partition key column").isEqualTo(single.getRoutingKey());
        assertThat(KeptStatement.of(composite).routingKey()).as("a composite partition key")
                .isEqualTo(composite.getRoutingKey());
        assertThat(KeptStatement.of(composite.unset(1)).routingKey()).as("a partition key not all bound").isNull();
    }

    @Test
    void bound_to_another_form_a_packed_statement_keeps_its_values_shifted_and_unset_values_unset() {
        PreparedStatement stamped = session.prepare("INSERT INTO customer_orders (customer_id, order_id, client_order_id, "
                + "status, filled_quantity, reject_reason, limit_price) VALUES (?, ?, ?, ?, ?, ?, ?) USING TIMESTAMP ?");
        String customer = "kept-" + UUID.randomUUID();
        UUID order = UUID.randomUUID();
        session.execute(insertOrder.bind(customer, order, "c1", "OPEN", 0L, "reason", 500L).setQueryTimestamp(1_000L));
        KeptStatement kept = KeptStatement.of(insertOrder.bind(customer, order, "c1", "FILLED", 10L, null, 0L).unset(6));

        BoundStatement s = TimestampedForms.bind(kept, stamped, false, 2_000L);
        session.execute(s);

        assertThat(kept.sizeInBatch()).as("the size the driver measures").isEqualTo(s.computeSizeInBytes(session.getContext()));
        PreparedStatement stampedFirst = session.prepare("UPDATE order_inbox USING TIMESTAMP ? SET processed = true "
                + "WHERE home_region = ? AND minute = ? AND placed_at = ? AND order_id = ?");
        KeptStatement mark = KeptStatement.of(markProcessed.bind("nvirginia", 29_000_000L, Uuids.timeBased(), order));
        assertThat(mark.sizeInBatch()).as("another shape's size")
                .isEqualTo(TimestampedForms.bind(mark, stampedFirst, true, 3_000L).computeSizeInBytes(session.getContext()));
        assertThat(s.getPreparedStatement()).isSameAs(stamped);
        assertThat(s.getLong(7)).isEqualTo(2_000L);
        assertThat(s.isSet(6)).isFalse();
        Row r = session.execute("SELECT status, reject_reason, limit_price, writetime(status) AS w FROM customer_orders "
                + "WHERE customer_id = ? AND order_id = ?", customer, order).one();
        assertThat(r.getString("status")).isEqualTo("FILLED");
        assertThat(r.isNull("reject_reason")).isTrue();
        assertThat(r.getLong("limit_price")).isEqualTo(500L);
        assertThat(r.getLong("w")).isEqualTo(2_000L);
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

    @Test
    void bound_without_nulls_a_statement_leaves_each_null_unset_and_binds_the_rest_as_bind_does() {
        String customer = "kept-" + UUID.randomUUID();
        UUID order = UUID.randomUUID();
        BoundStatement bound = insertOrder.bind(customer, order, "c1", "FILLED", 10L, null, null);

        BoundStatement withoutNulls = EngineStore.bindWithoutNulls(insertOrder, customer, order, "c1", "FILLED", 10L,
                null, null);

        assertThat(withoutNulls.isSet(5)).as("a null left unset").isFalse();
        assertThat(withoutNulls.isSet(6)).as("a null left unset").isFalse();
        for (int i = 0; i < 5; i++) {
            assertThat(withoutNulls.isSet(i)).as("value %d set", i).isTrue();
            assertThat(withoutNulls.getBytesUnsafe(i)).as("value %d", i).isEqualTo(bound.getBytesUnsafe(i));
        }
        assertThat(withoutNulls.getRoutingKey()).isEqualTo(bound.getRoutingKey());
        assertThat(withoutNulls.isIdempotent()).isEqualTo(bound.isIdempotent());
        assertThat(withoutNulls.getConsistencyLevel()).isEqualTo(bound.getConsistencyLevel());

        session.execute(insertOrder.bind(customer, order, "c1", "OPEN", 0L, "reason", 500L).setQueryTimestamp(1_000L));
        session.execute(withoutNulls.setQueryTimestamp(2_000L));
        Row r = session.execute("SELECT status, filled_quantity, reject_reason, limit_price FROM customer_orders "
                + "WHERE customer_id = ? AND order_id = ?", customer, order).one();
        assertThat(r.getString("status")).isEqualTo("FILLED");
        assertThat(r.getLong("filled_quantity")).isEqualTo(10L);
        assertThat(r.getString("reject_reason")).as("an unset column keeps its cell").isEqualTo("reason");
        assertThat(r.getLong("limit_price")).as("an unset column keeps its cell").isEqualTo(500L);
    }
}
