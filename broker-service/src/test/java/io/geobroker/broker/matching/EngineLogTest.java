package io.geobroker.broker.matching;

import com.datastax.oss.protocol.internal.ProtocolConstants;
import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class EngineLogTest {

    private static ByteBuffer utf8(String s) {
        return ByteBuffer.wrap(s.getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void a_group_survives_the_round_trip_with_its_texts_as_numbers() {
        String state = "INSERT INTO symbol_state (symbol, generation) VALUES (?, ?)";
        String cash = "INSERT INTO cash (customer_id, currency, available, reserved) VALUES (?, ?, ?, ?)";
        List<String> numbered = List.of(cash, state);
        List<GroupJournal.Entry> entries = List.of(
                new GroupJournal.Entry(state, Arrays.asList(utf8("AAPL"), ByteBuffer.wrap(new byte[] {0, 0, 0, 3}))),
                new GroupJournal.Entry(cash, Arrays.asList(utf8("alice"), utf8("USD"), null, ProtocolConstants.UNSET_VALUE)));

        byte[] blob = EngineLog.encode(1_700_000_000_123_456L, entries, numbered::indexOf);
        EngineLog.Logged decoded = EngineLog.decode(42, ByteBuffer.wrap(blob), numbered::get);

        assertThat(decoded.seq()).isEqualTo(42);
        assertThat(decoded.timestamp()).isEqualTo(1_700_000_000_123_456L);
        assertThat(decoded.entries()).isEqualTo(entries);
        assertThat(decoded.entries().get(1).values().get(3)).isSameAs(ProtocolConstants.UNSET_VALUE);
        assertThat(blob.length).as("no text in the blob").isLessThan(cash.length());
        assertThat(EngineLog.encodeWithTexts(1_700_000_000_123_456L, entries).length - blob.length)
                .as("what the numbers save").isGreaterThan(state.length() + cash.length());
        assertThatThrownBy(() -> EngineLog.decode(42, ByteBuffer.wrap(blob), n -> n == 0 ? cash : null))
                .hasMessageContaining("names CQL text 1, which engine_log_queries does not hold");
    }

    @Test
    void a_group_of_the_first_format_is_still_read_with_each_query_text_stored_once() {
        String state = "INSERT INTO symbol_state (symbol, generation) VALUES (?, ?)";
        String delete = "DELETE FROM symbol_orders WHERE symbol = ? AND generation = ? AND order_id = ?";
        List<GroupJournal.Entry> entries = List.of(
                new GroupJournal.Entry(state, Arrays.asList(utf8("AAPL"), ByteBuffer.wrap(new byte[] {0, 0, 0, 3}))),
                new GroupJournal.Entry(delete, Arrays.asList(utf8("AAPL"), null, ProtocolConstants.UNSET_VALUE)),
                new GroupJournal.Entry(state, Arrays.asList(utf8("MSFT"), ByteBuffer.allocate(0))));

        byte[] blob = EngineLog.encodeWithTexts(1_700_000_000_123_456L, entries);
        EngineLog.Logged decoded = EngineLog.decode(42, ByteBuffer.wrap(blob), n -> null);

        assertThat(decoded.seq()).isEqualTo(42);
        assertThat(decoded.timestamp()).isEqualTo(1_700_000_000_123_456L);
        assertThat(decoded.entries()).isEqualTo(entries);
        assertThat(decoded.entries().get(1).values().get(1)).isNull();
        assertThat(decoded.entries().get(1).values().get(2)).isSameAs(ProtocolConstants.UNSET_VALUE);
        int textBytes = state.length() + delete.length();
        assertThat(blob.length).isLessThan(textBytes + 120);
    }

    @Test
    void a_blob_with_trailing_bytes_or_another_format_is_refused() {
        byte[] blob = EngineLog.encode(1, List.of(), q -> 0);
        ByteBuffer longer = ByteBuffer.allocate(blob.length + 1).put(blob).put((byte) 0).flip();
        assertThatThrownBy(() -> EngineLog.decode(7, longer, n -> null)).hasMessageContaining("after its last statement");

        ByteBuffer other = ByteBuffer.wrap(blob.clone()).putInt(0, 99);
        assertThatThrownBy(() -> EngineLog.decode(7, other, n -> null)).hasMessageContaining("unknown engine log format 99");
    }

    @Test
    void the_log_is_in_the_keyspace_of_the_dc_the_broker_uses_unless_one_is_configured() {
        assertThat(EngineLog.keyspaceOf("geobroker", "SydneyDC", "")).isEqualTo("geobroker_sydneydc");
        assertThat(EngineLog.keyspaceOf("geobroker", "NorthVirginiaDC", null)).isEqualTo("geobroker_northvirginiadc");
        assertThat(EngineLog.keyspaceOf("geobroker", "SydneyDC", "geobroker")).isEqualTo("geobroker");
    }

    @Test
    void slots_wrap_around_the_ring() {
        assertThat(EngineLog.slotOf(1)).isEqualTo(1);
        assertThat(EngineLog.slotOf(EngineLog.SLOTS)).isZero();
        assertThat(EngineLog.slotOf(EngineLog.SLOTS * 3L + 5)).isEqualTo(5);
    }

    @Test
    void statements_get_their_own_timestamp_marker_first_in_a_delete_or_update_and_last_in_an_insert() {
        assertThat(EngineStore.withTimestamp("INSERT INTO t (a, b) VALUES (?, ?)"))
                .isEqualTo("INSERT INTO t (a, b) VALUES (?, ?) USING TIMESTAMP ?");
        assertThat(EngineStore.timestampFirst("INSERT INTO t (a, b) VALUES (?, ?)")).isFalse();
        assertThat(EngineStore.withTimestamp("DELETE FROM t WHERE a = ? AND b < ?"))
                .isEqualTo("DELETE FROM t USING TIMESTAMP ? WHERE a = ? AND b < ?");
        assertThat(EngineStore.withTimestamp("UPDATE t SET a = ?, b = ? WHERE c = ?"))
                .isEqualTo("UPDATE t USING TIMESTAMP ? SET a = ?, b = ? WHERE c = ?");
        assertThat(EngineStore.timestampFirst("UPDATE t SET a = ? WHERE c = ?")).isTrue();
        for (String cannot : List.of("SELECT a FROM t WHERE b = ?", "INSERT INTO t (a) VALUES (?) IF NOT EXISTS",
                "INSERT INTO t (a) VALUES (?) USING TTL 10", "UPDATE t SET a = ? WHERE b = ? IF a = ?",
                "UPDATE t USING TTL 5 SET a = ? WHERE b = ?", "DELETE FROM t USING TIMESTAMP 1 WHERE a = ?")) {
            assertThatThrownBy(() -> EngineStore.withTimestamp(cannot)).as(cannot)
                    .isInstanceOf(IllegalArgumentException.class);
        }
    }
}
