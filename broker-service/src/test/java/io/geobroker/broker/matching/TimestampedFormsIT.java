package io.geobroker.broker.matching;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.DefaultConsistencyLevel;
import com.datastax.oss.driver.api.core.cql.BatchStatement;
import com.datastax.oss.driver.api.core.cql.BatchType;
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
 * The forms a heal's resend writes kept statements in ({@link TimestampedForms}, {@link ResendPlan}),
 * against a real Cassandra node: each statement of a coalesced batch lands at its own group's
 * timestamp with its own values, unset values overwrite nothing, and later writes still win.
 */
@WithLocalStack
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class TimestampedFormsIT {

    private CqlSession session;
    private TimestampedForms forms;
    private PreparedStatement insertCash;
    private PreparedStatement updateOrder;
    private PreparedStatement insertOrder;
    private PreparedStatement deleteFillsBefore;

    @BeforeAll
    void start(StackContext context) {
        session = context.session("nvirginia");
        forms = new TimestampedForms(session);
        insertCash = session.prepare("INSERT INTO cash (customer_id, currency, available, reserved) VALUES (?, ?, ?, ?)");
        updateOrder = session.prepare("UPDATE customer_orders SET status = ?, filled_quantity = ?, reject_reason = ? "
                + "WHERE customer_id = ? AND order_id = ?");
        insertOrder = session.prepare("INSERT INTO customer_orders (customer_id, order_id, status, filled_quantity, "
                + "reject_reason) VALUES (?, ?, ?, ?, ?)");
        deleteFillsBefore = session.prepare("DELETE FROM symbol_fills WHERE symbol = ? AND ticker_sequence < ?");
    }

    private void write(List<BoundStatement> statements) {
        session.execute(BatchStatement.newInstance(BatchType.UNLOGGED).addAll(statements)
                .setConsistencyLevel(DefaultConsistencyLevel.LOCAL_QUORUM));
    }

    private BoundStatement at(BoundStatement s, long timestamp) {
        forms.prepare(List.of(s));
        BoundStatement t = forms.at(s, timestamp);
        assertThat(t).as("a timestamped form of %s", s.getPreparedStatement().getQuery()).isNotNull();
        return t;
    }

    @Test
    void statements_of_several_groups_in_one_batch_keep_each_its_own_timestamp_and_values() {
        String customer = "tf-" + UUID.randomUUID();
        // the later group's row comes first in the batch: the timestamps decide, not the order
        write(List.of(at(insertCash.bind(customer, "USD", 300L, 30L), 3_000_000L),
                at(insertCash.bind(customer, "USD", 100L, 10L), 1_000_000L),
                at(insertCash.bind(customer, "AUD", 200L, 20L), 2_000_000L)));

        Row usd = session.execute("SELECT available, reserved, WRITETIME(available) AS written FROM cash "
                + "WHERE customer_id = ? AND currency = 'USD'", customer).one();
        assertThat(usd.getLong("available")).isEqualTo(300);
        assertThat(usd.getLong("reserved")).isEqualTo(30);
        assertThat(usd.getLong("written")).isEqualTo(3_000_000L);
        Row aud = session.execute("SELECT available, WRITETIME(available) AS written FROM cash "
                + "WHERE customer_id = ? AND currency = 'AUD'", customer).one();
        assertThat(aud.getLong("available")).isEqualTo(200);
        assertThat(aud.getLong("written")).isEqualTo(2_000_000L);

        // written again later at the older timestamp, as a resend does: what was written after it stays
        write(List.of(at(insertCash.bind(customer, "USD", 100L, 10L), 1_000_000L)));
        assertThat(session.execute("SELECT available FROM cash WHERE customer_id = ? AND currency = 'USD'", customer)
                .one().getLong("available")).isEqualTo(300);
    }

    @Test
    void an_update_in_its_timestamped_form_sets_what_was_set_and_leaves_unset_columns_alone() {
        String customer = "tf-" + UUID.randomUUID();
        UUID order = UUID.randomUUID();
        session.execute(insertOrder.bind(customer, order, "OPEN", 0L, "kept").setQueryTimestamp(1_000L));
        BoundStatement update = updateOrder.bind().setString(0, "FILLED").setLong(1, 10L)
                .setString(3, customer).setUuid(4, order);
        assertThat(update.isSet(2)).as("reject_reason left unset").isFalse();

        write(List.of(at(update, 5_000L)));

        Row r = session.execute("SELECT status, filled_quantity, reject_reason, WRITETIME(status) AS written, "
                + "WRITETIME(reject_reason) AS reason_written FROM customer_orders WHERE customer_id = ? AND order_id = ?",
                customer, order).one();
        assertThat(r.getString("status")).isEqualTo("FILLED");
        assertThat(r.getLong("filled_quantity")).isEqualTo(10);
        assertThat(r.getLong("written")).isEqualTo(5_000L);
        assertThat(r.getString("reject_reason")).isEqualTo("kept");
        assertThat(r.getLong("reason_written")).isEqualTo(1_000L);
    }

    @Test
    void a_deletion_in_its_timestamped_form_removes_only_what_was_written_before_it() {
        String symbol = "TF" + UUID.randomUUID().toString().substring(0, 6);
        PreparedStatement insertFill = session.prepare("INSERT INTO symbol_fills (symbol, ticker_sequence, fill_id) "
                + "VALUES (?, ?, ?)");
        session.execute(insertFill.bind(symbol, 1L, UUID.randomUUID()).setQueryTimestamp(1_000L));
        session.execute(insertFill.bind(symbol, 2L, UUID.randomUUID()).setQueryTimestamp(9_000L));

        write(List.of(at(deleteFillsBefore.bind(symbol, 5L), 5_000L)));

        List<Long> left = session.execute("SELECT ticker_sequence FROM symbol_fills WHERE symbol = ?", symbol).all()
                .stream().map(row -> row.getLong("ticker_sequence")).toList();
        assertThat(left).as("the fill written after the deletion stays").containsExactly(2L);
    }

    @Test
    void a_statement_with_its_own_timestamp_is_kept_and_one_that_cannot_carry_one_is_not_converted() {
        PreparedStatement own = session.prepare("INSERT INTO cash (customer_id, currency, available, reserved) "
                + "VALUES (?, ?, ?, ?) USING TIMESTAMP ?");
        BoundStatement carrying = own.bind("tf-own", "USD", 1L, 0L, 7L);
        forms.prepare(List.of(carrying));
        assertThat(forms.at(carrying, 99L)).isSameAs(carrying);

        PreparedStatement conditional = session.prepare("INSERT INTO cash (customer_id, currency, available, reserved) "
                + "VALUES (?, ?, ?, ?) IF NOT EXISTS");
        BoundStatement lwt = conditional.bind("tf-lwt", "USD", 1L, 0L);
        forms.prepare(List.of(lwt));
        assertThat(forms.at(lwt, 99L)).isNull();
    }

    @Test
    void a_row_is_told_by_its_form_and_primary_key_and_its_cells_by_what_is_set() {
        UUID order = UUID.randomUUID();
        BoundStatement filled = updateOrder.bind("FILLED", 10L, null, "tf-row", order);
        BoundStatement partly = updateOrder.bind().setString(0, "PARTIALLY_FILLED").setString(3, "tf-row").setUuid(4, order);
        BoundStatement other = updateOrder.bind("FILLED", 10L, null, "tf-row", UUID.randomUUID());

        assertThat(forms.row(filled)).isNotNull().isEqualTo(forms.row(partly)).isNotEqualTo(forms.row(other));
        assertThat(forms.cells(filled)).as("status, filled_quantity and reject_reason (set to null)").isEqualTo(0b111);
        assertThat(forms.cells(partly)).as("status only").isEqualTo(0b001);

        BoundStatement usd = insertCash.bind("tf-row", "USD", 1L, 2L);
        assertThat(forms.row(usd)).isEqualTo(forms.row(insertCash.bind("tf-row", "USD", 5L, 6L)))
                .isNotEqualTo(forms.row(insertCash.bind("tf-row", "AUD", 1L, 2L)));
        assertThat(forms.cells(usd)).as("available and reserved, not the key").isEqualTo(0b1100);
        assertThat(forms.row(deleteFillsBefore.bind("TF", 5L))).as("a deletion names no row").isNull();
    }
}
