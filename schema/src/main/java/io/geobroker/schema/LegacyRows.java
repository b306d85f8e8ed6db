package io.geobroker.schema;

import com.datastax.oss.driver.api.core.ConsistencyLevel;
import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.cql.BoundStatement;
import com.datastax.oss.driver.api.core.cql.BoundStatementBuilder;
import com.datastax.oss.driver.api.core.cql.PreparedStatement;
import com.datastax.oss.driver.api.core.cql.Row;
import com.datastax.oss.driver.api.core.cql.SimpleStatement;
import com.datastax.oss.driver.api.core.cql.Statement;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Copies what a broker before schema version 8 left in the tables that version drops into the
 * tables that replaced them, so that dropping them loses nothing (see {@code V008__drop_legacy_tables.cql}):
 * <ul>
 *   <li>every row of {@code orders} into {@code customer_orders} (same columns);</li>
 *   <li>the quote in {@code quotes} of a symbol whose {@code symbol_state} holds none;</li>
 *   <li>the rows of {@code open_orders} in each symbol's current generation, when {@code symbol_orders}
 *       holds none of that generation;</li>
 *   <li>the rows of {@code fills_by_ticker} a restart publishes again (from the symbol's
 *       {@code last_group_first_sequence} to its last ticker), when {@code symbol_fills} holds none
 *       of them.</li>
 * </ul>
 * These are the rows the brokers of schema versions 5 to 7 read from the old tables. Each copy is written
 * with the write time of the row it copies, so a newer write in the new table wins, and copying
 * twice changes nothing. Values are copied as their serialized bytes: the columns have the same
 * types in both tables.
 */
final class LegacyRows {

    /** How many rows of each kind were copied. */
    record Copied(int orders, int quotes, int restingOrders, int fills) {
        @Override
        public String toString() {
            return orders + " order(s), " + quotes + " quote(s), " + restingOrders + " resting order(s) and "
                    + fills + " fill(s) copied from the tables version 8 drops";
        }
    }

    static final String ORDER_COLUMNS = "order_id, customer_id, client_order_id, symbol, exchange, currency, "
            + "home_region, placed_region, side, order_type, time_in_force, all_or_none, quantity, limit_price, "
            + "stop_price, triggered, status, filled_quantity, filled_notional, reserved, reject_reason, expires_at, "
            + "placed_at, updated_at";
    static final String RESTING_COLUMNS = "symbol, generation, order_id, customer_id, side, order_type, "
            + "time_in_force, all_or_none, limit_price, stop_price, triggered, remaining, placed_at, sequence, expires_at";
    static final String FILL_COLUMNS = "symbol, ticker_sequence, fill_id, order_id, customer_id, side, order_type, "
            + "price, quantity, currency, ticker_exchange_time_micros, durable_time_micros";
    private static final String QUOTE_COLUMNS = "price, volume, sequence, exchange_time_micros, updated_at";
    private static final String SYMBOL_QUOTE_COLUMNS = "quote_price, quote_volume, quote_sequence, "
            + "quote_exchange_time_micros, quote_updated_at";

    private final CqlSession session;
    private final String keyspace;

    private LegacyRows(CqlSession session, String keyspace) {
        this.session = session;
        this.keyspace = keyspace;
    }

    /** Copies the rows of the tables that exist in the keyspace; a table already dropped is skipped. */
    static Copied copy(CqlSession session, String keyspace) {
        LegacyRows rows = new LegacyRows(session, keyspace);
        int orders = rows.exists("orders") ? rows.copyOrders() : 0;
        int quotes = rows.exists("quotes") ? rows.copyQuotes() : 0;
        int resting = rows.exists("open_orders") ? rows.copyRestingOrders() : 0;
        int fills = rows.exists("fills_by_ticker") ? rows.copyFills() : 0;
        return new Copied(orders, quotes, resting, fills);
    }

    private boolean exists(String table) {
        return session.getMetadata().getKeyspace(keyspace).flatMap(k -> k.getTable(table)).isPresent();
    }

    private int copyOrders() {
        PreparedStatement insert = prepare("INSERT INTO " + keyspace + ".customer_orders (" + ORDER_COLUMNS
                + ") VALUES (" + markers(ORDER_COLUMNS) + ") USING TIMESTAMP ?");
        int copied = 0;
        for (Row row : read("SELECT " + ORDER_COLUMNS + ", WRITETIME(status) AS w1, WRITETIME(updated_at) AS w2 FROM "
                + keyspace + ".orders")) {
            Optional<Long> written = latest(row, "w1", "w2");
            if (written.isPresent()) {
                write(copyOf(row, insert, count(ORDER_COLUMNS), written.get()));
                copied++;
            }
        }
        return copied;
    }

    private int copyQuotes() {
        PreparedStatement update = prepare("UPDATE " + keyspace + ".symbol_state USING TIMESTAMP ? SET "
                + "quote_price = ?, quote_volume = ?, quote_sequence = ?, quote_exchange_time_micros = ?, "
                + "quote_updated_at = ? WHERE symbol = ?");
        // a symbol the broker had never written: the progress it starts from (nothing applied yet)
        PreparedStatement insert = prepare("INSERT INTO " + keyspace + ".symbol_state (symbol, generation, deletions, "
                + "last_ticker_sequence, next_order_sequence, last_group_first_sequence, " + SYMBOL_QUOTE_COLUMNS
                + ") VALUES (?, 0, 0, -1, 0, -1, ?, ?, ?, ?, ?) USING TIMESTAMP ?");
        int copied = 0;
        for (Row quote : read("SELECT symbol, " + QUOTE_COLUMNS + ", WRITETIME(sequence) AS w FROM " + keyspace + ".quotes")) {
            if (quote.isNull("sequence")) {
                continue;
            }
            String symbol = quote.getString("symbol");
            Row state = readOne("SELECT symbol, quote_sequence FROM " + keyspace + ".symbol_state WHERE symbol = ?", symbol);
            if (state != null && !state.isNull("quote_sequence")) {
                continue;
            }
            BoundStatementBuilder b;
            if (state == null) { // symbol, the quote, the write time
                b = insert.boundStatementBuilder().setBytesUnsafe(0, quote.getBytesUnsafe("symbol"));
                setQuote(b, quote, 1);
                b.setLong(6, quote.getLong("w"));
            } else { // the write time, the quote, symbol
                b = update.boundStatementBuilder().setLong(0, quote.getLong("w"));
                setQuote(b, quote, 1);
                b.setBytesUnsafe(6, quote.getBytesUnsafe("symbol"));
            }
            write(b.build());
            copied++;
        }
        return copied;
    }

    private static void setQuote(BoundStatementBuilder b, Row quote, int first) {
        String[] columns = QUOTE_COLUMNS.split(", ");
        for (int i = 0; i < columns.length; i++) {
            ByteBuffer value = quote.getBytesUnsafe(columns[i]);
            if (value != null) {
                b.setBytesUnsafe(first + i, value);
            }
        }
    }

    private int copyRestingOrders() {
        PreparedStatement insert = prepare("INSERT INTO " + keyspace + ".symbol_orders (" + RESTING_COLUMNS
                + ") VALUES (" + markers(RESTING_COLUMNS) + ") USING TIMESTAMP ?");
        int copied = 0;
        for (Row partition : read("SELECT DISTINCT symbol, generation FROM " + keyspace + ".open_orders")) {
            String symbol = partition.getString("symbol");
            int generation = partition.getInt("generation");
            Row state = readOne("SELECT generation FROM " + keyspace + ".symbol_state WHERE symbol = ?", symbol);
            int current = state == null || state.isNull("generation") ? 0 : state.getInt("generation");
            if (generation != current || readOne("SELECT order_id FROM " + keyspace + ".symbol_orders "
                    + "WHERE symbol = ? AND generation = ? LIMIT 1", symbol, generation) != null) {
                continue; // an older generation's rows left the book; a current one already copied at a broker's start
            }
            for (Row row : read("SELECT " + RESTING_COLUMNS + ", WRITETIME(remaining) AS w1, WRITETIME(sequence) AS w2 "
                    + "FROM " + keyspace + ".open_orders WHERE symbol = ? AND generation = ?", symbol, generation)) {
                Optional<Long> written = latest(row, "w1", "w2");
                if (written.isPresent()) {
                    write(copyOf(row, insert, count(RESTING_COLUMNS), written.get()));
                    copied++;
                }
            }
        }
        return copied;
    }

    private int copyFills() {
        PreparedStatement insert = prepare("INSERT INTO " + keyspace + ".symbol_fills (" + FILL_COLUMNS
                + ") VALUES (" + markers(FILL_COLUMNS) + ") USING TIMESTAMP ?");
        Map<String, List<Long>> tickers = new LinkedHashMap<>();
        for (Row partition : read("SELECT DISTINCT symbol, ticker_sequence FROM " + keyspace + ".fills_by_ticker")) {
            tickers.computeIfAbsent(partition.getString("symbol"), s -> new ArrayList<>())
                    .add(partition.getLong("ticker_sequence"));
        }
        int copied = 0;
        for (Map.Entry<String, List<Long>> symbol : tickers.entrySet()) {
            Row state = readOne("SELECT last_group_first_sequence, last_ticker_sequence, quote_sequence FROM " + keyspace
                    + ".symbol_state WHERE symbol = ?", symbol.getKey());
            if (state == null || state.isNull("last_group_first_sequence") || state.getLong("last_group_first_sequence") < 0) {
                continue; // no group of the symbol left fills to publish again
            }
            long first = state.getLong("last_group_first_sequence");
            long last = Math.max(state.isNull("last_ticker_sequence") ? -1 : state.getLong("last_ticker_sequence"),
                    state.isNull("quote_sequence") ? -1 : state.getLong("quote_sequence"));
            if (readOne("SELECT fill_id FROM " + keyspace + ".symbol_fills WHERE symbol = ? AND ticker_sequence >= ? "
                    + "AND ticker_sequence <= ? LIMIT 1", symbol.getKey(), first, last) != null) {
                continue;
            }
            for (long sequence : symbol.getValue()) {
                if (sequence < first || sequence > last) {
                    continue;
                }
                for (Row row : read("SELECT " + FILL_COLUMNS + ", WRITETIME(quantity) AS w FROM " + keyspace
                        + ".fills_by_ticker WHERE symbol = ? AND ticker_sequence = ?", symbol.getKey(), sequence)) {
                    Optional<Long> written = latest(row, "w");
                    if (written.isPresent()) {
                        write(copyOf(row, insert, count(FILL_COLUMNS), written.get()));
                        copied++;
                    }
                }
            }
        }
        return copied;
    }

    /**
     * The row's first {@code columns} values bound as they are stored (a null stays unset), and
     * {@code written} as the write time (the statement's last marker).
     */
    private static BoundStatement copyOf(Row row, PreparedStatement insert, int columns, long written) {
        BoundStatementBuilder b = insert.boundStatementBuilder();
        for (int i = 0; i < columns; i++) {
            ByteBuffer value = row.getBytesUnsafe(i);
            if (value != null) {
                b.setBytesUnsafe(i, value);
            }
        }
        return b.setLong(columns, written).build();
    }

    /** The latest of the row's write times (microseconds); empty when every column read is null. */
    private static Optional<Long> latest(Row row, String... writeTimes) {
        Long latest = null;
        for (String w : writeTimes) {
            if (!row.isNull(w)) {
                latest = latest == null ? row.getLong(w) : Math.max(latest, row.getLong(w));
            }
        }
        return Optional.ofNullable(latest);
    }

    private static int count(String columns) {
        return columns.split(",").length;
    }

    private static String markers(String columns) {
        return String.join(", ", java.util.Collections.nCopies(count(columns), "?"));
    }

    private PreparedStatement prepare(String cql) {
        return session.prepare(cql);
    }

    private Iterable<Row> read(String cql, Object... values) {
        return session.execute(quorum(SimpleStatement.newInstance(cql, values).setPageSize(500)));
    }

    private Row readOne(String cql, Object... values) {
        return session.execute(quorum(SimpleStatement.newInstance(cql, values))).one();
    }

    private void write(BoundStatement statement) {
        session.execute(quorum(statement.setIdempotent(true)));
    }

    /** Every DC's replica takes part: the copy must see and reach all of them (the schema change needs them up anyway). */
    private static <S extends Statement<S>> S quorum(S statement) {
        return statement.setConsistencyLevel(ConsistencyLevel.QUORUM).setTimeout(java.time.Duration.ofSeconds(30));
    }
}
