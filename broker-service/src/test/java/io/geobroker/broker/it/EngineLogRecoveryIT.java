package io.geobroker.broker.it;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.cql.Row;
import com.datastax.oss.driver.api.core.cql.SimpleStatement;
import io.geobroker.domain.Fill;
import io.geobroker.domain.Keyspaces;
import io.geobroker.testsupport.StackContext;
import io.geobroker.testsupport.WithLocalStack;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The rows a broker logged but had not written to their tables when it was SIGKILLed: the broker
 * logs every group's rows (its symbols' and its customers') and projects them once an hour, unless
 * a read asks for a round, so after its groups are durable the symbols' progress, resting orders and
 * fills and the customers' order rows exist only in the engine log. After the restart they must be
 * in their tables, the tickers already applied must fill nothing again, and the orders still
 * resting must be in the book, each filled exactly once by the next tickers. And a customer reads
 * its own writes: a read of its order waits for (and starts) the round that writes its row.
 */
@WithLocalStack
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class EngineLogRecoveryIT {

    private static final String[] SYMBOLS = {"CSCO", "INTC"};
    private static final int ORDERS_PER_SYMBOL = 8;
    private static final int FILLED_BEFORE_KILL = 5;
    private static final long PRICE = 10_000;
    private static final long QTY = 10;
    private static final long DEPOSIT = 100_000_000;

    private static final Path BROKER_LOG = Path.of("target", "engine-log-recovery-broker.log");

    private TestStack stack;
    @AutoClose
    private BrokerProcess broker;
    @AutoClose
    private Exchange exchange;

    @BeforeAll
    void start(StackContext context) {
        stack = TestStack.of(context);
        broker = new BrokerProcess(stack, "nvirginia", stack.testAddress(42), BROKER_LOG,
                Map.of("geobroker.engine.projection-interval", "1h", "geobroker.engine.min-logged-symbols", 1,
                        "geobroker.engine.log-customer-rows", true));
        broker.start();
        exchange = new Exchange(stack.kafkaBootstrap("nvirginia"), stack.topics());
    }

    @Test
    void logged_symbol_rows_are_written_at_start_and_nothing_fills_twice() throws InterruptedException {
        BrokerApi api = broker.api;
        CqlSession session = stack.session("nvirginia");
        String run = UUID.randomUUID().toString().substring(0, 6);
        String buyerId = "logbuyer" + run;
        String buyer = api.customer(buyerId, DEPOSIT);
        Map<String, String> owners = new HashMap<>();
        for (String symbol : SYMBOLS) {
            for (int i = 0; i < ORDERS_PER_SYMBOL; i++) {
                BrokerApi.Response r = api.place(buyer, "b-" + symbol + i, symbol, "BUY", "LIMIT", QTY,
                        "limitPrice", PRICE, "timeInForce", "GTC");
                assertThat(r.status()).as("%s", r.body()).isEqualTo(201);
                owners.put(r.text("orderId"), buyer);
            }
        }
        // each ticker offers one order's quantity: it fills exactly one order
        Map<String, Long> lastSequence = new HashMap<>();
        for (int t = 0; t < FILLED_BEFORE_KILL; t++) {
            for (String symbol : SYMBOLS) {
                lastSequence.put(symbol, exchange.tick(symbol, PRICE, QTY));
            }
        }
        int filledBeforeKill = FILLED_BEFORE_KILL * SYMBOLS.length;
        await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(100))
                .until(() -> Books.distinctIds(exchange.fills()).size() >= filledBeforeKill);

        long projected = projectedSeq(session, logTable());
        long logged = loggedAfter(session, logTable(), projected);
        for (String symbol : SYMBOLS) {
            assertThat(storedSequence(session, symbol)).as("%s's progress is only in the log", symbol)
                    .isLessThan(lastSequence.get(symbol));
            assertThat(restingRows(session, symbol)).as("%s's resting orders are only in the log", symbol).isZero();
        }
        assertThat(logged).as("groups in the log after projected_seq %d", projected).isPositive();
        assertThat(orderRows(session, buyerId)).as("the buyer's order rows are only in the log").isEmpty();

        broker.kill();
        broker.start();

        assertThat(projectedSeq(session, logTable())).as("what the log held is projected").isGreaterThanOrEqualTo(projected + logged);
        for (String symbol : SYMBOLS) {
            assertThat(storedSequence(session, symbol)).as("%s's progress written at start", symbol)
                    .isEqualTo(lastSequence.get(symbol));
            assertThat(restingRows(session, symbol)).as("%s's orders still resting", symbol)
                    .isEqualTo(ORDERS_PER_SYMBOL - FILLED_BEFORE_KILL);
        }
        Map<String, String> rows = orderRows(session, buyerId);
        assertThat(rows.keySet()).as("the buyer's order rows written at start").isEqualTo(owners.keySet());
        assertThat(rows.values().stream().filter("FILLED"::equals).count()).as("filled before the kill")
                .isEqualTo(filledBeforeKill);
        // the tickers before the kill again (a replay: they fill nothing), then the ones that fill the rest
        for (String symbol : SYMBOLS) {
            exchange.send(symbol, PRICE, QTY, lastSequence.get(symbol));
        }
        for (int t = FILLED_BEFORE_KILL; t < ORDERS_PER_SYMBOL; t++) {
            for (String symbol : SYMBOLS) {
                exchange.tick(symbol, PRICE, QTY);
            }
        }
        await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(200))
                .until(() -> Books.distinctIds(exchange.fills()).size() >= owners.size());
        // and no fill beyond those for a second (a second fill of an order would show up as a new id)
        await().during(Duration.ofSeconds(1)).atMost(Duration.ofSeconds(5)).pollInterval(Duration.ofMillis(200))
                .until(() -> Books.distinctIds(exchange.fills()).size() == owners.size());
        List<Fill> fills = exchange.fills();
        Map<String, Set<String>> idsPerOrder = Books.idsPerOrder(fills);

        assertThat(idsPerOrder.keySet()).containsExactlyInAnyOrderElementsOf(owners.keySet());
        assertThat(idsPerOrder.values()).as("one fill per order").allSatisfy(ids -> assertThat(ids).hasSize(1));
        for (String orderId : owners.keySet()) {
            BrokerApi.Response order = api.order(buyer, orderId);
            assertThat(order.text("status")).isEqualTo("FILLED");
            assertThat(order.number("filledQuantity")).isEqualTo(QTY);
        }
        long spent = Books.exchangeCash(Books.unique(fills));
        assertThat(Books.total(api.cash(buyer, "USD")) + spent).as("cash is conserved").isEqualTo(DEPOSIT);
        System.out.printf("engine log recovery: %d groups logged after projected_seq %d at the kill, %d fills, "
                + "%d publications%n", logged, projected, Books.unique(fills).size(), fills.size());
    }

    @Test
    void a_customer_reads_its_own_logged_rows() {
        BrokerApi api = broker.api;
        CqlSession session = stack.session("nvirginia");
        String run = UUID.randomUUID().toString().substring(0, 6);
        String readerId = "logreader" + run;
        String reader = api.customer(readerId, DEPOSIT);
        BrokerApi.Response placed = api.place(reader, "r-1", "MSFT", "BUY", "LIMIT", QTY, "limitPrice", PRICE,
                "timeInForce", "GTC");
        assertThat(placed.status()).as("%s", placed.body()).isEqualTo(201);
        String orderId = placed.text("orderId");
        assertThat(orderRows(session, readerId)).as("the order's row is only in the log").isEmpty();

        BrokerApi.Response read = broker.api.order(reader, orderId);
        assertThat(read.status()).as("%s", read.body()).isEqualTo(200);
        assertThat(read.text("status")).isEqualTo("OPEN");
        assertThat(orderRows(session, readerId)).as("the read's round wrote the row").containsEntry(orderId, "OPEN");
        long[] cash = api.cash(reader, "USD");
        assertThat(cash[1]).as("the order's reservation is read too").isPositive();
        assertThat(cash[0] + cash[1]).isEqualTo(DEPOSIT);
    }

    /**
     * With several groups' writes under way, a SIGKILL can leave a later group's slot without an
     * earlier one's. Nothing of that group was answered, and the start replays the log only up to
     * the missing slot; the slot beyond it must go too, or it would pass for the group of its number
     * once the new run's groups reach the slot before it (and a later start would replay it).
     */
    @Test
    void a_slot_beyond_the_first_missing_one_is_deleted_at_start() throws Exception {
        CqlSession session = stack.session("nvirginia");
        String run = UUID.randomUUID().toString().substring(0, 6);
        broker.api.customer("beyond" + run, DEPOSIT); // at least one group in the log
        Row newest = session.execute(SimpleStatement.newInstance("SELECT slot, seq, statements, WRITETIME(statements) "
                + "AS written FROM " + logTable() + " WHERE region = 'nvirginia'")).all().stream()
                .filter(r -> !r.isNull("seq")).max(java.util.Comparator.comparingLong(r -> r.getLong("seq")))
                .orElseThrow();
        long stale = newest.getLong("seq") + 2; // the slot of seq + 1 is missing
        ByteBuffer blob = newest.getByteBuffer("statements");
        long written = newest.getLong("written") + 1;
        broker.kill();
        session.execute(SimpleStatement.newInstance("INSERT INTO " + logTable() + " (region, slot, seq, statements) "
                + "VALUES ('nvirginia', ?, ?, ?) USING TIMESTAMP ?", slotOf(stale), stale, blob, written));
        long deletionsLogged = linesWith(BROKER_LOG, "deleted the log slots a stopped broker left beyond group");

        broker.start();

        Row slot = session.execute(SimpleStatement.newInstance("SELECT seq, statements, WRITETIME(statements) AS "
                + "written FROM " + logTable() + " WHERE region = 'nvirginia' AND slot = ?", slotOf(stale))).one();
        assertThat(slot == null || slot.isNull("seq") || slot.getLong("written") > written
                && !blob.equals(slot.getByteBuffer("statements")))
                .as("group %d's slot is gone, or holds a group the new run wrote", stale).isTrue();
        assertThat(linesWith(BROKER_LOG, "deleted the log slots a stopped broker left beyond group " + (stale - 2)))
                .as("the start says what it deleted").isGreaterThan(0);
        assertThat(linesWith(BROKER_LOG, "deleted the log slots a stopped broker left beyond group"))
                .isEqualTo(deletionsLogged + 1);
        BrokerApi.Response placed = broker.api.place(broker.api.customer("after" + run, DEPOSIT), "a-1", "MSFT", "BUY",
                "LIMIT", QTY, "limitPrice", PRICE, "timeInForce", "GTC");
        assertThat(placed.status()).as("the restarted engine takes orders: %s", placed.body()).isEqualTo(201);
    }

    /** The slot of group {@code seq} in the log's ring of 1,024 slots (EngineLog.SLOTS). */
    private static int slotOf(long seq) {
        return (int) Math.floorMod(seq, 1024L);
    }

    private static long linesWith(Path file, String text) throws IOException {
        try (var lines = Files.lines(file)) {
            return lines.filter(l -> l.contains(text)).count();
        }
    }

    /**
     * An upgrade: a broker that keeps the log where brokers before schema V014 did (the broker's own
     * keyspace, replicated to every DC) is SIGKILLed with its groups only there; a broker of this
     * version writes them before it reads any state, then logs to its DC's own keyspace.
     */
    @Test
    void a_log_left_where_brokers_before_v014_kept_it_is_written_at_start() throws InterruptedException {
        CqlSession session = stack.session("nvirginia");
        broker.close(); // a graceful stop: its own log is projected, the older layout's broker starts from its tables
        String olderTable = stack.keyspace() + ".engine_log";
        try (BrokerProcess older = new BrokerProcess(stack, "nvirginia", stack.testAddress(43),
                Path.of("target", "engine-log-recovery-older-broker.log"),
                Map.of("geobroker.engine.projection-interval", "1h", "geobroker.engine.min-logged-symbols", 1,
                        "geobroker.engine.log-customer-rows", true, "geobroker.engine.log-keyspace", stack.keyspace()))) {
            older.start();
            String run = UUID.randomUUID().toString().substring(0, 6);
            String customerId = "olderlog" + run;
            String customer = older.api.customer(customerId, DEPOSIT);
            Set<String> placed = new HashSet<>();
            for (int i = 0; i < 3; i++) {
                BrokerApi.Response r = older.api.place(customer, "o-" + i, "AAPL", "BUY", "LIMIT", QTY,
                        "limitPrice", PRICE, "timeInForce", "GTC");
                assertThat(r.status()).as("%s", r.body()).isEqualTo(201);
                placed.add(r.text("orderId"));
            }
            long projected = projectedSeq(session, olderTable);
            assertThat(loggedAfter(session, olderTable, projected)).as("groups in the older log after %d", projected)
                    .isPositive();
            assertThat(orderRows(session, customerId)).as("the order rows are only in the older log").isEmpty();
            older.kill();

            broker.start();

            Map<String, String> rows = orderRows(session, customerId);
            assertThat(rows.keySet()).as("the order rows written at start").isEqualTo(placed);
            assertThat(rows.values()).allSatisfy(status -> assertThat(status).isEqualTo("OPEN"));
            assertThat(loggedAfter(session, olderTable, projectedSeq(session, olderTable)))
                    .as("nothing left unprojected in the older log").isZero();
            assertThat(restingRows(session, "AAPL")).as("the orders rest in AAPL's book").isEqualTo(placed.size());
            BrokerApi.Response cancel = broker.api.cancel(customer, placed.iterator().next());
            assertThat(cancel.status()).as("the restarted engine holds them: %s", cancel.body()).isEqualTo(200);
        }
    }

    /** The customer's order rows in the table (not through the broker), by order id: their status. */
    private static Map<String, String> orderRows(CqlSession session, String customerId) {
        Map<String, String> rows = new HashMap<>();
        for (Row r : session.execute(SimpleStatement.newInstance(
                "SELECT order_id, status FROM customer_orders WHERE customer_id = ?", customerId))) {
            rows.put(r.getUuid("order_id").toString(), r.getString("status"));
        }
        return rows;
    }

    /** The broker's engine log: in N. Virginia's DC's own keyspace. */
    private String logTable() {
        return Keyspaces.ofDataCenter(stack.keyspace(), "NorthVirginiaDC") + ".engine_log";
    }

    private static long projectedSeq(CqlSession session, String table) {
        Row r = session.execute(SimpleStatement.newInstance(
                "SELECT projected_seq FROM " + table + " WHERE region = 'nvirginia' LIMIT 1")).one();
        return r == null || r.isNull("projected_seq") ? 0 : r.getLong("projected_seq");
    }

    private static long loggedAfter(CqlSession session, String table, long projected) {
        return session.execute(SimpleStatement.newInstance(
                "SELECT seq FROM " + table + " WHERE region = 'nvirginia'")).all().stream()
                .filter(r -> !r.isNull("seq") && r.getLong("seq") > projected).count();
    }

    private static long storedSequence(CqlSession session, String symbol) {
        Row r = session.execute(SimpleStatement.newInstance(
                "SELECT last_ticker_sequence FROM symbol_state WHERE symbol = ?", symbol)).one();
        return r == null ? 0 : r.getLong("last_ticker_sequence");
    }

    private static long restingRows(CqlSession session, String symbol) {
        return session.execute(SimpleStatement.newInstance(
                "SELECT order_id FROM symbol_orders WHERE symbol = ?", symbol)).all().size();
    }
}
