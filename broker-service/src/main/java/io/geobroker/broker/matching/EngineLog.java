package io.geobroker.broker.matching;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.DefaultConsistencyLevel;
import com.datastax.oss.driver.api.core.cql.BoundStatement;
import com.datastax.oss.driver.api.core.cql.PreparedStatement;
import com.datastax.oss.driver.api.core.cql.Row;

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

/**
 * The region's redo log of symbol statements (schema V011, {@code engine_log}): a ring of
 * {@link #SLOTS} slots in the region's partition. A group commit puts its symbol statements in the
 * slot of its sequence number, in the same batch as its customers' rows, so they are durable
 * together; the {@link Projection} writes them to their tables later and then records the last
 * group it wrote as {@code projected_seq}. At start, {@link #unprojected} returns the groups after
 * it, to be written before the engine reads the symbols' state.
 *
 * <p>A slot's blob: the format, the group's write timestamp, the distinct CQL texts, then each
 * statement as the index of its text and its bound values (as sent; unset and null kept apart).
 */
final class EngineLog {

    /** Slots in the ring: the most groups that may wait for their projection. */
    static final int SLOTS = 1024;
    private static final int FORMAT = 1;
    /** Slots read per query at start. */
    private static final int READ_SLOTS = 16;

    /** A group read back from its slot. */
    record Logged(long seq, long timestamp, List<GroupJournal.Entry> entries) {
    }

    /** What a start finds: the last projected group and the groups after it, in order. */
    record Unprojected(long projectedSeq, List<Logged> groups) {
        long lastSeq() {
            return groups.isEmpty() ? projectedSeq : groups.get(groups.size() - 1).seq();
        }
    }

    private final CqlSession session;
    private final String region;
    private final PreparedStatement insertSlot;
    private final PreparedStatement setProjected;
    private final PreparedStatement selectProjected;
    private final PreparedStatement selectSlots;

    EngineLog(CqlSession session, String region) {
        this.session = session;
        this.region = region;
        insertSlot = session.prepare("INSERT INTO engine_log (region, slot, seq, statements) VALUES (?, ?, ?, ?)");
        setProjected = session.prepare("UPDATE engine_log SET projected_seq = ? WHERE region = ?");
        selectProjected = session.prepare("SELECT projected_seq FROM engine_log WHERE region = ? LIMIT 1");
        selectSlots = session.prepare("SELECT slot, seq, statements FROM engine_log WHERE region = ? AND slot >= ? "
                + "AND slot < ?");
    }

    static int slotOf(long seq) {
        return (int) Math.floorMod(seq, (long) SLOTS);
    }

    /** The slot row of group {@code seq}, for the group's own batch (it carries the batch's timestamp). */
    BoundStatement slot(long seq, long timestamp, List<BoundStatement> statements) {
        List<GroupJournal.Entry> entries = new ArrayList<>(statements.size());
        statements.forEach(s -> entries.add(GroupJournal.Entry.of(s)));
        return insertSlot.bind(region, slotOf(seq), seq, ByteBuffer.wrap(encode(timestamp, entries)));
    }

    /** Records that every group up to {@code seq} is in its tables; {@code timestamp} increases with seq. */
    void projected(long seq, long timestamp) {
        session.execute(setProjected.bind(seq, region)
                .setConsistencyLevel(DefaultConsistencyLevel.LOCAL_QUORUM)
                .setQueryTimestamp(timestamp).setIdempotent(true));
    }

    /** The groups logged after the last projected one, read at LOCAL_QUORUM. */
    Unprojected unprojected() {
        Row header = session.execute(selectProjected.bind(region)
                .setConsistencyLevel(DefaultConsistencyLevel.LOCAL_QUORUM)).one();
        long projected = header == null || header.isNull("projected_seq") ? 0 : header.getLong("projected_seq");
        List<Logged> groups = new ArrayList<>();
        long expected = projected + 1;
        while (groups.size() < SLOTS) {
            int from = slotOf(expected);
            int to = Math.min(SLOTS, from + READ_SLOTS);
            Map<Integer, Row> rows = new HashMap<>();
            for (Row r : session.execute(selectSlots.bind(region, from, to)
                    .setConsistencyLevel(DefaultConsistencyLevel.LOCAL_QUORUM))) {
                rows.put(r.getInt("slot"), r);
            }
            for (int slot = from; slot < to; slot++, expected++) {
                Row r = rows.get(slot);
                if (r == null || r.isNull("seq") || r.getLong("seq") != expected) {
                    return new Unprojected(projected, groups);
                }
                ByteBuffer blob = r.getByteBuffer("statements");
                groups.add(decode(expected, blob));
                if (groups.size() == SLOTS) {
                    break;
                }
            }
        }
        return new Unprojected(projected, groups);
    }

    // ---- serialization

    static byte[] encode(long timestamp, List<GroupJournal.Entry> entries) {
        Map<String, Integer> queries = new HashMap<>();
        List<String> texts = new ArrayList<>();
        for (GroupJournal.Entry e : entries) {
            queries.computeIfAbsent(e.query(), q -> {
                texts.add(q);
                return texts.size() - 1;
            });
        }
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(512 + entries.size() * 96);
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            out.writeInt(FORMAT);
            out.writeLong(timestamp);
            out.writeInt(texts.size());
            for (String text : texts) {
                byte[] utf8 = text.getBytes(StandardCharsets.UTF_8);
                out.writeInt(utf8.length);
                out.write(utf8);
            }
            out.writeInt(entries.size());
            for (GroupJournal.Entry e : entries) {
                out.writeShort(queries.get(e.query()));
                out.writeShort(e.values().size());
                for (ByteBuffer value : e.values()) {
                    GroupJournal.writeValue(out, value);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return bytes.toByteArray();
    }

    static Logged decode(long seq, ByteBuffer blob) {
        ByteBuffer in = blob.duplicate();
        int format = in.getInt();
        if (format != FORMAT) {
            throw new IllegalStateException("unknown engine log format " + format + " in group " + seq);
        }
        long timestamp = in.getLong();
        String[] texts = new String[in.getInt()];
        for (int i = 0; i < texts.length; i++) {
            byte[] utf8 = new byte[in.getInt()];
            in.get(utf8);
            texts[i] = new String(utf8, StandardCharsets.UTF_8);
        }
        int count = in.getInt();
        List<GroupJournal.Entry> entries = new ArrayList<>(count);
        for (int n = 0; n < count; n++) {
            String query = texts[in.getShort()];
            int size = in.getShort();
            List<ByteBuffer> values = new ArrayList<>(size);
            for (int i = 0; i < size; i++) {
                values.add(GroupJournal.readValue(in));
            }
            entries.add(new GroupJournal.Entry(query, values));
        }
        if (in.hasRemaining()) {
            throw new IllegalStateException("engine log group " + seq + " has " + in.remaining()
                    + " bytes after its last statement");
        }
        return new Logged(seq, timestamp, entries);
    }
}
