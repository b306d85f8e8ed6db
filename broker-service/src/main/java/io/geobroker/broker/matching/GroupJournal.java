package io.geobroker.broker.matching;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.DefaultConsistencyLevel;
import com.datastax.oss.driver.api.core.cql.BoundStatement;
import com.datastax.oss.driver.api.core.cql.BoundStatementBuilder;
import com.datastax.oss.driver.api.core.cql.PreparedStatement;
import com.datastax.oss.driver.api.core.cql.Row;
import com.datastax.oss.protocol.internal.ProtocolConstants;

import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The redo journal of a commit group too large for one logged batch (schema V003,
 * {@code engine_journal}). Cassandra refuses logged batches over its
 * {@code batch_size_fail_threshold}, so such a group is applied in several batches; writing the
 * whole group here first, as single-partition writes that no batch limit applies to, lets a broker
 * that crashed between those batches finish the group when it starts again.
 *
 * <p>A group's statements (CQL text and bound values) are serialized into one blob and cut into
 * parts of at most {@link #PART_BYTES}, so no single mutation comes near Cassandra's limit of half a
 * commitlog segment, whatever the group's size. The parts go first, then the static header
 * ({@code group_timestamp}, {@code parts}) that makes the journal pending; {@link #clear} sets
 * {@code parts} to 0 once the group is applied. Nothing is ever deleted: the region's one partition
 * holds overwritten cells, not tombstones, and parts of older groups are recognised by their
 * {@code part_timestamp} and ignored.
 */
final class GroupJournal {

    /** Largest journal part, in bytes: one mutation each. */
    static final int PART_BYTES = 512 * 1024;
    private static final int FORMAT = 1;
    private static final int NULL = -1;
    private static final int UNSET = -2;

    /** One statement of a group: its CQL text and its bound values as sent (null is a CQL NULL). */
    record Entry(String query, List<ByteBuffer> values) {

        static Entry of(BoundStatement statement) {
            List<ByteBuffer> values = new ArrayList<>(statement.size());
            for (int i = 0; i < statement.size(); i++) {
                values.add(statement.isSet(i) ? statement.getBytesUnsafe(i) : ProtocolConstants.UNSET_VALUE);
            }
            return new Entry(statement.getPreparedStatement().getQuery(), values);
        }
    }

    /** A group whose journal was written but not cleared: it may have been applied only in part. */
    record Pending(long timestamp, List<Entry> entries) {
    }

    private final CqlSession session;
    private final String region;
    private final PreparedStatement insertPart;
    private final PreparedStatement setHeader;
    private final PreparedStatement clearHeader;
    private final PreparedStatement selectHeader;
    private final PreparedStatement selectParts;
    private final Map<String, PreparedStatement> prepared = new HashMap<>();

    GroupJournal(CqlSession session, String region) {
        this.session = session;
        this.region = region;
        insertPart = session.prepare("INSERT INTO engine_journal (region, part, part_timestamp, statements) "
                + "VALUES (?, ?, ?, ?)");
        setHeader = session.prepare("UPDATE engine_journal SET group_timestamp = ?, parts = ? WHERE region = ?");
        clearHeader = session.prepare("UPDATE engine_journal SET parts = 0 WHERE region = ?");
        selectHeader = session.prepare("SELECT group_timestamp, parts FROM engine_journal WHERE region = ? LIMIT 1");
        selectParts = session.prepare("SELECT part, part_timestamp, statements FROM engine_journal "
                + "WHERE region = ? AND part < ?");
    }

    /**
     * Writes the group's statements, then the header that makes them pending, at LOCAL_QUORUM with
     * the group's write timestamp. Throws if a write fails; writing again is safe.
     */
    void write(List<BoundStatement> statements, long timestamp) {
        List<Entry> entries = new ArrayList<>(statements.size());
        statements.forEach(s -> entries.add(Entry.of(s)));
        List<ByteBuffer> parts = split(encode(entries), PART_BYTES);
        for (int i = 0; i < parts.size(); i++) {
            session.execute(insertPart.bind(region, i, timestamp, parts.get(i))
                    .setConsistencyLevel(DefaultConsistencyLevel.LOCAL_QUORUM)
                    .setQueryTimestamp(timestamp).setIdempotent(true));
        }
        session.execute(setHeader.bind(timestamp, parts.size(), region)
                .setConsistencyLevel(DefaultConsistencyLevel.LOCAL_QUORUM)
                .setQueryTimestamp(timestamp).setIdempotent(true));
    }

    /** Marks the journal applied; {@code timestamp} must be later than the group's. */
    void clear(long timestamp) {
        session.execute(clearHeader.bind(region)
                .setConsistencyLevel(DefaultConsistencyLevel.LOCAL_QUORUM)
                .setQueryTimestamp(timestamp).setIdempotent(true));
    }

    /** The region's pending group, if a broker stopped before clearing it. */
    Optional<Pending> pending() {
        Row header = session.execute(selectHeader.bind(region)
                .setConsistencyLevel(DefaultConsistencyLevel.LOCAL_QUORUM)).one();
        if (header == null || header.isNull("parts") || header.getInt("parts") == 0) {
            return Optional.empty();
        }
        long timestamp = header.getLong("group_timestamp");
        int count = header.getInt("parts");
        ByteBuffer[] parts = new ByteBuffer[count];
        for (Row row : session.execute(selectParts.bind(region, count)
                .setConsistencyLevel(DefaultConsistencyLevel.LOCAL_QUORUM).setPageSize(4))) {
            if (row.getLong("part_timestamp") == timestamp) {
                parts[row.getInt("part")] = row.getByteBuffer("statements");
            }
        }
        for (int i = 0; i < count; i++) {
            if (parts[i] == null) {
                throw new IllegalStateException("the journal of group " + timestamp + " of " + region
                        + " lacks part " + i + " of " + count);
            }
        }
        return Optional.of(new Pending(timestamp, decode(join(List.of(parts)))));
    }

    /** Statements ready to execute again, prepared from their CQL text with their original values. */
    List<BoundStatement> bind(List<Entry> entries) {
        List<BoundStatement> statements = new ArrayList<>(entries.size());
        for (Entry e : entries) {
            BoundStatementBuilder builder = prepared.computeIfAbsent(e.query(), session::prepare).boundStatementBuilder();
            for (int i = 0; i < e.values().size(); i++) {
                ByteBuffer value = e.values().get(i);
                if (value != ProtocolConstants.UNSET_VALUE) {
                    builder.setBytesUnsafe(i, value == null ? null : value.duplicate());
                }
            }
            statements.add(builder.build());
        }
        return statements;
    }

    // ---- serialization: [format][count] then per statement [query length][query UTF-8][values][(length, bytes)...]

    static byte[] encode(List<Entry> entries) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(entries.size() * 256);
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            out.writeInt(FORMAT);
            out.writeInt(entries.size());
            for (Entry e : entries) {
                byte[] query = e.query().getBytes(StandardCharsets.UTF_8);
                out.writeInt(query.length);
                out.write(query);
                out.writeInt(e.values().size());
                for (ByteBuffer value : e.values()) {
                    writeValue(out, value);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return bytes.toByteArray();
    }

    static List<Entry> decode(ByteBuffer blob) {
        ByteBuffer in = blob.duplicate();
        int format = in.getInt();
        if (format != FORMAT) {
            throw new IllegalStateException("unknown journal format " + format);
        }
        int count = in.getInt();
        List<Entry> entries = new ArrayList<>(count);
        for (int n = 0; n < count; n++) {
            byte[] query = new byte[in.getInt()];
            in.get(query);
            int size = in.getInt();
            List<ByteBuffer> values = new ArrayList<>(size);
            for (int i = 0; i < size; i++) {
                values.add(readValue(in));
            }
            entries.add(new Entry(new String(query, StandardCharsets.UTF_8), values));
        }
        if (in.hasRemaining()) {
            throw new IllegalStateException("journal blob has " + in.remaining() + " bytes after its last statement");
        }
        return entries;
    }

    /** One bound value: its length and bytes, or -1 for null, -2 for unset. */
    static void writeValue(DataOutputStream out, ByteBuffer value) throws IOException {
        if (value == null) {
            out.writeInt(NULL);
        } else if (value == ProtocolConstants.UNSET_VALUE) {
            out.writeInt(UNSET);
        } else if (value.hasArray()) {
            // straight from the codec's array: no view and no copy of a value per value
            out.writeInt(value.remaining());
            out.write(value.array(), value.arrayOffset() + value.position(), value.remaining());
        } else {
            ByteBuffer v = value.duplicate();
            out.writeInt(v.remaining());
            byte[] raw = new byte[v.remaining()];
            v.get(raw);
            out.write(raw);
        }
    }

    /** The value {@link #writeValue} wrote at {@code in}'s position. */
    static ByteBuffer readValue(ByteBuffer in) {
        int length = in.getInt();
        if (length == NULL) {
            return null;
        }
        if (length == UNSET) {
            return ProtocolConstants.UNSET_VALUE;
        }
        byte[] raw = new byte[length];
        in.get(raw);
        return ByteBuffer.wrap(raw);
    }

    static List<ByteBuffer> split(byte[] blob, int partBytes) {
        List<ByteBuffer> parts = new ArrayList<>();
        for (int from = 0; from < blob.length; from += partBytes) {
            parts.add(ByteBuffer.wrap(blob, from, Math.min(partBytes, blob.length - from)).slice());
        }
        return parts;
    }

    static ByteBuffer join(List<ByteBuffer> parts) {
        int size = parts.stream().mapToInt(ByteBuffer::remaining).sum();
        ByteBuffer blob = ByteBuffer.allocate(size);
        parts.forEach(p -> blob.put(p.duplicate()));
        return blob.flip();
    }
}
