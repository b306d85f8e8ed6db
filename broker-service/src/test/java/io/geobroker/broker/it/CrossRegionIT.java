package io.geobroker.broker.it;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.DefaultConsistencyLevel;
import com.datastax.oss.driver.api.core.cql.Row;
import com.datastax.oss.driver.api.core.cql.SimpleStatement;
import com.fasterxml.jackson.databind.JsonNode;
import io.geobroker.broker.matching.InboxDecision;
import io.geobroker.broker.order.OrderIds;
import io.geobroker.domain.SymbolDirectory;
import io.geobroker.domain.Topics;
import io.geobroker.domain.Topology;
import io.geobroker.stack.LocalStack;
import io.geobroker.stack.WanMode;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;
import static org.awaitility.Awaitility.await;

/**
 * Three regions on their own local stack — Sydney (ASX), N. Virginia (NYSE, NASDAQ) and Frankfurt
 * (XETR), the third one by configuration only — with one broker JVM inside each region's network
 * namespace, so broker-to-broker calls and Cassandra's replication cross the emulated WAN.
 *
 * <p>Customers live in every region (the customers table is replicated); each currency's cash is
 * deposited with the broker of the region that owns it. Every test uses its own customer and symbol.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class CrossRegionIT {

    private static final String SYDNEY = "sydney";
    private static final String NVIRGINIA = "nvirginia";
    private static final String FRANKFURT = "frankfurt";
    private static final long CASH = 100_000_000;
    private static final Duration REPLICATION = Duration.ofSeconds(60);
    /** After a cut: hints are delivered once gossip sees the region again, then the inbox sweep runs. */
    private static final Duration AFTER_CUT = Duration.ofSeconds(180);
    private static final SymbolDirectory DIRECTORY = SymbolDirectory.standard();

    private LocalStack local;
    private TestStack stack;
    private final Map<String, BrokerProcess> brokers = new LinkedHashMap<>();
    private final Map<String, CqlSession> sessions = new HashMap<>();
    private final Map<String, Exchange> exchanges = new HashMap<>();
    private final String keyspace = "it_crossregion";
    private final String peerToken = "peer-" + UUID.randomUUID();
    private final Topics topics = new Topics("CrossRegionIT." + UUID.randomUUID().toString().substring(0, 8) + ".");

    @BeforeAll
    void start() {
        Path root = Path.of(System.getProperty("geobroker.root", ".")).toAbsolutePath();
        local = LocalStack.builder()
                .workDir(root.resolve("target").resolve("it-stack-3-regions"))
                .wipe(true)
                .regions(List.of(SYDNEY, NVIRGINIA, FRANKFURT))
                .addressPrefix(prefix())
                .wan(WanMode.valueOf(System.getProperty("geobroker.stack.wan", "auto").toUpperCase()))
                .keyspace(keyspace)
                .applySchema(true)
                .watchParentPid(ProcessHandle.current().pid())
                .build();
        Topology topology = local.start();
        System.out.println("three-region stack ready: " + local.describe());
        for (Topology.RegionEndpoints r : topology.regions()) {
            sessions.put(r.name(), CqlSession.builder()
                    .addContactPoints(r.cassandraContactPoints().stream().map(CrossRegionIT::address).toList())
                    .withLocalDatacenter(r.dataCenter()).withKeyspace(keyspace).build());
        }
        stack = new TestStack(topology, keyspace, topics, sessions::get, name -> topology.region(name).orElseThrow()
                .kafkaBootstrap(), local.addressPrefix());
        Map<String, Object> urls = new HashMap<>();
        for (Topology.RegionEndpoints r : topology.regions()) {
            urls.put("geobroker.topology.region." + r.name() + ".broker-url",
                    "http://" + local.serviceAddress(r.name(), 0) + ":8080");
        }
        for (Topology.RegionEndpoints r : topology.regions()) {
            Map<String, Object> extra = new HashMap<>(urls);
            extra.put("geobroker.security.peer-token", peerToken);
            if (r.name().equals(FRANKFURT)) {
                // Frankfurt reads its inbox only once, at start: orders placed for it elsewhere can
                // only reach its engine through the placing broker's announcement.
                extra.put("geobroker.cross-region.inbox-poll-interval", "1h");
                extra.put("geobroker.cross-region.inbox-sweep-interval", "1h");
            }
            BrokerProcess broker = new BrokerProcess(stack, r.name(), local.serviceAddress(r.name(), 0), 8080,
                    Path.of("target", "cross-region-broker-" + r.name() + ".log"), extra,
                    pb -> local.inRegion(r.name(), pb));
            brokers.put(r.name(), broker);
            broker.launch();
            exchanges.put(r.name(), new Exchange(r.kafkaBootstrap(), topics));
        }
        brokers.values().forEach(BrokerProcess::awaitHealthy);
    }

    @AfterAll
    void stop() throws InterruptedException {
        for (BrokerProcess b : brokers.values()) {
            b.close();
        }
        exchanges.values().forEach(Exchange::close);
        sessions.values().forEach(CqlSession::close);
        if (local != null) {
            local.close();
        }
    }

    // ---- tests

    @Test
    void an_nyse_limit_order_placed_in_sydney_fills_in_nvirginia_and_shows_in_both_regions() {
        String symbol = symbolOf("NYSE", 0);
        Customer c = customer("USD");

        BrokerApi.Response placed = api(SYDNEY).place(c.token, "l1", symbol, "BUY", "LIMIT", 10, "limitPrice", 10_000,
                "timeInForce", "GTC");
        assertThat(placed.status()).as("%s", placed.body()).isEqualTo(202);
        assertThat(placed.text("status")).isEqualTo("PENDING");
        assertThat(placed.text("homeRegion")).isEqualTo(NVIRGINIA);
        assertThat(placed.text("placedRegion")).isEqualTo(SYDNEY);
        String orderId = placed.text("orderId");

        awaitStatus(NVIRGINIA, c, orderId, "OPEN");
        assertThat(api(NVIRGINIA).cash(c.token, "USD")).as("accepting reserves 10 x 100.00 at home")
                .containsExactly(CASH - 100_000, 100_000);
        tick(NVIRGINIA, symbol, 9_990, 1_000);

        awaitStatus(NVIRGINIA, c, orderId, "FILLED");
        for (String region : List.of(SYDNEY, NVIRGINIA)) {
            await().atMost(REPLICATION).untilAsserted(() -> assertThat(transactionsOf(region, c, orderId))
                    .as("the BUY in %s's transactions", region).singleElement()
                    .satisfies(t -> {
                        assertThat(t.path("kind").asText()).isEqualTo("BUY");
                        assertThat(t.path("quantity").asLong()).isEqualTo(10);
                        assertThat(t.path("amount").asLong()).isEqualTo(-99_900);
                    }));
        }
        awaitStatus(SYDNEY, c, orderId, "FILLED");
        assertThat(api(NVIRGINIA).cash(c.token, "USD")).containsExactly(CASH - 99_900, 0);
        for (String region : List.of(SYDNEY, NVIRGINIA)) {
            // the customer's list entry is Sydney's, written with the PENDING row; the status is the home's
            await().atMost(REPLICATION).untilAsserted(() -> assertThat(api(region)
                    .get(c.token, "/api/v1/orders?status=FILLED").body().path("items").findValuesAsText("orderId"))
                    .as("the order listed FILLED in %s", region).containsExactly(orderId));
        }
    }

    @Test
    void a_cross_region_market_order_returns_its_fill() {
        String symbol = symbolOf("NASDAQ", 1);
        Customer c = customer("USD");
        long sequence = tick(NVIRGINIA, symbol, 5_000, 1_000);
        await().atMost(REPLICATION).until(() -> api(NVIRGINIA).get(c.token, "/api/v1/quotes/" + symbol)
                .number("sequence") >= sequence);

        BrokerApi.Response placed = api(SYDNEY).place(c.token, "m1", symbol, "BUY", "MARKET", 7);

        assertThat(placed.status()).as("%s", placed.body()).isEqualTo(201);
        assertThat(placed.text("status")).isEqualTo("FILLED");
        assertThat(placed.text("homeRegion")).isEqualTo(NVIRGINIA);
        assertThat(placed.text("placedRegion")).isEqualTo(SYDNEY);
        assertThat(placed.body().path("fills")).singleElement().satisfies(f -> {
            assertThat(f.path("price").asLong()).isEqualTo(5_000);
            assertThat(f.path("quantity").asLong()).isEqualTo(7);
        });
        assertThat(api(NVIRGINIA).order(c.token, placed.text("orderId")).text("status")).isEqualTo("FILLED");

        BrokerApi.Response again = api(SYDNEY).place(c.token, "m1", symbol, "BUY", "MARKET", 7);
        assertThat(again.status()).as("a repeat executes nothing: %s", again.body()).isIn(200);
        assertThat(again.text("orderId")).isEqualTo(placed.text("orderId"));
        assertThat(api(NVIRGINIA).cash(c.token, "USD")).as("one execution only").containsExactly(CASH - 35_000, 0);
    }

    @Test
    void a_cancel_in_sydney_takes_effect_at_home_and_releases_the_reservation() {
        String symbol = symbolOf("NYSE", 2);
        Customer c = customer("USD");
        String resting = api(SYDNEY).place(c.token, "r1", symbol, "BUY", "LIMIT", 5, "limitPrice", 2_000,
                "timeInForce", "GTC").text("orderId");
        awaitStatus(NVIRGINIA, c, resting, "OPEN");

        BrokerApi.Response cancelled = api(SYDNEY).cancel(c.token, resting);

        assertThat(cancelled.status()).as("%s", cancelled.body()).isEqualTo(200);
        assertThat(cancelled.text("status")).isEqualTo("CANCELLED");
        assertThat(api(NVIRGINIA).order(c.token, resting).text("status")).isEqualTo("CANCELLED");
        assertThat(api(NVIRGINIA).cash(c.token, "USD")).containsExactly(CASH, 0);

        // Cancelled at once, before N. Virginia may have seen the order: it must never open.
        String early = api(SYDNEY).place(c.token, "r2", symbol, "BUY", "LIMIT", 5, "limitPrice", 2_000,
                "timeInForce", "GTC").text("orderId");
        BrokerApi.Response earlyCancel = api(SYDNEY).cancel(c.token, early);
        assertThat(earlyCancel.status()).as("%s", earlyCancel.body()).isEqualTo(200);
        assertThat(earlyCancel.text("status")).isEqualTo("CANCELLED");
        await().atMost(REPLICATION).untilAsserted(() -> assertThat(processed(NVIRGINIA, early)).isTrue());
        assertThat(api(NVIRGINIA).order(c.token, early).text("status")).isEqualTo("CANCELLED");
        assertThat(api(NVIRGINIA).cash(c.token, "USD")).containsExactly(CASH, 0);
    }

    @Test
    void when_a_cancel_races_a_fill_exactly_one_wins_and_the_customer_sees_which() {
        String symbol = symbolOf("NYSE", 3);
        Customer c = customer("USD");
        List<String> outcomes = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            String orderId = api(SYDNEY).place(c.token, "race" + i, symbol, "BUY", "LIMIT", 3, "limitPrice", 3_000,
                    "timeInForce", "GTC").text("orderId");
            awaitStatus(NVIRGINIA, c, orderId, "OPEN");
            exchanges.get(NVIRGINIA).tick(symbol, 3_000, 3);
            BrokerApi.Response cancel = api(SYDNEY).cancel(c.token, orderId);

            String finalStatus = awaitTerminal(NVIRGINIA, c, orderId);
            long fills = transactionsOf(NVIRGINIA, c, orderId).size();
            if (cancel.status() == 200) {
                assertThat(cancel.text("status")).isEqualTo("CANCELLED");
                assertThat(finalStatus).isEqualTo("CANCELLED");
                assertThat(fills).isZero();
            } else {
                assertThat(cancel.status()).as("%s", cancel.body()).isEqualTo(409);
                assertThat(cancel.body().path("order").path("status").asText()).isEqualTo("FILLED");
                assertThat(finalStatus).isEqualTo("FILLED");
                assertThat(fills).isEqualTo(1);
            }
            outcomes.add(finalStatus);
        }
        long spent = 3 * 3_000L * outcomes.stream().filter("FILLED"::equals).count();
        assertThat(api(NVIRGINIA).cash(c.token, "USD")).as("outcomes %s", outcomes).containsExactly(CASH - spent, 0);
    }

    /**
     * The announcement carries the order, so the home takes it without reading any row: these orders
     * were never written to Cassandra by a placing region at all. A late announcement (a WAN cut's,
     * sent again once the link is back) is taken after a read of the order's row here: with no row
     * here the home has decided nothing about it and takes it from the message; a row here that says
     * the home already decided (cancelled it before a restart) is what the engine gets, and the order
     * never opens.
     */
    @Test
    void the_inbox_endpoint_takes_only_peers_and_fresh_pending_orders_of_its_own_region() {
        Customer c = customer("USD");
        String symbol = symbolOf("NYSE", 6);
        Map<String, Object> row = announcement(c, symbol, "announced-1", System.currentTimeMillis());
        String orderId = (String) row.get("orderId");

        assertThat(api(NVIRGINIA).send("POST", "/internal/v1/inbox", c.token, row).status()).isEqualTo(403);
        BrokerApi.Response elsewhere = api(SYDNEY).send("POST", "/internal/v1/inbox", peerToken, row);
        assertThat(elsewhere.status()).isEqualTo(422);
        assertThat(elsewhere.text("detail")).contains(SYDNEY).contains(NVIRGINIA);
        assertThat(api(NVIRGINIA).raw("POST", "/internal/v1/inbox", peerToken, "{\"homeRegion\":\"nvirginia\"}")
                .status()).isEqualTo(400);
        assertThat(api(NVIRGINIA).raw("POST", "/internal/v1/inbox", peerToken, "{\"homeRegion\":\"nvirginia\",\"x\":1}")
                .status()).isEqualTo(400);
        Map<String, Object> withoutOrder = new LinkedHashMap<>(row);
        withoutOrder.remove("order");
        assertThat(api(NVIRGINIA).send("POST", "/internal/v1/inbox", peerToken, withoutOrder).status()).isEqualTo(400);
        @SuppressWarnings("unchecked")
        Map<String, Object> open = new LinkedHashMap<>((Map<String, Object>) row.get("order"));
        open.put("status", "OPEN");
        Map<String, Object> notPending = new LinkedHashMap<>(row);
        notPending.put("order", open);
        assertThat(api(NVIRGINIA).send("POST", "/internal/v1/inbox", peerToken, notPending).status()).isEqualTo(422);
        Map<String, Object> otherOrder = new LinkedHashMap<>(row);
        otherOrder.put("orderId", UUID.randomUUID().toString());
        assertThat(api(NVIRGINIA).send("POST", "/internal/v1/inbox", peerToken, otherOrder).status()).isEqualTo(422);
        long minuteAgo = System.currentTimeMillis() - 60_000;
        Map<String, Object> decided = announcement(c, symbol, "announced-decided", minuteAgo);
        String decidedId = (String) decided.get("orderId");
        writeCancelledRow(NVIRGINIA, c, symbol, decidedId, minuteAgo);
        assertThat(api(NVIRGINIA).send("POST", "/internal/v1/inbox", peerToken, decided).status()).isEqualTo(202);
        // a millisecond apart: each inbox row's key is a time-based id of its placement
        Map<String, Object> stale = announcement(c, symbol, "announced-stale", minuteAgo + 1);
        String staleId = (String) stale.get("orderId");
        assertThat(api(NVIRGINIA).send("POST", "/internal/v1/inbox", peerToken, stale).status()).isEqualTo(202);

        assertThat(api(NVIRGINIA).send("POST", "/internal/v1/inbox", peerToken, row).status()).isEqualTo(202);
        awaitStatus(NVIRGINIA, c, orderId, "OPEN");
        awaitStatus(NVIRGINIA, c, staleId, "OPEN");
        assertThat(api(NVIRGINIA).order(c.token, decidedId).text("status"))
                .as("announced late, after the home had cancelled it: not opened").isEqualTo("CANCELLED");
        assertThat(api(NVIRGINIA).cash(c.token, "USD")).as("taking two reserves 2 x 3 x 20.00")
                .containsExactly(CASH - 12_000, 12_000);
        assertThat(api(NVIRGINIA).send("POST", "/internal/v1/inbox", peerToken, row).status()).as("a repeat").isEqualTo(202);
        assertThat(api(NVIRGINIA).send("POST", "/internal/v1/inbox", peerToken, stale).status()).as("a late repeat")
                .isEqualTo(202);
        for (String id : List.of(orderId, staleId)) {
            BrokerApi.Response cancelled = api(NVIRGINIA).cancel(c.token, id);
            assertThat(cancelled.status()).as("%s", cancelled.body()).isEqualTo(200);
            awaitStatus(NVIRGINIA, c, id, "CANCELLED");
        }
        assertThat(api(NVIRGINIA).cash(c.token, "USD")).as("each taken once, released once").containsExactly(CASH, 0);
    }

    /**
     * The row the home region writes when it cancels a PENDING order it has not taken (a cancel
     * forwarded with the placing region's row), as a broker restarted since then finds it.
     */
    private void writeCancelledRow(String region, Customer c, String symbol, String orderId, long placedAtMillis) {
        Instant placed = Instant.ofEpochMilli(placedAtMillis);
        writeOrderRow(region, c, symbol, UUID.fromString(orderId), "announced-decided", "CANCELLED", placed,
                placed.plusSeconds(1), null);
    }

    /**
     * A {@code customer_orders} row of a buy of 3 NYSE shares at 20.00 placed in Sydney, written
     * straight to {@code region}'s DC at {@code writeMicros} (null: the driver's clock).
     */
    private void writeOrderRow(String region, Customer c, String symbol, UUID orderId, String clientOrderId,
                               String status, Instant placed, Instant updated, Long writeMicros) {
        SimpleStatement row = SimpleStatement.newInstance(
                        "INSERT INTO customer_orders (customer_id, order_id, client_order_id, symbol, exchange, currency, "
                                + "home_region, placed_region, side, order_type, time_in_force, all_or_none, quantity, "
                                + "limit_price, triggered, status, filled_quantity, filled_notional, reserved, placed_at, "
                                + "updated_at) VALUES (?, ?, ?, ?, 'NYSE', 'USD', ?, ?, 'BUY', 'LIMIT', 'GTC', false, 3, 2000, "
                                + "false, ?, 0, 0, 0, ?, ?)",
                        c.id(), orderId, clientOrderId, symbol, NVIRGINIA, SYDNEY, status, placed, updated)
                .setConsistencyLevel(DefaultConsistencyLevel.LOCAL_QUORUM);
        sessions.get(region).execute(writeMicros == null ? row : row.setQueryTimestamp(writeMicros));
    }

    /** The announcement a Sydney broker would send for a PENDING buy of 3 at 20.00 placed at {@code placedAtMillis}. */
    private static Map<String, Object> announcement(Customer c, String symbol, String clientOrderId, long placedAtMillis) {
        String orderId = UUID.randomUUID().toString();
        String placedAt = Instant.ofEpochMilli(placedAtMillis).toString();
        Map<String, Object> order = new LinkedHashMap<>();
        order.put("orderId", orderId);
        order.put("customerId", c.id());
        order.put("clientOrderId", clientOrderId);
        order.put("symbol", symbol);
        order.put("exchange", "NYSE");
        order.put("currency", "USD");
        order.put("side", "BUY");
        order.put("type", "LIMIT");
        order.put("timeInForce", "GTC");
        order.put("allOrNone", false);
        order.put("quantity", 3);
        order.put("limitPrice", 2_000);
        order.put("triggered", false);
        order.put("status", "PENDING");
        order.put("filledQuantity", 0);
        order.put("filledNotional", 0);
        order.put("reserved", 0);
        order.put("placedAt", placedAt);
        order.put("updatedAt", placedAt);
        order.put("homeRegion", NVIRGINIA);
        order.put("placedRegion", SYDNEY);
        Map<String, Object> row = new LinkedHashMap<>();
        row.put("homeRegion", NVIRGINIA);
        row.put("minute", placedAtMillis / 60_000);
        row.put("placedAt", com.datastax.oss.driver.api.core.uuid.Uuids.startOf(placedAtMillis).toString());
        row.put("orderId", orderId);
        row.put("placedRegion", SYDNEY);
        row.put("writeMicros", placedAtMillis * 1000);
        row.put("order", order);
        return row;
    }

    /** Frankfurt polls its inbox only at start (see {@link #start}): its orders from elsewhere come announced. */
    @Test
    void frankfurt_is_a_region_by_configuration_only() {
        String xetr = symbolOf("XETR", 0);
        String nyse = symbolOf("NYSE", 4);
        Customer c = customer("EUR", "USD");

        String fromSydney = api(SYDNEY).place(c.token, "x1", xetr, "BUY", "LIMIT", 4, "limitPrice", 8_000,
                "timeInForce", "GTC").text("orderId");
        awaitStatus(FRANKFURT, c, fromSydney, "OPEN");
        long sequence = tick(FRANKFURT, xetr, 7_900, 100);
        awaitStatus(FRANKFURT, c, fromSydney, "FILLED");
        await().atMost(REPLICATION).until(() -> api(FRANKFURT).get(c.token, "/api/v1/quotes/" + xetr)
                .number("sequence") >= sequence);

        BrokerApi.Response market = api(NVIRGINIA).place(c.token, "x2", xetr, "BUY", "MARKET", 2);
        assertThat(market.status()).as("%s", market.body()).isEqualTo(201);
        assertThat(market.text("status")).isEqualTo("FILLED");
        assertThat(market.text("homeRegion")).isEqualTo(FRANKFURT);

        String fromFrankfurt = api(FRANKFURT).place(c.token, "x3", nyse, "BUY", "LIMIT", 1, "limitPrice", 1_000,
                "timeInForce", "GTC").text("orderId");
        awaitStatus(NVIRGINIA, c, fromFrankfurt, "OPEN");
        awaitStatus(SYDNEY, c, fromSydney, "FILLED");
        assertThat(api(FRANKFURT).cash(c.token, "EUR")).containsExactly(CASH - 4 * 7_900 - 2 * 7_900, 0);
    }

    @Test
    void with_the_link_cut_market_orders_fail_fast_local_trading_goes_on_and_nothing_is_lost() {
        assumeThat(local.wanStatus()).as("cutting the link needs the emulated WAN").startsWith("WAN on");
        String nyse = symbolOf("NYSE", 5);
        String asx = symbolOf("ASX", 0);
        Customer c = customer("USD", "AUD");
        long sequence = tick(NVIRGINIA, nyse, 4_000, 1_000);
        await().atMost(REPLICATION).until(() -> api(NVIRGINIA).get(c.token, "/api/v1/quotes/" + nyse)
                .number("sequence") >= sequence);

        local.cutLink(SYDNEY, NVIRGINIA);
        List<String> placedDuringCut = new ArrayList<>();
        String asxOrder;
        try {
            long t0 = System.nanoTime();
            BrokerApi.Response market = api(SYDNEY).place(c.token, "cut-m", nyse, "BUY", "MARKET", 1);
            Duration took = Duration.ofNanos(System.nanoTime() - t0);
            assertThat(market.status()).as("%s", market.body()).isEqualTo(503);
            assertThat(market.retryAfter()).isNotNull();
            assertThat(market.text("homeRegion")).isEqualTo(NVIRGINIA);
            assertThat(took).as("fails fast").isLessThan(Duration.ofSeconds(2));

            for (int i = 0; i < 3; i++) {
                BrokerApi.Response limit = api(SYDNEY).place(c.token, "cut-l" + i, nyse, "BUY", "LIMIT", 2,
                        "limitPrice", 4_000, "timeInForce", "GTC");
                assertThat(limit.status()).as("stored in Sydney's DC while cut off: %s", limit.body()).isEqualTo(202);
                placedDuringCut.add(limit.text("orderId"));
            }

            asxOrder = api(SYDNEY).place(c.token, "cut-asx", asx, "BUY", "LIMIT", 3, "limitPrice", 5_000,
                    "timeInForce", "GTC").text("orderId");
            tick(SYDNEY, asx, 4_990, 100);
            awaitStatus(SYDNEY, c, asxOrder, "FILLED");
            assertThat(api(SYDNEY).order(c.token, placedDuringCut.get(0)).text("status")).isEqualTo("PENDING");
            assertThat(api(SYDNEY).place(c.token, "cut-m", nyse, "BUY", "MARKET", 1).status())
                    .as("nothing was half done: the repeat is still not executed").isEqualTo(503);
            await("Sydney's broker notices the cut").atMost(Duration.ofSeconds(30))
                    .until(() -> brokers.get(SYDNEY).api.rawText("/actuator/prometheus").lines()
                            .anyMatch(l -> l.startsWith("geobroker_link_cut") && l.endsWith(" 1.0")));
        } finally {
            local.restoreLink(SYDNEY, NVIRGINIA);
        }
        long healed = System.nanoTime();

        // Both ways at once, each timed from the heal: Sydney's orders reaching their home engine
        // (announced again), and Sydney's own writes of the cut reaching N. Virginia's DC.
        double[] matchable = {-1};
        double[] replicated = {-1};
        await("the cut's orders at home and Sydney's writes in N. Virginia's DC").atMost(AFTER_CUT)
                .pollInterval(Duration.ofMillis(100)).until(() -> {
                    if (matchable[0] < 0 && placedDuringCut.stream().allMatch(id -> "OPEN".equals(orderRow(NVIRGINIA, c, id)))) {
                        matchable[0] = (System.nanoTime() - healed) / 1e9;
                    }
                    if (replicated[0] < 0 && "FILLED".equals(orderRow(NVIRGINIA, c, asxOrder))) {
                        replicated[0] = (System.nanoTime() - healed) / 1e9;
                    }
                    return matchable[0] >= 0 && replicated[0] >= 0;
                });
        System.out.printf("after the link came back: the orders placed during the cut matchable at home in %.1f s; "
                + "the order filled in Sydney during the cut in N. Virginia's DC after %.1f s%n", matchable[0], replicated[0]);
        // (the other DC applies a write a one-way delay before its acknowledgement is back)
        await("Sydney's resend acknowledged").atMost(Duration.ofSeconds(30)).untilAsserted(() -> assertThat(
                brokers.get(SYDNEY).api.rawText("/actuator/prometheus"))
                .as("Sydney's engine noticed the cut and wrote its batches of the cut again when the link came back")
                .containsPattern("geobroker_engine_resent_batches_total(\\{[^}]*})? [1-9]"));
        for (String orderId : placedDuringCut) {
            awaitStatus(NVIRGINIA, c, orderId, "OPEN", AFTER_CUT);
        }
        tick(NVIRGINIA, nyse, 4_000, 1_000);
        for (String orderId : placedDuringCut) {
            awaitStatus(NVIRGINIA, c, orderId, "FILLED");
            awaitStatus(SYDNEY, c, orderId, "FILLED");
        }
        BrokerApi.Response market = api(SYDNEY).place(c.token, "cut-m", nyse, "BUY", "MARKET", 1);
        assertThat(market.status()).as("the market order, repeated after the cut: %s", market.body()).isEqualTo(201);
        assertThat(market.text("status")).isEqualTo("FILLED");
    }

    /**
     * A client places an order at home, cancels it there, and places the same client order id again
     * through Sydney while the link is cut (a retry elsewhere: Sydney's DC has no row of it, so it is
     * stored PENDING, later than the cancel by every clock); the home broker restarts before that
     * placement reaches it, and its engine no longer remembers the cancelled order. Sydney's PENDING
     * rows are written below its clock ({@code InboxDecision.PENDING_WRITE_LAG_MICROS}) and lose to the
     * home's writes: once the link is back the order is CANCELLED in both regions, its inbox row taken
     * and nothing reserved. Written at the clock, the PENDING row won over the cancel and the order
     * ended PENDING or open again.
     */
    @Test
    void an_order_cancelled_at_home_and_placed_again_elsewhere_during_a_cut_stays_cancelled_after_a_restart()
            throws InterruptedException {
        assumeThat(local.wanStatus()).as("cutting the link needs the emulated WAN").startsWith("WAN on");
        String nyse = symbolOf("NYSE", 7);
        Customer c = customer("USD");
        String orderId;
        local.cutLink(SYDNEY, NVIRGINIA);
        try {
            BrokerApi.Response placed = api(NVIRGINIA).place(c.token, "again-1", nyse, "BUY", "LIMIT", 3,
                    "limitPrice", 2_000, "timeInForce", "GTC");
            assertThat(placed.status()).as("%s", placed.body()).isEqualTo(201);
            orderId = placed.text("orderId");
            BrokerApi.Response cancelled = api(NVIRGINIA).cancel(c.token, orderId);
            assertThat(cancelled.status()).as("%s", cancelled.body()).isEqualTo(200);
            BrokerApi.Response again = api(SYDNEY).place(c.token, "again-1", nyse, "BUY", "LIMIT", 3,
                    "limitPrice", 2_000, "timeInForce", "GTC");
            assertThat(again.status()).as("stored in Sydney's DC, which has no row of it: %s", again.body())
                    .isEqualTo(202);
            assertThat(again.text("orderId")).isEqualTo(orderId);
            BrokerProcess home = brokers.get(NVIRGINIA);
            home.kill();
            home.launch();
            home.awaitHealthy();
        } finally {
            local.restoreLink(SYDNEY, NVIRGINIA);
        }
        await("Sydney's inbox row taken at home").atMost(AFTER_CUT).pollInterval(Duration.ofMillis(200))
                .until(() -> processed(NVIRGINIA, orderId));
        awaitStatus(NVIRGINIA, c, orderId, "CANCELLED", AFTER_CUT);
        awaitStatus(SYDNEY, c, orderId, "CANCELLED", AFTER_CUT);
        assertThat(orderRow(NVIRGINIA, c, orderId)).as("the home's DC").isEqualTo("CANCELLED");
        assertThat(api(NVIRGINIA).cash(c.token, "USD")).as("nothing reserved").containsExactly(CASH, 0);
    }

    /**
     * A placement for another region's symbol whose rows were written one by one (the batch log
     * bypassed) and failed after the order's own row: its placer was answered 503, the row here says
     * PENDING, and neither an inbox row nor an announcement tells the home about it. Placed again, it
     * is answered 200 PENDING and its inbox row is written again, and the home takes it.
     */
    @Test
    void a_pending_order_without_its_inbox_row_reaches_its_home_when_placed_again() {
        Customer c = customer("USD");
        String symbol = symbolOf("NYSE", 8);
        UUID orderId = OrderIds.orderId(c.id(), "half-written");
        Instant placed = Instant.now();
        writeOrderRow(SYDNEY, c, symbol, orderId, "half-written", "PENDING", placed, placed,
                placed.toEpochMilli() * 1000 - InboxDecision.PENDING_WRITE_LAG_MICROS);

        BrokerApi.Response again = api(SYDNEY).place(c.token, "half-written", symbol, "BUY", "LIMIT", 3,
                "limitPrice", 2_000, "timeInForce", "GTC");
        assertThat(again.status()).as("a repeat: %s", again.body()).isEqualTo(200);
        assertThat(again.text("orderId")).isEqualTo(orderId.toString());
        assertThat(again.text("status")).isEqualTo("PENDING");
        awaitStatus(NVIRGINIA, c, orderId.toString(), "OPEN");
        awaitStatus(SYDNEY, c, orderId.toString(), "OPEN");
        assertThat(api(NVIRGINIA).cash(c.token, "USD")).as("reserved once: 3 x 20.00")
                .containsExactly(CASH - 6_000, 6_000);
        assertThat(api(SYDNEY).get(c.token, "/api/v1/orders?pageSize=500").body().path("items").findValuesAsText("orderId")
                .stream().filter(orderId.toString()::equals).count()).as("listed once").isEqualTo(1);
    }

    /**
     * A placement of a customer that places only through one region is checked against the ids its
     * broker holds, not read: a repeat is still found after the broker restarted (it reads the
     * customer's ids from its DC again), and so is a repeat of a market order another region
     * forwarded to it, the order's home. Once the customer places through another region too, the
     * first broker notices it within its refresh (1 s) and reads every placement again, so a repeat
     * of an order placed elsewhere is found there, not taken as new.
     */
    @Test
    void a_repeat_is_found_after_a_restart_and_after_the_customer_placed_through_another_region()
            throws InterruptedException {
        String nyse = symbolOf("NYSE", 9);
        String asx = symbolOf("ASX", 1);
        Customer c = customer("USD", "AUD");
        BrokerApi.Response first = api(NVIRGINIA).place(c.token, "only-here", nyse, "BUY", "LIMIT", 3,
                "limitPrice", 2_000, "timeInForce", "GTC");
        assertThat(first.status()).as("%s", first.body()).isEqualTo(201);
        assertThat(placingRegions(NVIRGINIA, c)).as("registered before the placement").containsExactly(NVIRGINIA);
        String nasdaq = symbolOf("NASDAQ", 2);
        Customer d = customer("USD");
        long sequence = tick(NVIRGINIA, nasdaq, 3_000, 1_000);
        await().atMost(REPLICATION).until(() -> api(NVIRGINIA).get(d.token, "/api/v1/quotes/" + nasdaq)
                .number("sequence") >= sequence);
        double forwardedKnownNew = idempotencyChecks(NVIRGINIA, "forwarded-known-new");
        BrokerApi.Response market = api(SYDNEY).place(d.token, "forwarded", nasdaq, "BUY", "MARKET", 2);
        assertThat(market.status()).as("%s", market.body()).isEqualTo(201);
        assertThat(idempotencyChecks(NVIRGINIA, "forwarded-known-new")).as("a new forwarded id: no read at home")
                .isEqualTo(forwardedKnownNew + 1);

        BrokerProcess home = brokers.get(NVIRGINIA);
        home.kill();
        home.launch();
        home.awaitHealthy();
        // Sydney forwards the order again, as when its first answer was lost and Sydney's DC has no row of it yet
        Map<String, Object> forwarded = Map.of("customerId", d.id(), "placedRegion", SYDNEY,
                "deadlineEpochMillis", System.currentTimeMillis() + 60_000, "order", Map.of("clientOrderId", "forwarded",
                        "symbol", nasdaq, "side", "BUY", "type", "MARKET", "quantity", 2));
        BrokerApi.Response forwardedAgain = api(NVIRGINIA).send("POST", "/internal/v1/orders", peerToken, forwarded);
        assertThat(forwardedAgain.status()).as("a forwarded repeat after the home's restart: %s", forwardedAgain.body())
                .isEqualTo(200);
        assertThat(forwardedAgain.text("orderId")).isEqualTo(market.text("orderId"));
        assertThat(idempotencyChecks(NVIRGINIA, "forwarded-read")).as("read at home").isEqualTo(1);
        assertThat(api(NVIRGINIA).cash(d.token, "USD")).as("executed once: 2 x 30.00").containsExactly(CASH - 6_000, 0);
        BrokerApi.Response again = api(NVIRGINIA).place(c.token, "only-here", nyse, "BUY", "LIMIT", 3,
                "limitPrice", 2_000, "timeInForce", "GTC");
        assertThat(again.status()).as("a repeat after the restart: %s", again.body()).isEqualTo(200);
        assertThat(again.text("orderId")).isEqualTo(first.text("orderId"));
        BrokerApi.Response reused = api(NVIRGINIA).place(c.token, "only-here", nyse, "BUY", "LIMIT", 4,
                "limitPrice", 2_000, "timeInForce", "GTC");
        assertThat(reused.status()).as("the id reused for another order: %s", reused.body()).isEqualTo(409);
        double knownNew = idempotencyChecks(NVIRGINIA, "known-new");
        BrokerApi.Response next = api(NVIRGINIA).place(c.token, "only-here-2", nyse, "BUY", "LIMIT", 1,
                "limitPrice", 2_000, "timeInForce", "GTC");
        assertThat(next.status()).as("%s", next.body()).isEqualTo(201);
        assertThat(idempotencyChecks(NVIRGINIA, "known-new")).as("a new id of a customer placing only here: no read")
                .isEqualTo(knownNew + 1);

        BrokerApi.Response elsewhere = api(SYDNEY).place(c.token, "placed-in-sydney", asx, "BUY", "LIMIT", 5,
                "limitPrice", 1_000, "timeInForce", "GTC");
        assertThat(elsewhere.status()).as("%s", elsewhere.body()).isEqualTo(201);
        String orderId = elsewhere.text("orderId");
        await().atMost(REPLICATION).until(() -> "OPEN".equals(orderRow(NVIRGINIA, c, orderId))
                && placingRegions(NVIRGINIA, c).equals(Set.of(NVIRGINIA, SYDNEY)));
        // N. Virginia reads the customer's placing regions again at a placement a second after its
        // last read: from then on each placement of the customer reads customer_orders.
        double reads = idempotencyChecks(NVIRGINIA, "read");
        int[] probes = {0};
        await("N. Virginia reading the customer's placements").atMost(Duration.ofSeconds(30))
                .pollInterval(Duration.ofMillis(250)).until(() -> {
                    BrokerApi.Response probe = api(NVIRGINIA).place(c.token, "probe-" + probes[0]++, nyse, "BUY",
                            "LIMIT", 1, "limitPrice", 2_000, "timeInForce", "GTC");
                    assertThat(probe.status()).as("%s", probe.body()).isEqualTo(201);
                    return idempotencyChecks(NVIRGINIA, "read") > reads;
                });

        BrokerApi.Response repeat = api(NVIRGINIA).place(c.token, "placed-in-sydney", asx, "BUY", "LIMIT", 5,
                "limitPrice", 1_000, "timeInForce", "GTC");
        assertThat(repeat.status()).as("Sydney's order, repeated in N. Virginia: %s", repeat.body()).isEqualTo(200);
        assertThat(repeat.text("orderId")).isEqualTo(orderId);
        assertThat(repeat.text("status")).isEqualTo("OPEN");
        assertThat(repeat.text("placedRegion")).isEqualTo(SYDNEY);
        assertThat(api(SYDNEY).cash(c.token, "AUD")).as("reserved once: 5 x 10.00").containsExactly(CASH - 5_000, 5_000);
        long reserved = (3 + 1 + probes[0]) * 2_000L;
        assertThat(api(NVIRGINIA).cash(c.token, "USD")).as("reserved once: 3 x 20.00, then 20.00 per order")
                .containsExactly(CASH - reserved, reserved);
    }

    // ---- helpers

    /** The region's broker's placements checked by {@code check} ({@code read} or {@code known-new}) so far. */
    private double idempotencyChecks(String region, String check) {
        Matcher m = Pattern.compile("geobroker_placement_idempotency_total\\{[^}]*check=\"" + check
                + "\"[^}]*\\} (\\S+)").matcher(brokers.get(region).api.rawText("/actuator/prometheus"));
        return m.find() ? Double.parseDouble(m.group(1)) : 0;
    }

    /** The customer's placing regions in the region's DC, read directly. */
    private Set<String> placingRegions(String region, Customer c) {
        Row row = sessions.get(region).execute(SimpleStatement.newInstance(
                "SELECT placing_regions FROM customers WHERE customer_id = ?", c.id())
                .setConsistencyLevel(DefaultConsistencyLevel.LOCAL_QUORUM)).one();
        return row == null ? Set.of() : row.getSet("placing_regions", String.class);
    }

    private record Customer(String id, String token) {
    }

    /** A customer created in Sydney, with cash in each currency at that currency's home region. */
    private Customer customer(String... currencies) {
        String id = "x" + UUID.randomUUID().toString().substring(0, 8);
        String token = api(SYDNEY).customer(id);
        for (String currency : currencies) {
            String home = switch (currency) {
                case "USD" -> NVIRGINIA;
                case "AUD" -> SYDNEY;
                case "EUR" -> FRANKFURT;
                default -> throw new IllegalArgumentException(currency);
            };
            await().atMost(REPLICATION).until(() -> api(home).send("POST", "/api/v1/account/deposits", token,
                    Map.of("currency", currency, "amount", CASH)).status() == 201);
        }
        for (String region : brokers.keySet()) {
            await().atMost(REPLICATION).until(() -> api(region).get(token, "/api/v1/account/balances").status() == 200);
        }
        return new Customer(id, token);
    }

    private BrokerApi api(String region) {
        return brokers.get(region).api;
    }

    private long tick(String region, String symbol, long price, long volume) {
        return exchanges.get(region).tick(symbol, price, volume);
    }

    private static String symbolOf(String exchange, int index) {
        return DIRECTORY.symbolsOf(exchange).get(index).symbol();
    }

    private void awaitStatus(String region, Customer c, String orderId, String status) {
        awaitStatus(region, c, orderId, status, REPLICATION);
    }

    private void awaitStatus(String region, Customer c, String orderId, String status, Duration atMost) {
        await().atMost(atMost).pollInterval(Duration.ofMillis(200)).untilAsserted(() -> {
            BrokerApi.Response order = api(region).order(c.token, orderId);
            assertThat(order.status()).as("order %s in %s", orderId, region).isEqualTo(200);
            assertThat(order.text("status")).as("order %s in %s", orderId, region).isEqualTo(status);
        });
    }

    private String awaitTerminal(String region, Customer c, String orderId) {
        return await().atMost(REPLICATION).pollInterval(Duration.ofMillis(200))
                .until(() -> api(region).order(c.token, orderId).text("status"),
                        s -> s.equals("FILLED") || s.equals("CANCELLED"));
    }

    private List<JsonNode> transactionsOf(String region, Customer c, String orderId) {
        List<JsonNode> found = new ArrayList<>();
        for (JsonNode t : api(region).get(c.token, "/api/v1/account/transactions?pageSize=500").body().path("items")) {
            if (orderId.equals(t.path("orderId").asText())) {
                found.add(t);
            }
        }
        return found;
    }

    /** The order's status in the region's DC, read directly (null while the row has not arrived). */
    private String orderRow(String region, Customer c, String orderId) {
        Row row = sessions.get(region).execute("SELECT status FROM customer_orders WHERE customer_id = ? AND order_id = ?",
                c.id(), UUID.fromString(orderId)).one();
        return row == null ? null : row.getString("status");
    }

    /** Whether the home region's inbox row of the order is marked processed. */
    private boolean processed(String home, String orderId) {
        for (Row row : sessions.get(home).execute("SELECT order_id, processed FROM order_inbox WHERE home_region = ? "
                + "AND minute IN ?", home, recentMinutes())) {
            if (row.getUuid("order_id").toString().equals(orderId)) {
                return row.getBoolean("processed");
            }
        }
        return false;
    }

    private static List<Long> recentMinutes() {
        long now = System.currentTimeMillis() / 60_000;
        return List.of(now - 2, now - 1, now);
    }

    private static String prefix() {
        String configured = System.getProperty("geobroker.it.three-region-prefix");
        if (configured != null && !configured.isBlank()) {
            return configured;
        }
        String shared = System.getenv("GEOBROKER_STACK_PREFIX");
        if (shared == null || shared.isBlank()) {
            shared = System.getProperty("geobroker.stack.prefix", LocalStack.DEFAULT_PREFIX);
        }
        String[] parts = shared.trim().split("\\.");
        return parts[0] + "." + (Integer.parseInt(parts[1]) + 5);
    }

    private static InetSocketAddress address(String hostAndPort) {
        int colon = hostAndPort.lastIndexOf(':');
        return colon < 0 ? new InetSocketAddress(hostAndPort, 9042)
                : new InetSocketAddress(hostAndPort.substring(0, colon), Integer.parseInt(hostAndPort.substring(colon + 1)));
    }
}
