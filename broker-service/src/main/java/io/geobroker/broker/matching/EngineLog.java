package io.geobroker.broker.matching;

import com.datastax.oss.driver.api.core.CqlIdentifier;
import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.DefaultConsistencyLevel;
import com.datastax.oss.driver.api.core.cql.BoundStatement;
import com.datastax.oss.driver.api.core.cql.PreparedStatement;
import com.datastax.oss.driver.api.core.cql.Row;
import io.geobroker.domain.Keyspaces;

import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.IntFunction;
import java.util.function.ToIntFunction;

/**
 * The region's redo log (schema V011, {@code engine_log}; since V014 in the keyspace of the DC the
 * broker uses, replicated to that DC only): a ring of {@link #SLOTS} slots in the region's
 * partition. A group commit puts its statements in the slot of its sequence number, all of
 * them (its customers' rows too, with {@code log-customer-rows}) in one single-partition write, or
 * its symbol statements in the same batch as its customers' rows; the {@link Projection} writes them
 * to their tables later and then records the last group it wrote as {@code projected_seq}. At start,
 * {@link #unprojected} returns the groups after it, to be written before the engine reads any state.
 *
 * <p>A slot's blob (format 2): the format, the group's write timestamp, then each statement as the
 * number of its CQL text in the region's {@code engine_log_queries} (V013: given the first time the
 * text is logged, before the slot that uses it) and its bound values (as sent; unset and null kept
 * apart). Format 1, which carried the group's distinct CQL texts instead of their numbers, is still
 * read.
 */
final class EngineLog {

    /** Slots in the ring: the most groups that may wait for their projection. */
    static final int SLOTS = 1024;
    private static final int FORMAT_TEXTS = 1;
    private static final int FORMAT_NUMBERS = 2;
    /** Query numbers are written as two bytes. */
    private static final int MAX_QUERIES = Short.MAX_VALUE;
    /** Slots read per query at start. */
    private static final int READ_SLOTS = 16;
    /**
     * Most groups whose writes may be under way at once ({@link Writing}): how far beyond the last
     * group in order a start looks for slots a crash left there.
     */
    static final int MAX_GROUPS_IN_FLIGHT = 64;

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
    private final String keyspace;
    private final boolean inOwnDc;
    private final PreparedStatement insertSlot;
    private final PreparedStatement setProjected;
    private final PreparedStatement selectProjected;
    private final PreparedStatement selectSlots;
    private final PreparedStatement selectWritten;
    private final PreparedStatement deleteSlot;
    private final PreparedStatement insertQuery;
    private final PreparedStatement selectQueries;
    /** The region's query numbers, both ways; read at start (or the first slot), then grown here. */
    private final Map<String, Integer> numbers = new HashMap<>();
    private final Map<Integer, String> texts = new HashMap<>();
    private int nextNumber;
    private boolean numbersRead;

    /** The region's log in {@code keyspace}'s {@code engine_log}. */
    EngineLog(CqlSession session, String region, String keyspace) {
        this.session = session;
        this.region = region;
        this.keyspace = keyspace;
        this.inOwnDc = !keyspace.equals(session.getKeyspace().map(CqlIdentifier::asInternal).orElse(""));
        String table = keyspace + ".engine_log";
        insertSlot = session.prepare("INSERT INTO " + table + " (region, slot, seq, statements) VALUES (?, ?, ?, ?)");
        setProjected = session.prepare("UPDATE " + table + " SET projected_seq = ? WHERE region = ?");
        selectProjected = session.prepare("SELECT projected_seq FROM " + table + " WHERE region = ? LIMIT 1");
        selectSlots = session.prepare("SELECT slot, seq, statements FROM " + table + " WHERE region = ? AND slot >= ? "
                + "AND slot < ?");
        selectWritten = session.prepare("SELECT slot, seq, WRITETIME(statements) AS written FROM " + table
                + " WHERE region = ? AND slot >= ? AND slot < ?");
        deleteSlot = session.prepare("DELETE FROM " + table + " USING TIMESTAMP ? WHERE region = ? AND slot = ?");
        insertQuery = session.prepare("INSERT INTO engine_log_queries (region, id, text) VALUES (?, ?, ?) IF NOT EXISTS");
        selectQueries = session.prepare("SELECT id, text FROM engine_log_queries WHERE region = ?");
    }

    /**
     * The keyspace of the log: the DC's own (V014, {@link Keyspaces#ofDataCenter}) of the session's
     * keyspace and of the DC the broker uses (its region's, or another's in remote-DC mode), unless
     * {@code configured} names one.
     */
    static String keyspaceOf(String sessionKeyspace, String dataCenter, String configured) {
        if (configured != null && !configured.isBlank()) {
            return configured;
        }
        return Keyspaces.ofDataCenter(sessionKeyspace, dataCenter);
    }

    /** The keyspace whose {@code engine_log} this log is. */
    String keyspace() {
        return keyspace;
    }

    /**
     * Whether the log is in a keyspace of the DC's own (V014) rather than the session's, which every
     * DC replicates: its slots then cross no WAN.
     */
    boolean inOwnDc() {
        return inOwnDc;
    }

    static int slotOf(long seq) {
        return (int) Math.floorMod(seq, (long) SLOTS);
    }

    /**
     * The slot row of group {@code seq}, for the group's own batch (it carries the batch's timestamp).
     * A CQL text logged for the first time gets its number first (a lightweight transaction).
     */
    BoundStatement slot(long seq, long timestamp, List<BoundStatement> statements) {
        List<GroupJournal.Entry> entries = new ArrayList<>(statements.size());
        statements.forEach(s -> entries.add(GroupJournal.Entry.of(s)));
        return insertSlot.bind(region, slotOf(seq), seq, ByteBuffer.wrap(encode(timestamp, entries, this::number)));
    }

    /** The number of a CQL text, given now if it has none. */
    private synchronized int number(String text) {
        if (!numbersRead) {
            readNumbers();
        }
        Integer number = numbers.get(text);
        while (number == null) {
            if (nextNumber >= MAX_QUERIES) {
                throw new IllegalStateException("the engine log has numbered " + MAX_QUERIES + " CQL texts already");
            }
            int candidate = nextNumber;
            Row r = session.execute(insertQuery.bind(region, candidate, text)
                    .setConsistencyLevel(DefaultConsistencyLevel.LOCAL_QUORUM)
                    .setSerialConsistencyLevel(DefaultConsistencyLevel.LOCAL_SERIAL)).one();
            if (r != null && r.getBoolean("[applied]")) {
                remember(candidate, text);
                number = candidate;
            } else {
                readNumbers();
                number = numbers.get(text);
            }
        }
        return number;
    }

    /** Reads the region's query numbers (at start, before the log: its slots name texts by them). */
    private synchronized void readNumbers() {
        for (Row r : session.execute(selectQueries.bind(region).setConsistencyLevel(DefaultConsistencyLevel.LOCAL_QUORUM))) {
            remember(r.getInt("id"), r.getString("text"));
        }
        numbersRead = true;
    }

    private void remember(int number, String text) {
        numbers.putIfAbsent(text, number);
        texts.put(number, text);
        nextNumber = Math.max(nextNumber, number + 1);
    }

    private synchronized String text(int number) {
        return texts.get(number);
    }

    /** Records that every group up to {@code seq} is in its tables; {@code timestamp} increases with seq. */
    void projected(long seq, long timestamp) {
        session.execute(setProjected.bind(seq, region)
                .setConsistencyLevel(DefaultConsistencyLevel.LOCAL_QUORUM)
                .setQueryTimestamp(timestamp).setIdempotent(true));
    }

    /** The groups logged after the last projected one, read at LOCAL_QUORUM. */
    Unprojected unprojected() {
        readNumbers();
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
                groups.add(decode(expected, blob, this::text));
                if (groups.size() == SLOTS) {
                    break;
                }
            }
        }
        return new Unprojected(projected, groups);
    }

    /**
     * Deletes the slots of groups after {@code lastSeq}, the last group a start found in order. With
     * several groups' writes under way, a crash may leave a later group's slot without an earlier
     * one's; nothing of that group was answered or published, and the start does not replay it (the
     * log ends at the missing slot). Left in place it would pass for the group of its number once the
     * new run's groups are written up to the slot before it, and a later start would replay it. The
     * deletions are timestamped past those slots' writes.
     *
     * @return the deletions' timestamp (every later write of the log must be after it), or -1 when
     *         there was nothing to delete
     */
    long clearBeyond(long lastSeq) {
        Set<Integer> stale = new HashSet<>();
        long latest = -1;
        long first = lastSeq + 1;
        long end = first + MAX_GROUPS_IN_FLIGHT;
        for (long from = first; from < end; ) {
            int fromSlot = slotOf(from);
            int toSlot = (int) Math.min(SLOTS, fromSlot + (end - from));
            for (Row r : session.execute(selectWritten.bind(region, fromSlot, toSlot)
                    .setConsistencyLevel(DefaultConsistencyLevel.LOCAL_QUORUM))) {
                if (!r.isNull("seq") && r.getLong("seq") > lastSeq && !r.isNull("written")) {
                    stale.add(r.getInt("slot"));
                    latest = Math.max(latest, r.getLong("written"));
                }
            }
            from += toSlot - fromSlot;
        }
        if (stale.isEmpty()) {
            return -1;
        }
        long timestamp = latest + 1;
        for (int slot : stale) {
            session.execute(deleteSlot.bind(timestamp, region, slot)
                    .setConsistencyLevel(DefaultConsistencyLevel.LOCAL_QUORUM).setIdempotent(true));
        }
        return timestamp;
    }

    // ---- serialization

    /** A group's blob in format 2: its statements' texts by number ({@code numberOf}). */
    static byte[] encode(long timestamp, List<GroupJournal.Entry> entries, ToIntFunction<String> numberOf) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(64 + entries.size() * 96);
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            out.writeInt(FORMAT_NUMBERS);
            out.writeLong(timestamp);
            writeStatements(out, entries, numberOf);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return bytes.toByteArray();
    }

    /** A group's blob in format 1, each distinct text carried once: what slots held before V013. */
    static byte[] encodeWithTexts(long timestamp, List<GroupJournal.Entry> entries) {
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
            out.writeInt(FORMAT_TEXTS);
            out.writeLong(timestamp);
            out.writeInt(texts.size());
            for (String text : texts) {
                byte[] utf8 = text.getBytes(StandardCharsets.UTF_8);
                out.writeInt(utf8.length);
                out.write(utf8);
            }
            writeStatements(out, entries, queries::get);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return bytes.toByteArray();
    }

    /** The statements' count, then each as the number of its text and its bound values. */
    private static void writeStatements(DataOutputStream out, List<GroupJournal.Entry> entries,
                                        ToIntFunction<String> numberOf) throws IOException {
        out.writeInt(entries.size());
        for (GroupJournal.Entry e : entries) {
            out.writeShort(numberOf.applyAsInt(e.query()));
            out.writeShort(e.values().size());
            for (ByteBuffer value : e.values()) {
                GroupJournal.writeValue(out, value);
            }
        }
    }

    /** A slot's group, in either format; {@code textOf} gives the text of a number (null: none). */
    static Logged decode(long seq, ByteBuffer blob, IntFunction<String> textOf) {
        ByteBuffer in = blob.duplicate();
        int format = in.getInt();
        if (format != FORMAT_TEXTS && format != FORMAT_NUMBERS) {
            throw new IllegalStateException("unknown engine log format " + format + " in group " + seq);
        }
        long timestamp = in.getLong();
        IntFunction<String> query = textOf;
        if (format == FORMAT_TEXTS) {
            String[] texts = new String[in.getInt()];
            for (int i = 0; i < texts.length; i++) {
                byte[] utf8 = new byte[in.getInt()];
                in.get(utf8);
                texts[i] = new String(utf8, StandardCharsets.UTF_8);
            }
            query = i -> texts[i];
        }
        int count = in.getInt();
        List<GroupJournal.Entry> entries = new ArrayList<>(count);
        for (int n = 0; n < count; n++) {
            int number = in.getShort();
            String text = query.apply(number);
            if (text == null) {
                throw new IllegalStateException("engine log group " + seq + " names CQL text " + number
                        + ", which engine_log_queries does not hold");
            }
            int size = in.getShort();
            List<ByteBuffer> values = new ArrayList<>(size);
            for (int i = 0; i < size; i++) {
                values.add(GroupJournal.readValue(in));
            }
            entries.add(new GroupJournal.Entry(text, values));
        }
        if (in.hasRemaining()) {
            throw new IllegalStateException("engine log group " + seq + " has " + in.remaining()
                    + " bytes after its last statement");
        }
        return new Logged(seq, timestamp, entries);
    }
}
