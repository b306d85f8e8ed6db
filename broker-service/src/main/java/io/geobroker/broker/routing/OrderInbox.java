package io.geobroker.broker.routing;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.DefaultConsistencyLevel;
import com.datastax.oss.driver.api.core.cql.BatchStatement;
import com.datastax.oss.driver.api.core.cql.BatchType;
import com.datastax.oss.driver.api.core.cql.BoundStatement;
import com.datastax.oss.driver.api.core.cql.PreparedStatement;
import com.datastax.oss.driver.api.core.cql.Row;
import com.datastax.oss.driver.api.core.uuid.Uuids;
import io.geobroker.broker.matching.BatchLogBypass;
import io.geobroker.broker.matching.HealResend;
import io.geobroker.broker.matching.InboxDecision;
import io.geobroker.broker.matching.ProjectionBarrier;
import io.geobroker.broker.order.Coalescer;
import io.geobroker.broker.order.NewOrder;
import io.geobroker.broker.order.Order;
import io.geobroker.broker.order.OrderDao;
import io.geobroker.domain.OrderStatus;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.MeterRegistry;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Repository;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The {@code order_inbox} table: Cassandra as the geo transport of limit and stop orders. The
 * placing region writes the order (status PENDING), the customer's listing row and an inbox row in
 * one logged batch in its own DC; Cassandra replicates them; the home region's broker reads its
 * inbox partitions {@code (home_region, minute)} and takes the order into its engine.
 */
@Repository
public class OrderInbox {

    private static final Logger log = LoggerFactory.getLogger(OrderInbox.class);

    /**
     * Orders whose rows share one logged batch at most: ~0.5 KiB of rows each, so a full batch stays
     * far below Cassandra's default {@code batch_size_fail_threshold} (50 KiB).
     */
    static final int ORDERS_PER_BATCH = 32;
    private static final String ONE_LANE = "pending orders";

    /**
     * The key of one inbox row, its order's customer (null in a row written before schema V006), and
     * whether the home broker has already taken it.
     */
    public record Entry(String homeRegion, long minute, UUID placedAt, UUID orderId, String customerId,
                        String placedRegion, boolean processed) {

        public long placedAtMillis() {
            return Uuids.unixTimestamp(placedAt);
        }
    }

    /** An order row as the placing region wrote it, with the write time of its status. */
    public record Stored(Order order, long statusWriteMicros) {
    }

    /**
     * A PENDING order as just stored (its rows written at {@code writeMicros}), and the inbox row that
     * tells its home region about it.
     */
    public record Pending(Order order, Entry entry, long writeMicros) {
    }

    private final CqlSession session;
    private final BatchLogBypass bypass;
    private final HealResend healResend;
    private final PreparedStatement insertOrder;
    private final PreparedStatement insertByCustomer;
    private final PreparedStatement insertInbox;
    private final PreparedStatement selectTail;
    private final PreparedStatement selectPartition;
    private final PreparedStatement selectOrder;
    /**
     * A customer's reads of an order row wait for this region's engine's logged changes of the
     * customer ({@link #order}). The home's inbox reads ({@link #ordersAsync}) do not: an order its
     * engine decided while the decision waits for its projection round is among the 100,000 the
     * engine remembers, and a start writes the log before the inbox is read.
     */
    private final ProjectionBarrier barrier;
    private final PreparedStatement selectOrders;
    private final Coalescer<String, List<BoundStatement>, Long> batches;
    private final AtomicLong lastWriteMicros = new AtomicLong();
    private final DistributionSummary ordersPerBatch;

    public OrderInbox(CqlSession session, HealResend healResend, MeterRegistry meters, ProjectionBarrier barrier) {
        this.barrier = barrier;
        this.session = session;
        this.ordersPerBatch = Coalescer.itemsPerRequest(meters, "pending-orders");
        this.healResend = healResend;
        this.bypass = BatchLogBypass.watching(session);
        insertOrder = session.prepare("INSERT INTO customer_orders (order_id, customer_id, client_order_id, symbol, exchange, "
                + "currency, home_region, placed_region, side, order_type, time_in_force, all_or_none, quantity, "
                + "limit_price, stop_price, triggered, status, filled_quantity, filled_notional, reserved, placed_at, "
                + "updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, false, ?, 0, 0, 0, ?, ?)");
        insertByCustomer = session.prepare("INSERT INTO orders_by_customer (customer_id, placed_at, order_id, symbol, "
                + "side, order_type, quantity) VALUES (?, ?, ?, ?, ?, ?, ?)");
        insertInbox = session.prepare("INSERT INTO order_inbox (home_region, minute, placed_at, order_id, "
                + "customer_id, placed_region, processed) VALUES (?, ?, ?, ?, ?, ?, false)");
        selectTail = session.prepare("SELECT placed_at, order_id, customer_id, placed_region, processed FROM order_inbox "
                + "WHERE home_region = ? AND minute = ? AND placed_at > ?");
        selectPartition = session.prepare("SELECT placed_at, order_id, customer_id, placed_region, processed "
                + "FROM order_inbox WHERE home_region = ? AND minute = ? AND processed = false ALLOW FILTERING");
        selectOrder = session.prepare("SELECT " + OrderDao.ORDER_COLUMNS + ", WRITETIME(status) AS status_written "
                + "FROM customer_orders WHERE customer_id = ? AND order_id = ?");
        selectOrders = session.prepare("SELECT " + OrderDao.ORDER_COLUMNS + ", WRITETIME(status) AS status_written "
                + "FROM customer_orders WHERE customer_id = ? AND order_id IN ?");
        batches = new Coalescer<>((lane, orders) -> writeBatch(orders), ORDERS_PER_BATCH);
    }

    /**
     * Stores a limit or stop order placed here for another region's symbol: PENDING, reserving
     * nothing (the home region owns the cash and shares it needs). Idempotent: the order id is
     * derived from the customer and client order id, and a repeat finds the order's row here
     * ({@link #writeAgain}).
     *
     * @return the order as stored, its inbox row and the write time of its rows
     */
    public Pending placePending(NewOrder n) {
        UUID placed = Uuids.timeBased();
        Instant placedAt = Instant.ofEpochMilli(Uuids.unixTimestamp(placed));
        List<BoundStatement> rows = List.of(
                insertOrder.bind(n.orderId(), n.customerId(), n.clientOrderId(), n.symbol().symbol(),
                        n.symbol().exchange(), n.currency(), n.homeRegion(), n.placedRegion(), n.side().name(),
                        n.type().name(), n.timeInForce().name(), n.allOrNone(), n.quantity(), n.limitPrice(),
                        n.stopPrice(), OrderStatus.PENDING.name(), placedAt, placedAt),
                insertByCustomer.bind(n.customerId(), placedAt, n.orderId(), n.symbol().symbol(), n.side().name(),
                        n.type().name(), n.quantity()),
                insertInbox.bind(n.homeRegion(), minuteOf(placedAt.toEpochMilli()), placed, n.orderId(),
                        n.customerId(), n.placedRegion()));
        long writeMicros = write(rows);
        Order order = new Order(n.orderId(), n.customerId(), n.clientOrderId(), n.symbol().symbol(), n.symbol().exchange(),
                n.currency(), n.side(), n.type(), n.timeInForce(), n.allOrNone(), n.quantity(), n.limitPrice(),
                n.stopPrice(), false, OrderStatus.PENDING, 0, 0, 0, null, null, placedAt, placedAt, n.homeRegion(),
                n.placedRegion());
        return new Pending(order, new Entry(n.homeRegion(), minuteOf(placedAt.toEpochMilli()), placed, n.orderId(),
                n.customerId(), n.placedRegion(), false), writeMicros);
    }

    /**
     * A placement repeated here while its order is still PENDING here: the order's list entry (the
     * same row as its first placement's) and a new inbox row, in the current minute, so that the home
     * broker's inbox reads find the order again. A first placement whose rows were written one by one
     * and failed after its order row (answered 503) is completed so; an order the home took already is
     * only written again there, above this PENDING row ({@link InboxDecision}). Not announced: the home
     * takes it from its inbox reads, after a read of the order's row in its own DC, where a decision it
     * made before a restart wins over every PENDING write.
     */
    public void writeAgain(Order pending) {
        UUID placed = Uuids.timeBased();
        write(List.of(
                insertByCustomer.bind(pending.customerId(), pending.placedAt(), pending.orderId(), pending.symbol(),
                        pending.side().name(), pending.type().name(), pending.quantity()),
                insertInbox.bind(pending.homeRegion(), minuteOf(Uuids.unixTimestamp(placed)), placed, pending.orderId(),
                        pending.customerId(), pending.placedRegion())));
    }

    /**
     * The order's rows in a logged batch, so that they are all written or, once its batch log is,
     * all written eventually; the orders placed while the batch before is under way share the next
     * one ({@link Coalescer}, at most {@link #ORDERS_PER_BATCH}), and with it one batch log and one
     * mutation per partition. When the batch log itself could not be written (nothing of the batch
     * was applied: one of the two other nodes of this DC it goes to is dead but not yet convicted,
     * which lasts ~20 s after a SIGKILL at three nodes per DC), each order's rows are written one by
     * one, its inbox row last, and so are the orders of {@link BatchLogBypass}'s window: the home
     * region takes an order only once every row is here. A failure in between leaves a PENDING order
     * its placer was answered 503 for, which placing it again (the same client order id) completes.
     * A logged batch that timed out after its batch log was written (a replica slow to answer, as a
     * node just restarted is) is durable: the order is accepted, its rows arrive from the log.
     *
     * @return the write time of the rows
     */
    private long write(List<BoundStatement> rows) {
        long writeMicros;
        if (bypass.active()) {
            writeMicros = nextWriteMicros();
            writeRowByRow(rows, writeMicros);
        } else {
            try {
                writeMicros = OrderDao.joined(batches.submit(ONE_LANE, rows));
            } catch (BatchFailed failed) {
                writeMicros = failed.writeMicros;
                RuntimeException e = failed.getCause();
                if (BatchLogBypass.loggedButLate(e)) {
                    log.info("the rows of pending order {} are in the batch log and not yet in every replica: "
                            + "Cassandra applies them from it", rows.get(0).getUuid(0));
                } else if (e == NOT_SENT || bypass.opensOn(e)) {
                    writeRowByRow(rows, writeMicros);
                } else {
                    throw e;
                }
            }
        }
        healResend.confirmedFirst(rows, writeMicros);
        return writeMicros;
    }

    /**
     * One logged batch of the rows of several orders, at one write time; the driver's thread calls it.
     * While {@link BatchLogBypass} is open (it may have opened while these orders waited for the batch
     * before) it is not sent: each order's rows are then written one by one by its own caller.
     */
    private CompletableFuture<List<Long>> writeBatch(List<List<BoundStatement>> orders) {
        long writeMicros = nextWriteMicros();
        if (bypass.active()) {
            return CompletableFuture.failedFuture(new BatchFailed(writeMicros, NOT_SENT));
        }
        ordersPerBatch.record(orders.size());
        BatchStatement batch = BatchStatement.newInstance(BatchType.LOGGED);
        for (List<BoundStatement> rows : orders) {
            batch = batch.addAll(rows);
        }
        return session.executeAsync(batch.setConsistencyLevel(DefaultConsistencyLevel.LOCAL_QUORUM)
                        .setQueryTimestamp(writeMicros)
                        .setIdempotent(true))
                .toCompletableFuture()
                .handle((done, failure) -> {
                    if (failure != null) {
                        Throwable cause = failure instanceof CompletionException c && c.getCause() != null
                                ? c.getCause() : failure;
                        throw new BatchFailed(writeMicros, cause instanceof RuntimeException r ? r
                                : new IllegalStateException(cause));
                    }
                    return Collections.nCopies(orders.size(), writeMicros);
                });
    }

    private void writeRowByRow(List<BoundStatement> rows, long writeMicros) {
        for (BoundStatement row : rows) {
            session.execute(row.setConsistencyLevel(DefaultConsistencyLevel.LOCAL_QUORUM)
                    .setQueryTimestamp(writeMicros)
                    .setIdempotent(true));
        }
    }

    /**
     * Write times of this broker's own PENDING rows: microseconds, strictly increasing, a day below
     * the clock, so that they lose to every write of the home region about the order
     * ({@link InboxDecision#PENDING_WRITE_LAG_MICROS}).
     */
    private long nextWriteMicros() {
        long now = System.currentTimeMillis() * 1000 - InboxDecision.PENDING_WRITE_LAG_MICROS;
        return lastWriteMicros.accumulateAndGet(now, (last, wall) -> Math.max(wall, last + 1));
    }

    /** Why a batch of pending orders was not sent: the batch log is bypassed. */
    private static final RuntimeException NOT_SENT = new RuntimeException(
            "the batch log is bypassed: rows written one by one", null, false, false) {
    };

    /** A logged batch of pending orders that failed, and the write time its rows had. */
    private static final class BatchFailed extends RuntimeException {
        final long writeMicros;

        BatchFailed(long writeMicros, RuntimeException cause) {
            super(cause.getMessage(), cause, false, false);
            this.writeMicros = writeMicros;
        }

        @Override
        public synchronized RuntimeException getCause() {
            return (RuntimeException) super.getCause();
        }
    }

    /** Rows of one minute partition placed after {@code afterMillis} (the tail read). */
    List<Entry> after(String homeRegion, long minute, long afterMillis) {
        List<Entry> entries = new ArrayList<>();
        for (Row r : session.execute(selectTail.bind(homeRegion, minute, Uuids.endOf(afterMillis)))) {
            entries.add(entry(homeRegion, minute, r));
        }
        return entries;
    }

    /** Rows of one minute partition the home broker has not taken yet (the sweep). */
    List<Entry> unprocessed(String homeRegion, long minute) {
        List<Entry> entries = new ArrayList<>();
        for (Row r : session.execute(selectPartition.bind(homeRegion, minute))) {
            entries.add(entry(homeRegion, minute, r));
        }
        return entries;
    }

    /** The customer's order row as this DC has it now, if it has arrived. */
    public Optional<Stored> order(String customerId, UUID orderId) {
        return OrderDao.joined(orderAsync(customerId, orderId));
    }

    /**
     * {@link #order}, without waiting: the poller reads many orders at once. An inbox row without a
     * customer (written before schema V006, for an order taken long since) finds none.
     */
    CompletableFuture<Optional<Stored>> orderAsync(String customerId, UUID orderId) {
        return customerId == null ? CompletableFuture.completedFuture(Optional.empty())
                : barrier.customer(customerId).thenCompose(projected -> session.executeAsync(
                        selectOrder.bind(customerId, orderId)).thenApply(rs -> stored(rs.one())))
                .toCompletableFuture();
    }

    /**
     * The customer's order rows {@code orderIds} (distinct) as this DC has them now, by order id, those
     * that have arrived: one read of the customer's partition per {@link OrderDao#IDS_PER_READ} ids, all at once.
     */
    CompletableFuture<Map<UUID, Stored>> ordersAsync(String customerId, List<UUID> orderIds) {
        List<CompletableFuture<Map<UUID, Stored>>> reads = new ArrayList<>();
        for (int from = 0; from < orderIds.size(); from += OrderDao.IDS_PER_READ) {
            List<UUID> ids = List.copyOf(orderIds.subList(from, Math.min(orderIds.size(), from + OrderDao.IDS_PER_READ)));
            reads.add(session.executeAsync(selectOrders.bind(customerId, ids)).toCompletableFuture().thenApply(rs -> {
                Map<UUID, Stored> found = new HashMap<>();
                for (Row r : rs.currentPage()) {
                    stored(r).ifPresent(s -> found.put(s.order().orderId(), s));
                }
                return found;
            }));
        }
        return CompletableFuture.allOf(reads.toArray(CompletableFuture[]::new)).thenApply(done -> {
            Map<UUID, Stored> all = new HashMap<>();
            reads.forEach(r -> all.putAll(r.join()));
            return all;
        });
    }

    private static Optional<Stored> stored(Row r) {
        return Optional.ofNullable(r).filter(OrderDao::complete)
                .map(row -> new Stored(OrderDao.map(row), row.getLong("status_written")));
    }

    static long minuteOf(long epochMillis) {
        return Math.floorDiv(epochMillis, 60_000L);
    }

    private static Entry entry(String homeRegion, long minute, Row r) {
        return new Entry(homeRegion, minute, r.getUuid("placed_at"), r.getUuid("order_id"), r.getString("customer_id"),
                r.getString("placed_region"), r.getBoolean("processed"));
    }
}
