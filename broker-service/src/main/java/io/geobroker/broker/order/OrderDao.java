package io.geobroker.broker.order;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.cql.BoundStatement;
import com.datastax.oss.driver.api.core.cql.PreparedStatement;
import com.datastax.oss.driver.api.core.cql.ResultSet;
import com.datastax.oss.driver.api.core.cql.Row;
import io.geobroker.broker.matching.ProjectionBarrier;
import io.geobroker.broker.web.Page;
import io.geobroker.domain.OrderStatus;
import io.geobroker.domain.OrderType;
import io.geobroker.domain.Side;
import io.geobroker.domain.TimeInForce;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.MeterRegistry;
import org.springframework.stereotype.Repository;

import java.nio.ByteBuffer;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;

import static io.geobroker.broker.config.CassandraConfiguration.requestRead;

/** Reads of the {@code customer_orders} and {@code orders_by_customer} tables; the engine does the writes. */
@Repository
public class OrderDao {

    /** Columns of an order row in the order {@link #map(Row)} reads them. */
    public static final String ORDER_COLUMNS = "order_id, customer_id, client_order_id, symbol, exchange, currency, "
            + "home_region, placed_region, side, order_type, time_in_force, all_or_none, quantity, limit_price, "
            + "stop_price, triggered, status, filled_quantity, filled_notional, reserved, reject_reason, expires_at, "
            + "placed_at, updated_at";

    /**
     * Order ids of one customer asked for in one read at most ({@link Coalescer}, a page of a listing,
     * the inbox's order rows).
     */
    public static final int IDS_PER_READ = 64;

    /** Rows of a page when a customer's order ids are read all at once. */
    private static final int ID_PAGE = 5_000;

    private final CqlSession session;
    private final PreparedStatement byId;
    private final PreparedStatement byIds;
    private final PreparedStatement byCustomer;
    private final PreparedStatement idsOfCustomer;
    private final Coalescer<String, UUID, Row> lookups;
    private final DistributionSummary idsPerRead;
    private final ProjectionBarrier barrier;

    public OrderDao(CqlSession session, MeterRegistry meters, ProjectionBarrier barrier) {
        this.session = session;
        this.barrier = barrier;
        this.idsPerRead = Coalescer.itemsPerRequest(meters, "order-reads");
        this.byId = session.prepare("SELECT " + ORDER_COLUMNS + " FROM customer_orders WHERE customer_id = ? AND order_id = ?");
        this.byIds = session.prepare("SELECT " + ORDER_COLUMNS + " FROM customer_orders WHERE customer_id = ? AND order_id IN ?");
        this.lookups = new Coalescer<>(this::readOrders, IDS_PER_READ);
        this.byCustomer = session.prepare(
                "SELECT placed_at, order_id, symbol FROM orders_by_customer WHERE customer_id = ?");
        this.idsOfCustomer = session.prepare("SELECT order_id FROM customer_orders WHERE customer_id = ?");
    }

    /**
     * Every order id of the customer this DC has a row of (complete or not), or empty if there are
     * more than {@code limit}: one read of the customer's partition, in pages.
     */
    public Optional<List<UUID>> orderIds(String customerId, int limit) {
        barrier.awaitCustomer(customerId);
        ResultSet rs = session.execute(requestRead(idsOfCustomer.bind(customerId)).setPageSize(ID_PAGE));
        List<UUID> ids = new ArrayList<>();
        for (Row row : rs) {
            if (ids.size() == limit) {
                return Optional.empty();
            }
            ids.add(row.getUuid("order_id"));
        }
        return Optional.of(ids);
    }

    /**
     * The customer's order; another customer's order is not found. Lookups of one customer's orders
     * that come while a read of that customer's orders is under way are read together next
     * ({@link Coalescer}): a placement's idempotency check is one of them.
     */
    public Optional<Order> find(String customerId, UUID orderId) {
        return joined(findAsync(customerId, orderId));
    }

    /**
     * {@link #find} without waiting: the lookup under way (or waiting for its customer's read under
     * way, or for this region's logged changes of the customer to reach the table: {@link ProjectionBarrier}).
     */
    public CompletableFuture<Optional<Order>> findAsync(String customerId, UUID orderId) {
        return barrier.customer(customerId).thenCompose(projected -> findInTableAsync(customerId, orderId));
    }

    /**
     * {@link #findAsync} as the table is now, without waiting for this region's logged changes: the
     * engine's own reads at start, after it has written what its log held.
     */
    public CompletableFuture<Optional<Order>> findInTableAsync(String customerId, UUID orderId) {
        return lookups.submit(customerId, orderId)
                .thenApply(row -> Optional.ofNullable(row).filter(OrderDao::complete).map(OrderDao::map));
    }

    /**
     * The rows of the customer's orders {@code orderIds} (at most {@link #IDS_PER_READ}, repeats
     * allowed), in their order, null where there is none: one read of the customer's partition.
     */
    private CompletableFuture<List<Row>> readOrders(String customerId, List<UUID> orderIds) {
        idsPerRead.record(orderIds.size());
        return rows(customerId, orderIds);
    }

    /**
     * The rows of the customer's orders {@code orderIds} (at most {@link #IDS_PER_READ} distinct,
     * repeats allowed), in their order, null where there is none: one read of the customer's
     * partition, whatever the number of ids.
     */
    private CompletableFuture<List<Row>> rows(String customerId, List<UUID> orderIds) {
        List<UUID> distinct = orderIds.stream().distinct().toList();
        BoundStatement read = distinct.size() == 1 ? byId.bind(customerId, distinct.get(0))
                : byIds.bind(customerId, distinct);
        return session.executeAsync(requestRead(read)).toCompletableFuture().thenApply(rs -> {
            Map<UUID, Row> rows = new HashMap<>();
            for (Row row : rs.currentPage()) {
                rows.put(row.getUuid("order_id"), row);
            }
            List<Row> inOrder = new ArrayList<>(orderIds.size());
            orderIds.forEach(id -> inOrder.add(rows.get(id)));
            return inOrder;
        });
    }

    /**
     * Whether the row holds the order's placement, not only later changes: the home region updates
     * an order placed elsewhere with the columns that change, and in a DC where that update arrives
     * before the placing region's row, the row lacks the rest. Such an order is not here yet.
     */
    public static boolean complete(Row r) {
        return !r.isNull("symbol") && !r.isNull("side") && !r.isNull("order_type") && !r.isNull("time_in_force")
                && !r.isNull("quantity") && !r.isNull("status") && !r.isNull("placed_at");
    }

    /**
     * One page of a customer's orders, newest first, filtered by status and symbol. Filtering happens
     * within the page read from Cassandra, so a page may hold fewer than {@code pageSize} orders; the
     * list ends when the next page token is null. The customer's list holds what never changes (the
     * symbol); the status is the order row's, read for the page's orders in reads of up to
     * {@link #IDS_PER_READ} rows of the customer's partition each, sent at once. An order placed
     * in two regions at once has an entry from each; only the one whose {@code placed_at} its row
     * names is shown, so every region lists it once.
     */
    public Page<Order> listForCustomer(String customerId, OrderStatus status, String symbol, int pageSize,
                                       ByteBuffer pagingState) {
        barrier.awaitCustomer(customerId);
        BoundStatement statement = requestRead(byCustomer.bind(customerId)).setPageSize(pageSize)
                .setPagingState(pagingState);
        ResultSet rs = Page.withToken(pagingState, () -> session.execute(statement));
        List<UUID> ids = new ArrayList<>();
        List<Instant> listedAt = new ArrayList<>();
        for (int i = rs.getAvailableWithoutFetching(); i > 0; i--) {
            Row row = rs.one();
            if (row == null) {
                break;
            }
            if (symbol != null && !symbol.equals(row.getString("symbol"))) {
                continue;
            }
            ids.add(row.getUuid("order_id"));
            listedAt.add(row.getInstant("placed_at"));
        }
        // The page's order rows in a few reads of the customer's partition (IDS_PER_READ ids each),
        // all sent at once, instead of one read per order.
        List<CompletableFuture<List<Row>>> reads = new ArrayList<>();
        for (int from = 0; from < ids.size(); from += IDS_PER_READ) {
            reads.add(rows(customerId, ids.subList(from, Math.min(ids.size(), from + IDS_PER_READ))));
        }
        List<Order> orders = new ArrayList<>();
        int i = 0;
        for (CompletableFuture<List<Row>> read : reads) {
            for (Row row : joined(read)) {
                Instant entry = listedAt.get(i++);
                Optional<Order> order = Optional.ofNullable(row).filter(OrderDao::complete).map(OrderDao::map)
                        .filter(o -> o.placedAt().equals(entry));
                order.filter(o -> status == null || o.status() == status).ifPresent(orders::add);
            }
        }
        ByteBuffer next = rs.getExecutionInfo().getPagingState();
        return new Page<>(orders, next);
    }

    /** The result of an asynchronous read, or the driver's own exception if it failed. */
    public static <T> T joined(CompletableFuture<T> read) {
        try {
            return read.join();
        } catch (CompletionException e) {
            if (e.getCause() instanceof RuntimeException cause) {
                throw cause;
            }
            throw e;
        }
    }

    public static Order map(Row r) {
        return new Order(r.getUuid("order_id"), r.getString("customer_id"), r.getString("client_order_id"),
                r.getString("symbol"), r.getString("exchange"), r.getString("currency"),
                Side.valueOf(r.getString("side")), OrderType.valueOf(r.getString("order_type")),
                TimeInForce.valueOf(r.getString("time_in_force")), r.getBoolean("all_or_none"),
                r.getLong("quantity"), (Long) r.getObject("limit_price"), (Long) r.getObject("stop_price"),
                r.getBoolean("triggered"), OrderStatus.valueOf(r.getString("status")), r.getLong("filled_quantity"),
                r.getLong("filled_notional"), r.getLong("reserved"), r.getString("reject_reason"),
                r.getInstant("expires_at"), r.getInstant("placed_at"), r.getInstant("updated_at"),
                r.getString("home_region"), r.getString("placed_region"));
    }
}
