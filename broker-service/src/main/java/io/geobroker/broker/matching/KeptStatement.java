package io.geobroker.broker.matching;

import com.datastax.oss.driver.api.core.cql.BoundStatement;
import com.datastax.oss.driver.api.core.cql.BoundStatementBuilder;
import com.datastax.oss.driver.api.core.cql.PreparedStatement;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

/**
 * A statement kept to be written again after a cut link ({@link HealResend}), in three objects: its
 * prepared statement, its bound values packed in one array, and their lengths.
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
        BoundStatementBuilder builder = prepared.boundStatementBuilder();
        int offset = 0;
        for (int i = 0; i < lengths.length; i++) {
            if (lengths[i] == NULL) {
                builder.setBytesUnsafe(i, null);
            } else if (lengths[i] >= 0) {
                builder.setBytesUnsafe(i, ByteBuffer.wrap(values, offset, lengths[i]).slice());
                offset += lengths[i];
            }
        }
        return builder.build();
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
