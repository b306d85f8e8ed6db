package io.geobroker.broker.matching;

import com.datastax.oss.driver.api.core.cql.BoundStatement;
import com.datastax.oss.driver.api.core.cql.PreparedStatement;
import com.datastax.oss.protocol.internal.ProtocolConstants;
import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.when;

class GroupJournalTest {

    private static ByteBuffer bytes(int... values) {
        byte[] raw = new byte[values.length];
        for (int i = 0; i < values.length; i++) {
            raw[i] = (byte) values[i];
        }
        return ByteBuffer.wrap(raw);
    }

    private static List<GroupJournal.Entry> sample() {
        // A value that is a slice in the middle of a larger buffer, as the driver's codecs may hand out.
        ByteBuffer wide = ByteBuffer.wrap("xxpayloadxx".getBytes(StandardCharsets.UTF_8));
        wide.position(2).limit(9);
        return List.of(
                new GroupJournal.Entry("INSERT INTO cash (customer_id, currency, available, reserved) VALUES (?, ?, ?, ?)",
                        Arrays.asList(bytes('c', '1'), bytes('U', 'S', 'D'), bytes(0, 0, 0, 0, 0, 0, 0x27, 0x10),
                                bytes(0, 0, 0, 0, 0, 0, 0, 0))),
                new GroupJournal.Entry("UPDATE orders SET reject_reason = ? WHERE order_id = ?",
                        Arrays.asList(null, wide.slice())),
                new GroupJournal.Entry("DELETE FROM symbol_orders WHERE symbol = ? AND generation = ? AND order_id = ? -- é€",
                        Arrays.asList(ByteBuffer.allocate(0), ProtocolConstants.UNSET_VALUE, bytes(0xff))),
                new GroupJournal.Entry("SELECT now() FROM system.local", List.of()));
    }

    @Test
    void statements_survive_the_round_trip_with_nulls_unset_and_empty_values() {
        List<GroupJournal.Entry> entries = sample();

        List<GroupJournal.Entry> decoded = GroupJournal.decode(ByteBuffer.wrap(GroupJournal.encode(entries)));

        assertThat(decoded).isEqualTo(entries);
        assertThat(decoded.get(1).values().get(0)).isNull();
        assertThat(decoded.get(1).values().get(1)).isEqualTo(ByteBuffer.wrap("payload".getBytes(StandardCharsets.UTF_8)));
        assertThat(decoded.get(2).values().get(0).remaining()).isZero();
        assertThat(decoded.get(2).values().get(1)).isSameAs(ProtocolConstants.UNSET_VALUE);
    }

    @Test
    void encoding_leaves_the_bound_values_untouched() {
        List<GroupJournal.Entry> entries = sample();
        ByteBuffer value = entries.get(1).values().get(1);
        int position = value.position();

        GroupJournal.encode(entries);
        GroupJournal.encode(entries);

        assertThat(value.position()).isEqualTo(position);
        assertThat(value.remaining()).isEqualTo(7);
    }

    @Test
    void a_value_is_written_from_its_position_to_its_limit_whatever_lies_around_it_in_its_array() {
        ByteBuffer atTwo = ByteBuffer.wrap("xxpayloadxx".getBytes(StandardCharsets.UTF_8));
        atTwo.position(2).limit(9);
        ByteBuffer sliceAtOne = ByteBuffer.wrap("ypayloadyy".getBytes(StandardCharsets.UTF_8)).position(1).slice();
        sliceAtOne.limit(7);
        List<GroupJournal.Entry> entries = List.of(new GroupJournal.Entry("INSERT INTO t (a, b) VALUES (?, ?)",
                Arrays.asList(atTwo, sliceAtOne)));

        List<GroupJournal.Entry> decoded = GroupJournal.decode(ByteBuffer.wrap(GroupJournal.encode(entries)));

        ByteBuffer payload = ByteBuffer.wrap("payload".getBytes(StandardCharsets.UTF_8));
        assertThat(decoded.get(0).values()).containsExactly(payload, payload);
        assertThat(atTwo.position()).isEqualTo(2);
        assertThat(sliceAtOne.position()).isZero();
    }

    @Test
    void a_blob_cut_into_parts_joins_back_whatever_the_part_size() {
        List<GroupJournal.Entry> entries = new ArrayList<>();
        for (int i = 0; i < 500; i++) {
            entries.add(new GroupJournal.Entry("INSERT INTO t (k, v) VALUES (?, ?)",
                    List.of(bytes(i & 0xff, i >> 8), ByteBuffer.wrap(new byte[i]))));
        }
        byte[] blob = GroupJournal.encode(entries);
        for (int partBytes : new int[]{1, 7, 4096, blob.length - 1, blob.length, blob.length + 1}) {
            List<ByteBuffer> parts = GroupJournal.split(blob, partBytes);

            assertThat(parts).hasSize((blob.length + partBytes - 1) / partBytes);
            assertThat(parts).allSatisfy(p -> assertThat(p.remaining()).isBetween(1, partBytes));
            assertThat(GroupJournal.decode(GroupJournal.join(parts))).isEqualTo(entries);
        }
    }

    @Test
    void parts_stay_under_the_part_limit() {
        byte[] blob = new byte[3 * GroupJournal.PART_BYTES + 5];

        List<ByteBuffer> parts = GroupJournal.split(blob, GroupJournal.PART_BYTES);

        assertThat(parts).extracting(ByteBuffer::remaining)
                .containsExactly(GroupJournal.PART_BYTES, GroupJournal.PART_BYTES, GroupJournal.PART_BYTES, 5);
    }

    @Test
    void a_bound_statement_is_captured_with_its_query_and_raw_values() {
        PreparedStatement prepared = mock(PreparedStatement.class);
        when(prepared.getQuery()).thenReturn("INSERT INTO holdings (customer_id, symbol, available, reserved) VALUES (?, ?, ?, ?)");
        BoundStatement bound = mock(BoundStatement.class);
        when(bound.getPreparedStatement()).thenReturn(prepared);
        when(bound.size()).thenReturn(4);
        when(bound.isSet(0)).thenReturn(true);
        when(bound.isSet(1)).thenReturn(true);
        when(bound.isSet(2)).thenReturn(true);
        when(bound.isSet(3)).thenReturn(false);
        when(bound.getBytesUnsafe(0)).thenReturn(bytes('c'));
        when(bound.getBytesUnsafe(1)).thenReturn(bytes('O', 'R', 'C', 'L'));
        when(bound.getBytesUnsafe(2)).thenReturn(null);

        GroupJournal.Entry entry = GroupJournal.Entry.of(bound);

        assertThat(entry.query()).isEqualTo(prepared.getQuery());
        assertThat(entry.values()).containsExactly(bytes('c'), bytes('O', 'R', 'C', 'L'), null,
                ProtocolConstants.UNSET_VALUE);
    }

    @Test
    void a_damaged_blob_is_refused_rather_than_half_applied() {
        byte[] blob = GroupJournal.encode(sample());
        byte[] longer = Arrays.copyOf(blob, blob.length + 3);
        byte[] wrongFormat = blob.clone();
        wrongFormat[3] = 9;

        assertThatThrownBy(() -> GroupJournal.decode(ByteBuffer.wrap(longer))).isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(() -> GroupJournal.decode(ByteBuffer.wrap(wrongFormat)))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("format");
        assertThatThrownBy(() -> GroupJournal.decode(ByteBuffer.wrap(blob, 0, blob.length - 2)))
                .isInstanceOf(RuntimeException.class);
    }
}
