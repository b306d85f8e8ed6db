package io.geobroker.broker.it;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.cql.Row;
import com.datastax.oss.driver.api.core.cql.SimpleStatement;
import com.datastax.oss.driver.api.core.metadata.schema.KeyspaceMetadata;
import io.geobroker.broker.order.OrderIds;
import io.geobroker.broker.security.Tokens;
import io.geobroker.schema.SchemaTool;
import io.geobroker.testsupport.StackContext;
import io.geobroker.testsupport.WithLocalStack;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * An upgrade from schema version 7: what brokers of before versions 5-7 left in the tables version
 * 8 drops (orders, quotes, open_orders, fills_by_ticker) is copied by the schema tool into the tables
 * that replaced them, and a broker of this version, which reads only those, serves it: the quote,
 * the resting and the filled order, and the fill a restart publishes again.
 */
@WithLocalStack(schemaVersion = 7)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class SchemaUpgradeIT {

    private static final long START_CASH = 10_000_000;
    /** A symbol whose only quote is one an older broker left in the quotes table (before schema V005, read from there by brokers up to V007). */
    private static final String LEGACY_QUOTED = "KO";
    private static final long LEGACY_SEQUENCE = 7;
    private static final long LEGACY_PRICE = 12_300;
    /** A customer whose orders an older broker left in the orders table (before schema V006, read from there by brokers up to V007). */
    private static final String LEGACY_CUSTOMER = "legacy-ann";
    private static final String LEGACY_TOKEN = Tokens.newToken(LEGACY_CUSTOMER);
    private static final String LEGACY_SYMBOL = "PFE";
    private static final UUID LEGACY_OPEN = OrderIds.orderId(LEGACY_CUSTOMER, "old-open");
    private static final UUID LEGACY_FILLED = OrderIds.orderId(LEGACY_CUSTOMER, "old-filled");

    /** When the old broker wrote its orders rows (µs). */
    private static final long LEGACY_WRITTEN_MICROS = Instant.parse("2026-01-05T15:00:00Z").toEpochMilli() * 1000;
    /** An order of a generation the symbol has left: not copied. */
    private static final UUID LEGACY_GONE = OrderIds.orderId(LEGACY_CUSTOMER, "old-gone");

    private TestStack stack;
    private StackContext context;
    private final List<String> reports = new ArrayList<>();
    private List<Integer> upgraded;
    @AutoClose
    private InProcessBroker broker;
    private BrokerApi api;
    @AutoClose
    private Exchange exchange;

    @BeforeAll
    void start(StackContext context) {
        this.context = context;
        stack = TestStack.of(context);
        CqlSession session = stack.session("nvirginia");
        session.execute(SimpleStatement.newInstance("INSERT INTO quotes (symbol, exchange, price, "
                + "volume, sequence, exchange_time_micros, updated_at) VALUES (?, 'NYSE', ?, 40, ?, 1000000, ?)",
                LEGACY_QUOTED, LEGACY_PRICE, LEGACY_SEQUENCE, Instant.parse("2026-01-05T15:00:00Z")));
        writeLegacyOrders(session);
        upgraded = SchemaTool.apply(session, context.keyspace(), SchemaTool.replicationOf(context.topology()),
                Integer.MAX_VALUE, reports::add);
        broker = new InProcessBroker(stack, "nvirginia", stack.testAddress(29), Map.of());
        api = broker.api;
        exchange = new Exchange(stack.kafkaBootstrap("nvirginia"), stack.topics());
    }

    /**
     * What a broker of schema V005 left for {@link #LEGACY_CUSTOMER}: an open BUY LIMIT of 10 PFE
     * at 100.00 (resting on the symbol, its 1,000.00 reserved) and a filled order, in the orders
     * table and the customer's list.
     */
    private static void writeLegacyOrders(CqlSession session) {
        Instant placed = Instant.parse("2026-01-05T15:00:00Z");
        session.execute(SimpleStatement.newInstance("INSERT INTO customers (customer_id, display_name, token_sha256, "
                + "created_at) VALUES (?, ?, ?, ?)", LEGACY_CUSTOMER, LEGACY_CUSTOMER, Tokens.sha256(LEGACY_TOKEN), placed));
        session.execute(SimpleStatement.newInstance("INSERT INTO cash (customer_id, currency, available, reserved) "
                + "VALUES (?, 'USD', ?, ?)", LEGACY_CUSTOMER, START_CASH - 100_000 - 50_000, 100_000L));
        String insert = "INSERT INTO orders (order_id, customer_id, client_order_id, symbol, exchange, currency, "
                + "home_region, placed_region, side, order_type, time_in_force, all_or_none, quantity, limit_price, "
                + "triggered, status, filled_quantity, filled_notional, reserved, placed_at, updated_at) "
                + "VALUES (?, ?, ?, ?, 'NYSE', 'USD', 'nvirginia', 'nvirginia', 'BUY', 'LIMIT', 'GTC', false, ?, "
                + "10000, false, ?, ?, ?, ?, ?, ?) USING TIMESTAMP " + LEGACY_WRITTEN_MICROS;
        session.execute(SimpleStatement.newInstance(insert, LEGACY_OPEN, LEGACY_CUSTOMER, "old-open", LEGACY_SYMBOL,
                10L, "OPEN", 0L, 0L, 100_000L, placed, placed));
        session.execute(SimpleStatement.newInstance(insert, LEGACY_FILLED, LEGACY_CUSTOMER, "old-filled", LEGACY_SYMBOL,
                5L, "FILLED", 5L, 50_000L, 0L, placed.minusSeconds(60), placed));
        for (UUID id : List.of(LEGACY_OPEN, LEGACY_FILLED)) {
            session.execute(SimpleStatement.newInstance("INSERT INTO orders_by_customer (customer_id, placed_at, order_id, "
                    + "symbol, side, order_type, quantity) VALUES (?, ?, ?, ?, 'BUY', 'LIMIT', ?)", LEGACY_CUSTOMER,
                    id.equals(LEGACY_OPEN) ? placed : placed.minusSeconds(60), id, LEGACY_SYMBOL,
                    id.equals(LEGACY_OPEN) ? 10L : 5L));
        }
        session.execute(SimpleStatement.newInstance("INSERT INTO open_orders (symbol, generation, order_id, customer_id, "
                + "side, order_type, time_in_force, all_or_none, limit_price, triggered, remaining, placed_at, sequence) "
                + "VALUES (?, 0, ?, ?, 'BUY', 'LIMIT', 'GTC', false, 10000, false, 10, ?, 1)",
                LEGACY_SYMBOL, LEGACY_OPEN, LEGACY_CUSTOMER, placed));
        session.execute(SimpleStatement.newInstance("INSERT INTO open_orders (symbol, generation, order_id, customer_id, "
                + "side, order_type, time_in_force, all_or_none, limit_price, triggered, remaining, placed_at, sequence) "
                + "VALUES (?, -1, ?, ?, 'BUY', 'LIMIT', 'GTC', false, 10000, false, 10, ?, 0)",
                LEGACY_SYMBOL, LEGACY_GONE, LEGACY_CUSTOMER, placed));
        session.execute(SimpleStatement.newInstance("INSERT INTO symbol_state (symbol, generation, deletions, "
                + "last_ticker_sequence, next_order_sequence, last_group_first_sequence) VALUES (?, 0, 0, 0, 2, 0)",
                LEGACY_SYMBOL));
        // before schema V007 the fills a restart publishes again were in fills_by_ticker
        session.execute(SimpleStatement.newInstance("INSERT INTO fills_by_ticker (symbol, ticker_sequence, fill_id, "
                + "order_id, customer_id, side, order_type, price, quantity, currency, ticker_exchange_time_micros, "
                + "durable_time_micros) VALUES (?, 0, ?, ?, ?, 'BUY', 'LIMIT', 10000, 5, 'USD', 1000000, 2000000)",
                LEGACY_SYMBOL, OrderIds.fillId(LEGACY_FILLED, 0), LEGACY_FILLED, LEGACY_CUSTOMER));
    }

    @Test
    @Order(1) // before the other tests fill and add orders
    void version_8_copies_what_the_old_tables_held_and_drops_them() {
        assertThat(upgraded).as("version 8 first, then every later one once, in order").startsWith(8).isSorted()
                .doesNotHaveDuplicates();
        assertThat(reports).containsExactly("2 order(s), 1 quote(s), 1 resting order(s) and 1 fill(s) copied "
                + "from the tables version 8 drops");
        KeyspaceMetadata keyspace = stack.session("nvirginia").getMetadata().getKeyspace(context.keyspace()).orElseThrow();
        for (String table : List.of("orders", "quotes", "open_orders", "fills_by_ticker")) {
            assertThat(keyspace.getTable(table)).as(table).isEmpty();
        }
        assertThat(keyspace.getTable("orders_by_customer").orElseThrow().getColumns().keySet())
                .extracting(Object::toString).doesNotContain("status", "filled_quantity").contains("symbol");

        CqlSession session = stack.session("nvirginia");
        Row open = session.execute(SimpleStatement.newInstance("SELECT status, reserved, WRITETIME(status) AS written "
                + "FROM customer_orders WHERE customer_id = ? AND order_id = ?", LEGACY_CUSTOMER, LEGACY_OPEN)).one();
        assertThat(open).isNotNull();
        assertThat(open.getLong("reserved")).isEqualTo(100_000);
        assertThat(open.getLong("written")).as("written at the old row's time, so a newer write wins")
                .isEqualTo(LEGACY_WRITTEN_MICROS);
        assertThat(session.execute(SimpleStatement.newInstance("SELECT order_id FROM symbol_orders WHERE symbol = ?",
                LEGACY_SYMBOL)).all()).as("the resting order of the current generation only")
                .extracting(r -> r.getUuid("order_id")).containsExactly(LEGACY_OPEN);

        assertThat(SchemaTool.apply(session, context.keyspace(), SchemaTool.replicationOf(context.topology())))
                .as("applying again does nothing").isEmpty();
    }

    @Test
    void a_quote_left_in_the_quotes_table_is_the_symbols_quote() {
        String hal = customer();
        CqlSession session = stack.session("nvirginia");

        BrokerApi.Response legacy = api.get(hal, "/api/v1/quotes/" + LEGACY_QUOTED);
        assertThat(legacy.status()).as("%s", legacy.body()).isEqualTo(200);
        assertThat(legacy.number("sequence")).isEqualTo(LEGACY_SEQUENCE);
        assertThat(legacy.number("price")).isEqualTo(LEGACY_PRICE);
        assertThat(legacy.text("exchange")).isEqualTo("NYSE");
        Row copied = session.execute(SimpleStatement.newInstance(
                "SELECT quote_sequence, quote_price FROM symbol_state WHERE symbol = ?", LEGACY_QUOTED)).one();
        assertThat(copied).as("the schema upgrade copied the quote into symbol_state").isNotNull();
        assertThat(copied.getLong("quote_sequence")).isEqualTo(LEGACY_SEQUENCE);
        assertThat(copied.getLong("quote_price")).isEqualTo(LEGACY_PRICE);
        BrokerApi.Response bought = api.place(hal, "q1", LEGACY_QUOTED, "BUY", "MARKET", 10);
        assertThat(bought.status()).as("%s", bought.body()).isEqualTo(201);
        assertThat(bought.body().path("fills").get(0).path("price").asLong()).isEqualTo(LEGACY_PRICE);
        assertThat(bought.body().path("fills").get(0).path("tickerSequence").asLong()).isEqualTo(LEGACY_SEQUENCE);

    }

    @Test
    void orders_an_older_broker_left_in_the_orders_table_are_served_and_filled() {
        CqlSession session = stack.session("nvirginia");
        String other = customer();

        BrokerApi.Response open = order(LEGACY_TOKEN, LEGACY_OPEN.toString());
        assertThat(open.status()).as("%s", open.body()).isEqualTo(200);
        assertThat(open.text("status")).isEqualTo("OPEN");
        assertThat(open.text("symbol")).isEqualTo(LEGACY_SYMBOL);
        assertThat(order(LEGACY_TOKEN, LEGACY_FILLED.toString()).text("status")).isEqualTo("FILLED");
        assertThat(order(other, LEGACY_OPEN.toString()).status()).as("not another customer's").isEqualTo(404);
        assertThat(api.get(LEGACY_TOKEN, "/api/v1/orders").body().findValuesAsText("orderId"))
                .containsExactly(LEGACY_OPEN.toString(), LEGACY_FILLED.toString());
        assertThat(api.get(LEGACY_TOKEN, "/api/v1/orders?status=FILLED").body().findValuesAsText("orderId"))
                .containsExactly(LEGACY_FILLED.toString());

        BrokerApi.Response repeat = api.place(LEGACY_TOKEN, "old-open", LEGACY_SYMBOL, "BUY", "LIMIT", 10,
                "limitPrice", 10_000, "timeInForce", "GTC");
        assertThat(repeat.status()).as("a repeat of the old placement: %s", repeat.body()).isEqualTo(200);
        assertThat(repeat.text("orderId")).isEqualTo(LEGACY_OPEN.toString());
        assertThat(api.cash(LEGACY_TOKEN, "USD")).as("reserved once").containsExactly(START_CASH - 150_000, 100_000);

        await("the last group's fill, copied from fills_by_ticker, published again").atMost(Duration.ofSeconds(10))
                .until(() -> exchange.fillsOf(LEGACY_FILLED.toString()).stream()
                        .anyMatch(f -> f.fillId().equals(OrderIds.fillId(LEGACY_FILLED, 0).toString()) && f.quantity() == 5));

        tickAndWait(LEGACY_TOKEN, LEGACY_SYMBOL, 10_000, 100);
        await().atMost(Duration.ofSeconds(30)).until(() -> "FILLED".equals(order(LEGACY_TOKEN, LEGACY_OPEN.toString()).text("status")));
        assertThat(api.cash(LEGACY_TOKEN, "USD")).containsExactly(START_CASH - 150_000, 0);
        Row row = session.execute(SimpleStatement.newInstance("SELECT client_order_id, symbol, quantity, status, "
                + "filled_quantity, placed_at FROM customer_orders WHERE customer_id = ? AND order_id = ?",
                LEGACY_CUSTOMER, LEGACY_OPEN)).one();
        assertThat(row).as("its row in customer_orders").isNotNull();
        assertThat(row.getString("client_order_id")).isEqualTo("old-open");
        assertThat(row.getString("symbol")).isEqualTo(LEGACY_SYMBOL);
        assertThat(row.getLong("quantity")).isEqualTo(10);
        assertThat(row.getString("status")).isEqualTo("FILLED");
        assertThat(row.getLong("filled_quantity")).isEqualTo(10);
        assertThat(row.getInstant("placed_at")).isEqualTo(Instant.parse("2026-01-05T15:00:00Z"));

        String newId = placeGtc(LEGACY_TOKEN, "new-one", LEGACY_SYMBOL, "BUY", "LIMIT", 1, "limitPrice", 9_000);
        // its row reaches the table with the engine log's next projection round
        await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> assertThat(session.execute(SimpleStatement.newInstance(
                "SELECT status FROM customer_orders WHERE customer_id = ? AND order_id = ?", LEGACY_CUSTOMER,
                UUID.fromString(newId))).one()).as("a new order is in customer_orders").isNotNull());
    }

    private String customer() {
        return api.customer("c" + UUID.randomUUID().toString().substring(0, 8), START_CASH);
    }

    private BrokerApi.Response order(String token, String orderId) {
        return api.order(token, orderId);
    }

    /** Publishes a ticker and waits until the broker has processed it (its quote shows the sequence). */
    private void tickAndWait(String token, String symbol, long price, long volume) {
        long sequence = exchange.tick(symbol, price, volume);
        await().atMost(Duration.ofSeconds(30)).until(() -> {
            BrokerApi.Response q = api.get(token, "/api/v1/quotes/" + symbol);
            return q.status() == 200 && q.number("sequence") >= sequence;
        });
    }

    private String placeGtc(String token, String client, String symbol, String side, String type, long qty, Object... prices) {
        Object[] more = new Object[prices.length + 2];
        System.arraycopy(prices, 0, more, 0, prices.length);
        more[prices.length] = "timeInForce";
        more[prices.length + 1] = "GTC";
        BrokerApi.Response placed = api.place(token, client, symbol, side, type, qty, more);
        assertThat(placed.status()).as("%s", placed.body()).isEqualTo(201);
        return placed.text("orderId");
    }
}
