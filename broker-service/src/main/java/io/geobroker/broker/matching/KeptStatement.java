package io.geobroker.broker.matching;

import com.datastax.oss.driver.api.core.cql.BoundStatement;
import com.datastax.oss.driver.api.core.cql.BoundStatementBuilder;
import com.datastax.oss.driver.api.core.cql.PreparedStatement;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

/**
 * A statement kept to be written later, in three objects: its prepared statement, its bound values
 * packed in one array, and their lengths. The {@link Projection} keeps a logged group's statements
 * so until its round writes them, and the resend window ({@link HealResend}) keeps them so to write
 * them again after a cut link.
 *
 * <p>A bound statement holds each value in a buffer and an array of its own: ~50 objects and ~2 KB
 * of heap for an order's row of 24 columns, where its values are ~300 bytes. The resend window keeps
 * every engine write other regions read for 10 s, long enough for those objects to reach the old
 * generation: at ~1,800 acknowledged orders a second the window's statements held ~87 MB of the
 * broker's 175 MB live heap. Packed, the live heap at the same point of the same run was 118 MB
 * (docs/results.md).
 *
 * @param lengths each value's length in {@code values}, in order; {@value #NULL} for a CQL NULL,
 *                {@value #UNSET} for a value left unset (which overwrites nothing)
 */
record KeptStatement(PreparedStatement prepared, byte[] values, int[] lengths) {

    static final int NULL = -1;
    static final int UNSET = -2;
    /** What a kept statement holds besides its values: the record, the arrays' headers. */
    private static final int OVERHEAD_BYTES = 64;
    /** What a bound statement's request size counts besides its id and values ({@link #sizeInBatch}). */
    private static final int STATEMENT_BYTES = 51;

    /** The statement's prepared statement and values, copied. */
    static KeptStatement of(BoundStatement statement) {
        int[] lengths = new int[statement.size()];
        int total = 0;
        for (int i = 0; i < lengths.length; i++) {
            if (!statement.isSet(i)) {
                lengths[i] = UNSET;
                continue;
            }
            ByteBuffer value = statement.getBytesUnsafe(i);
            lengths[i] = value == null ? NULL : value.remaining();
            total += Math.max(0, lengths[i]);
        }
        byte[] values = new byte[total];
        int offset = 0;
        for (int i = 0; i < lengths.length; i++) {
            if (lengths[i] > 0) {
                ByteBuffer value = statement.getBytesUnsafe(i);
                if (value.hasArray()) {
                    System.arraycopy(value.array(), value.arrayOffset() + value.position(), values, offset, lengths[i]);
                } else {
                    value.duplicate().get(values, offset, lengths[i]);
                }
                offset += lengths[i];
            }
        }
        return new KeptStatement(statement.getPreparedStatement(), values, lengths);
    }

    static List<KeptStatement> of(List<BoundStatement> statements) {
        List<KeptStatement> kept = new ArrayList<>(statements.size());
        for (BoundStatement s : statements) {
            kept.add(of(s));
        }
        return kept;
    }

    /** The statement bound again: the same prepared statement and values, unset values unset. */
    BoundStatement bound() {
        return bindTo(prepared, 0).build();
    }

    /** How many values the statement binds. */
    int size() {
        return lengths.length;
    }

    /** Whether value {@code i} is set (a CQL NULL is set; an unset value overwrites nothing). */
    boolean isSet(int i) {
        return lengths[i] != UNSET;
    }

    /** Value {@code i} as a buffer over the packed values, or null when it is a CQL NULL or unset. */
    ByteBuffer value(int i) {
        if (lengths[i] < 0) {
            return null;
        }
        int offset = 0;
        for (int j = 0; j < i; j++) {
            offset += Math.max(0, lengths[j]);
        }
        return ByteBuffer.wrap(values).slice(offset, lengths[i]);
    }

    /**
     * The statement's values bound to {@code form} at their positions plus {@code shift}, unset values
     * unset; the builder is the caller's to complete ({@link TimestampedForms#bind}).
     */
    BoundStatementBuilder bindTo(PreparedStatement form, int shift) {
        BoundStatementBuilder builder = form.boundStatementBuilder();
        ByteBuffer all = ByteBuffer.wrap(values);
        int offset = 0;
        for (int i = 0; i < lengths.length; i++) {
            if (lengths[i] == NULL) {
                builder.setBytesUnsafe(i + shift, null);
            } else if (lengths[i] >= 0) {
                builder.setBytesUnsafe(i + shift, all.slice(offset, lengths[i]));
                offset += lengths[i];
            }
        }
        return builder;
    }

    /**
     * The key of the partition the statement writes, as the driver routes a bound statement: the one
     * partition key value, or the values composed (each as a 2-byte length, the value and a 0 byte);
     * null when the statement does not bind its whole partition key.
     */
    ByteBuffer routingKey() {
        List<Integer> indices = prepared.getPartitionKeyIndices();
        if (indices.isEmpty()) {
            return null;
        }
        if (indices.size() == 1) {
            return value(indices.get(0));
        }
        ByteBuffer[] components = new ByteBuffer[indices.size()];
        int total = 0;
        for (int c = 0; c < components.length; c++) {
            components[c] = value(indices.get(c));
            if (components[c] == null) {
                return null;
            }
            total += 2 + components[c].remaining() + 1;
        }
        ByteBuffer key = ByteBuffer.allocate(total);
        for (ByteBuffer component : components) {
            key.putShort((short) component.remaining()).put(component).put((byte) 0);
        }
        return key.flip();
    }

    /**
     * About the bytes the statement takes in a request once bound to its {@link TimestampedForms}
     * form, as {@link EngineStore#sizeOf} measures a bound statement: its prepared id, each value with
     * its length, the timestamp value, and what every statement carries. What a projection's batches
     * are sized by, without binding them first.
     */
    int sizeInBatch() {
        int size = STATEMENT_BYTES + prepared.getId().remaining() + 4 + 8;
        for (int length : lengths) {
            size += 4 + Math.max(0, length);
        }
        return size;
    }

    static List<BoundStatement> bound(List<KeptStatement> kept) {
        List<BoundStatement> statements = new ArrayList<>(kept.size());
        for (KeptStatement k : kept) {
            statements.add(k.bound());
        }
        return statements;
    }

    /** The heap a kept statement takes, about: what the resend window's byte limit counts. */
    long bytes() {
        return OVERHEAD_BYTES + values.length + 4L * lengths.length;
    }

    static long bytes(List<KeptStatement> kept) {
        long bytes = 0;
        for (KeptStatement k : kept) {
            bytes += k.bytes();
        }
        return bytes;
    }
}
