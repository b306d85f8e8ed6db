package io.geobroker.broker.matching;

import com.datastax.oss.driver.api.core.CqlIdentifier;
import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.cql.ColumnDefinition;
import com.datastax.oss.driver.api.core.cql.ColumnDefinitions;
import com.datastax.oss.driver.api.core.cql.BoundStatement;
import com.datastax.oss.driver.api.core.cql.BoundStatementBuilder;
import com.datastax.oss.driver.api.core.cql.PreparedStatement;
import com.datastax.oss.driver.api.core.metadata.schema.ColumnMetadata;
import com.datastax.oss.driver.api.core.metadata.schema.TableMetadata;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Statements made to carry their own write timestamp ({@code USING TIMESTAMP ?}, {@link
 * EngineStore#withTimestamp}), so that statements of several groups can share one batch and still
 * be written each at its own group's timestamp ({@link ResendPlan}). The forms are prepared once per
 * CQL text, all at once ({@link #prepare}); a statement whose form cannot be made or prepared is not
 * converted. Also tells which row a plain INSERT or UPDATE writes and which of its cells, so that
 * a statement a later one of the same row overwrites whole can be left out.
 */
final class TimestampedForms {

    private static final Logger log = LoggerFactory.getLogger(TimestampedForms.class);

    private final CqlSession session;
    private final Map<String, PreparedStatement> forms = new ConcurrentHashMap<>();
    private final Map<String, Optional<RowShape>> shapes = new ConcurrentHashMap<>();

    TimestampedForms(CqlSession session) {
        this.session = session;
    }

    /** Prepares, all at once, the forms of the statements not prepared yet; waits for them. */
    void prepare(Collection<BoundStatement> statements) {
        prepareForms(statements.stream().map(BoundStatement::getPreparedStatement).distinct().toList());
    }

    /** Prepares, all at once, the forms of the prepared statements whose forms are not prepared yet; waits for them. */
    void prepareForms(Collection<PreparedStatement> statements) {
        Map<String, CompletableFuture<PreparedStatement>> preparing = new HashMap<>();
        for (PreparedStatement s : statements) {
            String cql = s.getQuery();
            if (forms.containsKey(cql) || preparing.containsKey(cql) || carriesOwn(cql)) {
                continue;
            }
            try {
                preparing.put(cql, session.prepareAsync(EngineStore.withTimestamp(cql)).toCompletableFuture());
            } catch (IllegalArgumentException notPlain) {
                preparing.put(cql, CompletableFuture.failedFuture(notPlain));
            }
        }
        preparing.forEach((cql, form) -> {
            try {
                forms.put(cql, form.join());
            } catch (RuntimeException e) {
                log.debug("{} keeps its batch's timestamp: {}", cql, e.toString());
            }
        });
    }

    /** Whether {@link #at} gives the statement a timestamp of its own (its form is prepared, or it carries one). */
    boolean stamps(BoundStatement s) {
        String cql = s.getPreparedStatement().getQuery();
        return carriesOwn(cql) || forms.containsKey(cql);
    }

    /**
     * The statement with {@code timestampMicros} as its own write timestamp, itself if it already
     * carries one, or null if its form is not prepared (or cannot be made).
     */
    BoundStatement at(BoundStatement s, long timestampMicros) {
        String cql = s.getPreparedStatement().getQuery();
        if (carriesOwn(cql)) {
            return s;
        }
        PreparedStatement form = forms.get(cql);
        return form == null ? null : bind(s, form, EngineStore.timestampFirst(cql), timestampMicros);
    }

    /** {@link #at(BoundStatement, long)} for a packed statement: its values bound once, to its form. */
    BoundStatement at(KeptStatement k, long timestampMicros) {
        String cql = k.prepared().getQuery();
        if (carriesOwn(cql)) {
            return k.bound();
        }
        PreparedStatement form = forms.get(cql);
        return form == null ? null : bind(k, form, EngineStore.timestampFirst(cql), timestampMicros);
    }

    /** {@link #bind(BoundStatement, PreparedStatement, boolean, long)} for a packed statement. */
    static BoundStatement bind(KeptStatement k, PreparedStatement form, boolean markerFirst, long timestampMicros) {
        return k.bindTo(form, markerFirst ? 1 : 0).setLong(markerFirst ? 0 : k.size(), timestampMicros).build();
    }

    /**
     * {@code s}'s values bound to {@code form}, its {@link EngineStore#withTimestamp} form whose
     * timestamp marker is the first bound value ({@code markerFirst}) or the last; unset values stay
     * unset, so they overwrite nothing.
     */
    static BoundStatement bind(BoundStatement s, PreparedStatement form, boolean markerFirst, long timestampMicros) {
        BoundStatementBuilder b = form.boundStatementBuilder();
        int shift = markerFirst ? 1 : 0;
        for (int i = 0; i < s.size(); i++) {
            if (s.isSet(i)) {
                b.setBytesUnsafe(i + shift, s.getBytesUnsafe(i));
            }
        }
        b.setLong(markerFirst ? 0 : s.size(), timestampMicros);
        return b.build();
    }

    /**
     * The row the statement writes, as its form and primary key values, if it is a plain INSERT or
     * UPDATE whose every primary key column is bound (else null: see {@link ResendPlan.Form#row}).
     */
    Object row(BoundStatement s) {
        RowShape shape = shape(s.getPreparedStatement());
        if (shape == null) {
            return null;
        }
        List<ByteBuffer> key = new ArrayList<>(shape.keyIndices().length);
        for (int i : shape.keyIndices()) {
            key.add(s.getBytesUnsafe(i));
        }
        return new RowKey(s.getPreparedStatement().getQuery(), key);
    }

    /** The values the statement sets beside its primary key, one bit each, by bound position. */
    long cells(BoundStatement s) {
        RowShape shape = shape(s.getPreparedStatement());
        long cells = 0;
        for (int i = 0; i < s.size(); i++) {
            if (s.isSet(i) && (shape == null || !shape.isKey(i))) {
                cells |= 1L << i;
            }
        }
        return cells;
    }

    private record RowKey(String cql, List<ByteBuffer> key) {
    }

    /** Which bound values of a statement's form are its table's primary key. */
    private record RowShape(int[] keyIndices) {
        boolean isKey(int index) {
            for (int k : keyIndices) {
                if (k == index) {
                    return true;
                }
            }
            return false;
        }
    }

    private RowShape shape(PreparedStatement p) {
        return shapes.computeIfAbsent(p.getQuery(), cql -> Optional.ofNullable(shapeOf(p))).orElse(null);
    }

    private RowShape shapeOf(PreparedStatement p) {
        String cql = p.getQuery();
        ColumnDefinitions variables = p.getVariableDefinitions();
        if (!(cql.startsWith("INSERT ") || cql.startsWith("UPDATE ")) || cql.contains(" USING ") || cql.contains(" IF ")
                || variables.size() == 0 || variables.size() > 64) {
            return null;
        }
        ColumnDefinition first = variables.get(0);
        Optional<TableMetadata> table = session.getMetadata().getKeyspace(first.getKeyspace())
                .flatMap(k -> k.getTable(first.getTable()));
        if (table.isEmpty()) {
            return null;
        }
        List<CqlIdentifier> primaryKey = table.get().getPrimaryKey().stream().map(ColumnMetadata::getName).toList();
        List<Integer> keys = new ArrayList<>();
        List<CqlIdentifier> bound = new ArrayList<>();
        for (int i = 0; i < variables.size(); i++) {
            CqlIdentifier name = variables.get(i).getName();
            if (primaryKey.contains(name)) {
                if (bound.contains(name)) {
                    return null;
                }
                keys.add(i);
                bound.add(name);
            }
        }
        return bound.size() == primaryKey.size() ? new RowShape(keys.stream().mapToInt(Integer::intValue).toArray()) : null;
    }

    private static boolean carriesOwn(String cql) {
        return cql.contains(" USING TIMESTAMP ");
    }
}
