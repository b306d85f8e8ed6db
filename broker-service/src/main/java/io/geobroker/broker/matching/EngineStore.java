package io.geobroker.broker.matching;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.ProtocolVersion;
import com.datastax.oss.driver.api.core.DefaultConsistencyLevel;
import com.datastax.oss.driver.api.core.cql.AsyncResultSet;
import com.datastax.oss.driver.api.core.cql.BatchStatement;
import com.datastax.oss.driver.api.core.cql.BatchType;
import com.datastax.oss.driver.api.core.cql.BoundStatement;
import com.datastax.oss.driver.api.core.cql.BoundStatementBuilder;
import com.datastax.oss.driver.api.core.cql.PreparedStatement;
import com.datastax.oss.driver.api.core.cql.Row;
import com.datastax.oss.driver.api.core.type.codec.TypeCodecs;
import io.geobroker.broker.order.Order;
import io.geobroker.broker.order.OrderDao;
import io.geobroker.broker.routing.OrderInbox;
import io.geobroker.domain.Fill;
import io.geobroker.domain.OrderType;
import io.geobroker.domain.Side;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.HashMap;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.function.Function;

/**
 * The engine's Cassandra access: the reads that rebuild its state at start and lazily load
 * accounts, and the statements of one group commit. Statements are prepared once; every write
 * carries absolute values, so a batch can be executed again after an unknown outcome.
 */
final class EngineStore {

    /** Durable progress of one symbol as stored in symbol_state. */
    record SymbolRow(int generation, int deletions, long lastTickerSequence, long nextOrderSequence,
                     long lastGroupFirstSequence, Optional<QuoteRow> quote) {
    }

    /** A symbol's latest ticker as stored in symbol_state. */
    record QuoteRow(long price, long volume, long sequence, long exchangeTimeMicros, Instant updatedAt) {
    }

    /** One row of symbol_orders: an order resting on a symbol. */
    record OpenRow(UUID orderId, String customerId, long sequence) {
    }

    /** One row of symbol_fills. */
    record FillRow(String symbol, long tickerSequence, UUID fillId, UUID orderId, String customerId, Side side,
                   OrderType orderType, long price, long quantity, String currency, long tickerExchangeTimeMicros,
                   long durableTimeMicros, String clientOrderId, Long orderQuantity, Long orderFilledQuantity,
                   Long orderFilledNotional) {
    }

    private final CqlSession session;
    private final OrderDao orders;
    /** Every confirmed batch, kept a while to be written again after a cut link heals ({@link HealResend}). */
    private final HealResend healResend;
    private final PreparedStatement selectSymbolState;
    private final PreparedStatement selectOpenOrders;
    private final PreparedStatement selectCash;
    private final PreparedStatement selectHoldings;
    private final PreparedStatement selectFills;
    private final PreparedStatement insertOrder;
    private final PreparedStatement insertOrderByCustomer;
    private final PreparedStatement updateOrder;
    private final PreparedStatement insertOpenOrder;
    private final PreparedStatement deleteOpenOrder;
    private final PreparedStatement deleteGeneration;
    private final PreparedStatement deleteGenerationsThrough;
    private final PreparedStatement insertSymbolState;
    private final PreparedStatement insertCash;
    private final PreparedStatement insertHolding;
    private final PreparedStatement insertTransaction;
    private final PreparedStatement insertFill;
    private final PreparedStatement deleteFillsBefore;
    private final PreparedStatement markProcessed;
    /** The statements of the rows only the engine reads, which the {@link Projection} writes; by CQL text. */
    private final Map<String, Coalesce.Shape> symbolShapes = new HashMap<>();
    /** Each symbol statement with its own write timestamp as its first or last bound value, by CQL text. */
    private final Map<String, Timestamped> timestamped = new HashMap<>();
    /** The timestamped forms of the other statements a log slot holds (customers' rows, inbox marks, day trading). */
    private final TimestampedForms forms;
    /** Tables whose partition key is the customer id alone. */
    static final Set<String> CUSTOMER_TABLES = Set.of("customer_orders", "orders_by_customer", "cash", "holdings",
            "transactions");

    /** A symbol statement's form with {@code USING TIMESTAMP ?}: its marker is the first bound value or the last. */
    private record Timestamped(PreparedStatement statement, boolean first) {
    }

    EngineStore(CqlSession session, OrderDao orders, HealResend healResend) {
        this.session = session;
        this.forms = new TimestampedForms(session);
        this.orders = orders;
        this.healResend = healResend;
        selectSymbolState = session.prepare("SELECT generation, deletions, last_ticker_sequence, next_order_sequence, "
                + "last_group_first_sequence, quote_price, quote_volume, quote_sequence, quote_exchange_time_micros, "
                + "quote_updated_at FROM symbol_state WHERE symbol = ?");
        selectOpenOrders = session.prepare("SELECT order_id, customer_id, sequence FROM symbol_orders "
                + "WHERE symbol = ? AND generation = ?");
        selectCash = session.prepare("SELECT available, reserved FROM cash WHERE customer_id = ? AND currency = ?");
        selectHoldings = session.prepare("SELECT symbol, available, reserved FROM holdings WHERE customer_id = ?");
        selectFills = session.prepare("SELECT * FROM symbol_fills WHERE symbol = ? AND ticker_sequence >= ? "
                + "AND ticker_sequence <= ?");
        insertOrder = session.prepare("INSERT INTO customer_orders (" + OrderDao.ORDER_COLUMNS + ") VALUES ("
                + "?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)");
        insertOrderByCustomer = session.prepare("INSERT INTO orders_by_customer (customer_id, placed_at, order_id, "
                + "symbol, side, order_type, quantity) VALUES (?, ?, ?, ?, ?, ?, ?)");
        updateOrder = session.prepare("UPDATE customer_orders SET triggered = ?, status = ?, filled_quantity = ?, "
                + "filled_notional = ?, reserved = ?, reject_reason = ?, updated_at = ? WHERE customer_id = ? AND order_id = ?");
        insertOpenOrder = session.prepare("INSERT INTO symbol_orders (symbol, generation, order_id, customer_id, side, "
                + "order_type, time_in_force, all_or_none, limit_price, stop_price, triggered, remaining, placed_at, "
                + "sequence, expires_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)");
        deleteOpenOrder = session.prepare("DELETE FROM symbol_orders WHERE symbol = ? AND generation = ? AND order_id = ?");
        deleteGeneration = session.prepare("DELETE FROM symbol_orders WHERE symbol = ? AND generation = ?");
        deleteGenerationsThrough = session.prepare("DELETE FROM symbol_orders WHERE symbol = ? AND generation <= ?");
        insertSymbolState = session.prepare("INSERT INTO symbol_state (symbol, generation, deletions, "
                + "last_ticker_sequence, next_order_sequence, last_group_first_sequence, quote_price, quote_volume, "
                + "quote_sequence, quote_exchange_time_micros, quote_updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)");
        insertCash = session.prepare("INSERT INTO cash (customer_id, currency, available, reserved) VALUES (?, ?, ?, ?)");
        insertHolding = session.prepare("INSERT INTO holdings (customer_id, symbol, available, reserved) VALUES (?, ?, ?, ?)");
        insertTransaction = session.prepare("INSERT INTO transactions (customer_id, txn_time, txn_id, kind, currency, "
                + "amount, symbol, quantity, price, order_id, region) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)");
        insertFill = session.prepare("INSERT INTO symbol_fills (symbol, ticker_sequence, fill_id, order_id, "
                + "customer_id, side, order_type, price, quantity, currency, ticker_exchange_time_micros, "
                + "durable_time_micros, client_order_id, order_quantity, order_filled_quantity, order_filled_notional) "
                + "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)");
        deleteFillsBefore = session.prepare("DELETE FROM symbol_fills WHERE symbol = ? AND ticker_sequence < ?");
        markProcessed = session.prepare("UPDATE order_inbox SET processed = true "
                + "WHERE home_region = ? AND minute = ? AND placed_at = ? AND order_id = ?");
        symbol(insertSymbolState, Coalesce.Shape.SYMBOL_STATE);
        symbol(insertOpenOrder, Coalesce.Shape.OPEN_ORDER);
        symbol(insertFill, Coalesce.Shape.FILL);
        symbol(deleteOpenOrder, Coalesce.Shape.DELETE_OPEN_ORDER);
        symbol(deleteGeneration, Coalesce.Shape.DELETE_GENERATION);
        symbol(deleteGenerationsThrough, Coalesce.Shape.DELETE_GENERATIONS_THROUGH);
        symbol(deleteFillsBefore, Coalesce.Shape.DELETE_FILLS_BEFORE);
    }

    private void symbol(PreparedStatement statement, Coalesce.Shape shape) {
        String cql = statement.getQuery();
        symbolShapes.put(cql, shape);
        timestamped.put(cql, new Timestamped(session.prepare(withTimestamp(cql)), timestampFirst(cql)));
    }

    /**
     * The statement with its own write timestamp as a bound value ({@code USING TIMESTAMP ?}): last
     * in an INSERT, first in a DELETE (before its WHERE clause) and in an UPDATE (before its SET).
     */
    static String withTimestamp(String cql) {
        if (cql.startsWith("INSERT")) {
            if (cql.contains(" USING ") || cql.contains(" IF NOT EXISTS")) {
                throw new IllegalArgumentException("an INSERT with USING or IF NOT EXISTS: " + cql);
            }
            return cql + " USING TIMESTAMP ?";
        }
        if (cql.startsWith("UPDATE ")) {
            int set = cql.indexOf(" SET ");
            if (set < 0 || cql.substring(0, set).contains(" USING ") || cql.contains(" IF ")) {
                throw new IllegalArgumentException("not a plain UPDATE ... SET: " + cql);
            }
            return cql.substring(0, set) + " USING TIMESTAMP ?" + cql.substring(set);
        }
        int where = cql.indexOf(" WHERE ");
        if (!cql.startsWith("DELETE FROM ") || where < 0 || cql.substring(0, where).contains(" USING ")
                || cql.contains(" IF ")) {
            throw new IllegalArgumentException("not an INSERT, an UPDATE or a DELETE with a WHERE clause: " + cql);
        }
        return cql.substring(0, where) + " USING TIMESTAMP ?" + cql.substring(where);
    }

    /** Whether {@link #withTimestamp}'s marker is the statement's first bound value (else its last). */
    static boolean timestampFirst(String cql) {
        return !cql.startsWith("INSERT");
    }

    /** Whether the statement writes a row only the engine reads (symbol_state, symbol_orders, symbol_fills). */
    boolean isSymbolStatement(BoundStatement statement) {
        return symbolShapes.containsKey(statement.getPreparedStatement().getQuery());
    }

    /**
     * Whether the projection can write every one of the statements at its group's own timestamp:
     * the forms with {@code USING TIMESTAMP ?} of those not prepared yet are prepared first (once per
     * CQL text).
     */
    boolean loggable(List<BoundStatement> statements) {
        List<BoundStatement> others = new ArrayList<>();
        for (BoundStatement s : statements) {
            if (!isSymbolStatement(s)) {
                others.add(s);
            }
        }
        forms.prepare(others);
        for (BoundStatement s : others) {
            if (!forms.stamps(s)) {
                return false;
            }
        }
        return true;
    }

    /**
     * The customer whose partition the statement writes (the tables keyed by customer id: orders,
     * their list, cash, holdings, transactions), or null.
     */
    String customerOf(BoundStatement s) {
        var variables = s.getPreparedStatement().getVariableDefinitions();
        if (variables.size() == 0 || !CUSTOMER_TABLES.contains(variables.get(0).getTable().asInternal())) {
            return null;
        }
        ByteBuffer key = s.getRoutingKey();
        return key == null ? null : StandardCharsets.UTF_8.decode(key.duplicate()).toString();
    }

    /** The statement as {@link Coalesce} sees it: a symbol statement by its shape, any other as one never left out. */
    Coalesce.Write<KeptStatement> describe(KeptStatement s) {
        Coalesce.Shape shape = symbolShapes.get(s.prepared().getQuery());
        if (shape == null) {
            return new Coalesce.Write<>(Coalesce.Shape.OTHER, null, 0, null, 0, 0, s);
        }
        long cells = 0;
        for (int i = 0; i < s.size(); i++) {
            if (s.isSet(i)) {
                cells |= 1L << i;
            }
        }
        return switch (shape) {
            case OTHER -> throw new IllegalStateException("a symbol statement without a shape: " + s.prepared().getQuery());
            case SYMBOL_STATE -> new Coalesce.Write<>(shape, text(s, 0), 0, null, 0, cells, s);
            case OPEN_ORDER, DELETE_OPEN_ORDER -> new Coalesce.Write<>(shape, text(s, 0), integer(s, 1),
                    TypeCodecs.UUID.decode(s.value(2), ProtocolVersion.DEFAULT), 0, cells, s);
            case DELETE_GENERATION, DELETE_GENERATIONS_THROUGH -> new Coalesce.Write<>(shape, text(s, 0), integer(s, 1),
                    null, 0, cells, s);
            case FILL, DELETE_FILLS_BEFORE -> new Coalesce.Write<>(shape, text(s, 0), 0, null,
                    TypeCodecs.BIGINT.decodePrimitive(s.value(1), ProtocolVersion.DEFAULT), cells, s);
        };
    }

    private static String text(KeptStatement s, int i) {
        return TypeCodecs.TEXT.decode(s.value(i), ProtocolVersion.DEFAULT);
    }

    private static int integer(KeptStatement s, int i) {
        return TypeCodecs.INT.decodePrimitive(s.value(i), ProtocolVersion.DEFAULT);
    }

    /** The statement with {@code timestampMicros} as its own write timestamp (unset values stay unset). */
    BoundStatement at(KeptStatement s, long timestampMicros) {
        Timestamped t = timestamped.get(s.prepared().getQuery());
        if (t == null) {
            BoundStatement other = forms.at(s, timestampMicros);
            if (other == null) {
                throw new IllegalStateException("no timestamped form of " + s.prepared().getQuery());
            }
            return other;
        }
        return TimestampedForms.bind(s, t.statement(), t.first(), timestampMicros);
    }

    // ---- reads

    /** The symbol's row, read without waiting for it. */
    CompletableFuture<Optional<SymbolRow>> symbolStateAsync(String symbol) {
        return session.executeAsync(selectSymbolState.bind(symbol)).toCompletableFuture()
                .thenApply(rs -> Optional.ofNullable(rs.one()).map(EngineStore::symbolRow));
    }

    private static SymbolRow symbolRow(Row r) {
        Optional<QuoteRow> quote = r.isNull("quote_sequence") ? Optional.empty()
                : Optional.of(new QuoteRow(r.getLong("quote_price"), r.getLong("quote_volume"), r.getLong("quote_sequence"),
                        r.getLong("quote_exchange_time_micros"), r.getInstant("quote_updated_at")));
        return new SymbolRow(r.getInt("generation"), r.getInt("deletions"),
                r.getLong("last_ticker_sequence"), r.getLong("next_order_sequence"),
                r.isNull("last_group_first_sequence") ? -1 : r.getLong("last_group_first_sequence"), quote);
    }

    List<OpenRow> openOrders(String symbol, int generation) {
        return OrderDao.joined(openOrdersAsync(symbol, generation));
    }

    /** The open orders of the symbol's generation, every page, read without waiting for them. */
    CompletableFuture<List<OpenRow>> openOrdersAsync(String symbol, int generation) {
        return allRows(session.executeAsync(selectOpenOrders.bind(symbol, generation)),
                r -> new OpenRow(r.getUuid("order_id"), r.getString("customer_id"), r.getLong("sequence")),
                new ArrayList<>());
    }

    /** The customer's order, read without waiting for it (with the placements' reads of that customer, {@link OrderDao#findAsync}). */
    CompletableFuture<Optional<Order>> orderAsync(String customerId, UUID orderId) {
        return orders.findInTableAsync(customerId, orderId);
    }

    CashAccount cash(String customerId, String currency) {
        Row r = session.execute(selectCash.bind(customerId, currency)).one();
        return r == null ? new CashAccount(customerId, currency, 0, 0)
                : new CashAccount(customerId, currency, r.getLong("available"), r.getLong("reserved"));
    }

    /** Every stored holding of the customer, by symbol. */
    Map<String, Holding> holdings(String customerId) {
        Map<String, Holding> held = new HashMap<>();
        for (Row r : session.execute(selectHoldings.bind(customerId))) {
            String symbol = r.getString("symbol");
            held.put(symbol, new Holding(customerId, symbol, r.getLong("available"), r.getLong("reserved")));
        }
        return held;
    }

    /** The fills of the symbol's tickers {@code first} to {@code last}, in ticker order, read without waiting for them. */
    CompletableFuture<List<FillRow>> fillsAsync(String symbol, long first, long last) {
        return allRows(session.executeAsync(selectFills.bind(symbol, first, last)),
                r -> fillRow(symbol, r.getLong("ticker_sequence"), r), new ArrayList<>());
    }

    /** Every row of a read, mapped, each page after the first asked for when the one before it has come. */
    private static <T> CompletableFuture<List<T>> allRows(CompletionStage<AsyncResultSet> page, Function<Row, T> map,
                                                          List<T> into) {
        return page.toCompletableFuture().thenCompose(rs -> {
            for (Row r : rs.currentPage()) {
                into.add(map.apply(r));
            }
            return rs.hasMorePages() ? allRows(rs.fetchNextPage(), map, into) : CompletableFuture.completedFuture(into);
        });
    }

    private static FillRow fillRow(String symbol, long tickerSequence, Row r) {
        return new FillRow(symbol, tickerSequence, r.getUuid("fill_id"), r.getUuid("order_id"),
                r.getString("customer_id"), Side.valueOf(r.getString("side")),
                OrderType.valueOf(r.getString("order_type")), r.getLong("price"), r.getLong("quantity"),
                r.getString("currency"), r.getLong("ticker_exchange_time_micros"), r.getLong("durable_time_micros"),
                r.getString("client_order_id"), nullableLong(r, "order_quantity"), nullableLong(r, "order_filled_quantity"),
                nullableLong(r, "order_filled_notional"));
    }

    private static Long nullableLong(Row r, String column) {
        return r.isNull(column) ? null : r.getLong(column);
    }

    // ---- writes (bound statements for one batch)

    /**
     * The order's rows: the full row the first time, with its entry in the customer's list unless the
     * region it was placed in wrote that; afterwards only the columns of {@code customer_orders} a
     * fill, trigger or cancel changes (the list's entry holds what never changes).
     */
    List<BoundStatement> order(OrderState o) {
        if (o.rowWritten) {
            return List.of(bindWithoutNulls(updateOrder, o.triggered, o.status.name(), o.filledQuantity, o.filledNotional,
                    o.reserved, o.rejectReason, o.updatedAt, o.customerId, o.id));
        }
        BoundStatement row = bindWithoutNulls(insertOrder, o.id, o.customerId, o.clientOrderId, o.symbol, o.exchange,
                o.currency, o.homeRegion, o.placedRegion, o.side.name(), o.type.name(), o.timeInForce.name(), o.allOrNone,
                o.quantity, o.limitPrice, o.stopPrice, o.triggered, o.status.name(), o.filledQuantity,
                o.filledNotional, o.reserved, o.rejectReason, o.expiresAt, o.placedAt, o.updatedAt);
        if (o.listedWherePlaced) {
            return List.of(row);
        }
        return List.of(row, insertOrderByCustomer.bind(o.customerId, o.placedAt, o.id, o.symbol, o.side.name(),
                o.type.name(), o.quantity));
    }

    BoundStatement openOrder(OrderState o, int generation) {
        return bindWithoutNulls(insertOpenOrder, o.symbol, generation, o.id, o.customerId, o.side.name(), o.type.name(),
                o.timeInForce.name(), o.allOrNone, o.limitPrice, o.stopPrice, o.triggered, o.remaining(), o.placedAt,
                o.sequence, o.expiresAt);
    }

    BoundStatement deleteOpenOrder(String symbol, int generation, UUID orderId) {
        return deleteOpenOrder.bind(symbol, generation, orderId);
    }

    /** Deletes one generation of the symbol's resting orders (one range tombstone). */
    BoundStatement deleteGeneration(String symbol, int generation) {
        return deleteGeneration.bind(symbol, generation);
    }

    /**
     * Deletes the symbol's generations up to {@code generation}: one range tombstone, which covers
     * the one the previous move left, so they do not pile up in the partition.
     */
    BoundStatement deleteGenerationsThrough(String symbol, int generation) {
        return deleteGenerationsThrough.bind(symbol, generation);
    }

    /** The symbol's progress and latest quote; the quote's columns are left unset (not null) while it has none. */
    BoundStatement symbolState(SymbolState s) {
        BoundStatement row = insertSymbolState.bind(s.symbol(), s.generation, s.deletions, s.lastTickerSequence,
                s.nextOrderSequence, s.lastGroupFirstSequence);
        if (s.quoteSequence < 0) {
            return row;
        }
        return row.setLong("quote_price", s.quotePrice).setLong("quote_volume", s.quoteVolume)
                .setLong("quote_sequence", s.quoteSequence).setLong("quote_exchange_time_micros", s.quoteExchangeTimeMicros)
                .setInstant("quote_updated_at", s.quoteUpdatedAt);
    }

    BoundStatement cash(CashAccount c) {
        return insertCash.bind(c.customerId, c.currency, c.available, c.reserved);
    }

    BoundStatement holding(Holding h) {
        return insertHolding.bind(h.customerId, h.symbol, h.available, h.reserved);
    }

    BoundStatement transaction(String customerId, Instant time, UUID txnId, String kind, String currency, long amount,
                               String symbol, Long quantity, Long price, UUID orderId, String region) {
        return bindWithoutNulls(insertTransaction, customerId, time, txnId, kind, currency, amount, symbol, quantity, price,
                orderId, region);
    }

    BoundStatement fill(FillRow f) {
        return bindWithoutNulls(insertFill, f.symbol(), f.tickerSequence(), f.fillId(), f.orderId(), f.customerId(), f.side().name(),
                f.orderType().name(), f.price(), f.quantity(), f.currency(), f.tickerExchangeTimeMicros(),
                f.durableTimeMicros(), f.clientOrderId(), f.orderQuantity(), f.orderFilledQuantity(),
                f.orderFilledNotional());
    }

    /**
     * Deletes the symbol's fills below {@code tickerSequence} (one range deletion, in the symbol's
     * partition): a restart republishes only fills from its last_group_first_sequence on.
     */
    BoundStatement deleteFillsBefore(String symbol, long tickerSequence) {
        return deleteFillsBefore.bind(symbol, tickerSequence);
    }

    BoundStatement processed(OrderInbox.Entry e) {
        return markProcessed.bind(e.homeRegion(), e.minute(), e.placedAt(), e.orderId());
    }

    /**
     * The statement bound to the values, each null among them left unset (built once, where unsetting
     * a bound statement copies it for each null): Cassandra stores a written null as a tombstone cell,
     * which every later read of the row passes over, and leaves an unset column alone. The engine's
     * rows never hold a value in a column they later bind to null: an order's prices, expiry and
     * reject reason are fixed once set (a rejected order changes no more), a resting order's row is
     * rewritten with the same ones, and a transaction is a new row. A repeated write stays the same
     * write, and the journal keeps unset values unset.
     */
    static BoundStatement bindWithoutNulls(PreparedStatement statement, Object... values) {
        BoundStatementBuilder builder = statement.boundStatementBuilder(values);
        for (int i = 0; i < values.length; i++) {
            if (values[i] == null) {
                builder = builder.unset(i);
            }
        }
        return builder.build();
    }

    /** Serialized size of a statement as the batch size thresholds count it (approximately). */
    int sizeOf(BoundStatement statement) {
        return statement.computeSizeInBytes(session.getContext());
    }

    /**
     * Executes statements as one atomic batch at LOCAL_QUORUM with the given write timestamp: logged
     * when they write several partitions, unlogged (no batchlog writes; Cassandra applies one
     * partition's update atomically anyway) when they write one.
     */
    void executeBatch(List<BoundStatement> statements, long timestampMicros) {
        session.execute(batch(statements, timestampMicros));
        confirmed(statements, timestampMicros);
    }

    /**
     * A batch written without waiting and not yet kept for a resend ({@link #confirmed} once the
     * caller knows it succeeded): the future completes when Cassandra has answered.
     */
    CompletableFuture<Void> writeAsync(List<BoundStatement> statements, long timestampMicros) {
        return session.executeAsync(batch(statements, timestampMicros)).toCompletableFuture().thenAccept(rs -> { });
    }

    /** {@link #executeBatch} without waiting: the future completes when Cassandra has answered. */
    CompletableFuture<Void> executeBatchAsync(List<BoundStatement> statements, long timestampMicros) {
        return writeAsync(statements, timestampMicros).thenRun(() -> confirmed(statements, timestampMicros));
    }

    private static BatchStatement batch(List<BoundStatement> statements, long timestampMicros) {
        return BatchStatement.newInstance(partitions(statements) == 1 ? BatchType.UNLOGGED : BatchType.LOGGED)
                .addAll(statements)
                .setConsistencyLevel(DefaultConsistencyLevel.LOCAL_QUORUM)
                .setQueryTimestamp(timestampMicros)
                .setIdempotent(true);
    }

    /** Keeps confirmed statements for a resend after a cut link heals ({@link HealResend}). */
    void confirmed(List<BoundStatement> statements, long timestampMicros) {
        healResend.confirmed(statements, timestampMicros);
    }

    /** {@link #confirmed} for statements packed already. */
    void confirmedKept(List<KeptStatement> statements, long timestampMicros) {
        healResend.confirmedKept(statements, timestampMicros);
    }

    /**
     * The partitions the statements write: Cassandra applies, replicates and acknowledges each as one
     * mutation, so a batch costs more per partition than per statement. All tables are in one
     * keyspace, and rows of different tables with the same partition key value share a mutation.
     */
    static int partitions(List<BoundStatement> statements) {
        Set<ByteBuffer> keys = new HashSet<>();
        for (BoundStatement s : statements) {
            keys.add(s.getRoutingKey());
        }
        return keys.size();
    }

    /** Executes statements of one partition as an unlogged batch (atomic within the partition). */
    void executePartitionBatch(List<BoundStatement> statements, long timestampMicros) {
        BatchStatement batch = BatchStatement.newInstance(BatchType.UNLOGGED)
                .addAll(statements)
                .setConsistencyLevel(DefaultConsistencyLevel.LOCAL_QUORUM)
                .setQueryTimestamp(timestampMicros)
                .setIdempotent(true);
        session.execute(batch);
        confirmed(statements, timestampMicros);
    }

    static Fill toFill(FillRow f, String exchange, String region, long durableTimeMicros) {
        return new Fill(f.fillId().toString(), f.orderId().toString(), f.customerId(), f.symbol(), exchange, f.side(),
                f.orderType(), f.price(), f.quantity(), f.currency(), f.tickerSequence(), f.tickerExchangeTimeMicros(),
                durableTimeMicros, region, f.clientOrderId(), f.orderQuantity(), f.orderFilledQuantity(),
                f.orderFilledNotional());
    }
}
