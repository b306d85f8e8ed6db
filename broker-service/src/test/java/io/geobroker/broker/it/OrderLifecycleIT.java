package io.geobroker.broker.it;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.cql.Row;
import com.datastax.oss.driver.api.core.cql.SimpleStatement;
import io.geobroker.broker.order.OrderIds;
import io.geobroker.domain.Fill;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import io.geobroker.testsupport.StackContext;
import io.geobroker.testsupport.WithLocalStack;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Orders, accounts and ticker matching of one broker (N. Virginia: NYSE and NASDAQ) on the real
 * stack. Every test uses its own customers and its own symbol, so tests do not see each other's
 * tickers. Orders are GTC except in the expiry test, which moves the broker's clock.
 */
@WithLocalStack
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class OrderLifecycleIT {

    private static final long START_CASH = 10_000_000;
    private TestStack stack;
    @AutoClose
    private InProcessBroker broker;
    private BrokerApi api;
    @AutoClose
    private Exchange exchange;

    @BeforeAll
    void start(StackContext context) {
        stack = TestStack.of(context);
        String address = stack.testAddress(20);
        broker = new InProcessBroker(stack, "nvirginia", address, Map.of());
        api = broker.api;
        exchange = new Exchange(stack.kafkaBootstrap("nvirginia"), stack.topics());
    }

    /**
     * The expiry test moves the clock every in-process broker of this JVM shares a day ahead; the
     * classes that run after this one must not inherit it (their DAY orders would expire at once).
     */
    @AfterAll
    void putTheClockBack() {
        InProcessBroker.CLOCK.reset();
    }

    private String customer() {
        return api.customer("c" + UUID.randomUUID().toString().substring(0, 8), START_CASH);
    }

    private static String id(String token) {
        return token.substring(0, token.lastIndexOf('.'));
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

    /** Publishes a ticker and waits until the broker has processed it (its quote shows the sequence). */
    private long tickAndWait(String token, String symbol, long price, long volume) {
        long sequence = exchange.tick(symbol, price, volume);
        await().atMost(Duration.ofSeconds(30)).until(() -> {
            BrokerApi.Response q = api.get(token, "/api/v1/quotes/" + symbol);
            return q.status() == 200 && q.number("sequence") >= sequence;
        });
        return sequence;
    }

    private BrokerApi.Response order(String token, String orderId) {
        return api.order(token, orderId);
    }

    @Test
    void buy_limit_fills_at_its_limit_and_not_above() {
        String alice = customer();
        String orderId = placeGtc(alice, "b1", "AAPL", "BUY", "LIMIT", 10, "limitPrice", 10_000);
        assertThat(api.cash(alice, "USD")).containsExactly(START_CASH - 100_000, 100_000);

        tickAndWait(alice, "AAPL", 10_001, 100);
        assertThat(order(alice, orderId).text("status")).isEqualTo("OPEN");

        long sequence = tickAndWait(alice, "AAPL", 10_000, 100);
        BrokerApi.Response filled = order(alice, orderId);
        assertThat(filled.text("status")).isEqualTo("FILLED");
        assertThat(filled.number("filledQuantity")).isEqualTo(10);
        assertThat(filled.number("averagePrice")).isEqualTo(10_000);
        assertThat(api.cash(alice, "USD")).containsExactly(START_CASH - 100_000, 0);
        assertThat(api.shares(alice, "AAPL")).containsExactly(10, 0);

        await().atMost(Duration.ofSeconds(10)).until(() -> !exchange.fillsOf(orderId).isEmpty());
        Fill fill = exchange.fillsOf(orderId).get(0);
        assertThat(fill.fillId()).isEqualTo(OrderIds.fillId(UUID.fromString(orderId), sequence).toString());
        assertThat(fill.tickerSequence()).isEqualTo(sequence);
        assertThat(fill.tickerExchangeTimeMicros()).isPositive().isLessThanOrEqualTo(fill.durableTimeMicros());
        assertThat(fill.price()).isEqualTo(10_000);
    }

    @Test
    void sell_limit_fills_at_its_limit_and_not_below() {
        String bob = customer();
        assertThat(api.seedShares(id(bob), "MSFT", 10).status()).isEqualTo(201);
        String orderId = placeGtc(bob, "s1", "MSFT", "SELL", "LIMIT", 10, "limitPrice", 10_000);
        assertThat(api.shares(bob, "MSFT")).containsExactly(0, 10);

        tickAndWait(bob, "MSFT", 9_999, 100);
        assertThat(order(bob, orderId).text("status")).isEqualTo("OPEN");

        tickAndWait(bob, "MSFT", 10_000, 100);
        assertThat(order(bob, orderId).text("status")).isEqualTo("FILLED");
        assertThat(api.cash(bob, "USD")).containsExactly(START_CASH + 100_000, 0);
        assertThat(api.shares(bob, "MSFT")).containsExactly(0, 0);
    }

    @Test
    void buy_stop_triggers_at_its_stop_and_not_below() {
        String carol = customer();
        String orderId = placeGtc(carol, "bs1", "NVDA", "BUY", "STOP", 10, "stopPrice", 10_000);
        assertThat(api.cash(carol, "USD")[1]).as("reserved at the protection price").isEqualTo(10 * 10_500);

        tickAndWait(carol, "NVDA", 9_999, 100);
        assertThat(order(carol, orderId).text("status")).isEqualTo("OPEN");

        tickAndWait(carol, "NVDA", 10_000, 100);
        BrokerApi.Response filled = order(carol, orderId);
        assertThat(filled.text("status")).isEqualTo("FILLED");
        assertThat(filled.number("averagePrice")).isEqualTo(10_000);
        assertThat(api.cash(carol, "USD")).containsExactly(START_CASH - 100_000, 0);
    }

    @Test
    void sell_stop_triggers_at_its_stop_and_not_above() {
        String dan = customer();
        api.seedShares(id(dan), "AMZN", 10);
        String orderId = placeGtc(dan, "ss1", "AMZN", "SELL", "STOP", 10, "stopPrice", 10_000);

        tickAndWait(dan, "AMZN", 10_001, 100);
        assertThat(order(dan, orderId).text("status")).isEqualTo("OPEN");

        tickAndWait(dan, "AMZN", 10_000, 100);
        assertThat(order(dan, orderId).text("status")).isEqualTo("FILLED");
        assertThat(api.cash(dan, "USD")[0]).isEqualTo(START_CASH + 100_000);
    }

    @Test
    void stop_limit_triggers_at_its_stop_and_then_fills_only_within_its_limit() {
        String erin = customer();
        String buy = placeGtc(erin, "bsl", "GOOGL", "BUY", "STOP_LIMIT", 10, "stopPrice", 10_000, "limitPrice", 10_000);
        api.seedShares(id(erin), "GOOGL", 10);
        String sell = placeGtc(erin, "ssl", "GOOGL", "SELL", "STOP_LIMIT", 10, "stopPrice", 9_000, "limitPrice", 9_000);

        tickAndWait(erin, "GOOGL", 10_050, 100);
        assertThat(order(erin, buy).text("status")).as("triggered, above its limit").isEqualTo("OPEN");
        tickAndWait(erin, "GOOGL", 10_000, 100);
        assertThat(order(erin, buy).text("status")).isEqualTo("FILLED");

        tickAndWait(erin, "GOOGL", 9_001, 100);
        assertThat(order(erin, sell).text("status")).isEqualTo("OPEN");
        tickAndWait(erin, "GOOGL", 8_999, 100);
        assertThat(order(erin, sell).text("status")).as("triggered, below its limit").isEqualTo("OPEN");
        tickAndWait(erin, "GOOGL", 9_000, 100);
        assertThat(order(erin, sell).text("status")).isEqualTo("FILLED");
    }

    @Test
    void market_orders_execute_at_the_latest_quote_within_its_volume() {
        String fay = customer();
        BrokerApi.Response noQuote = api.place(fay, "m0", "META", "BUY", "MARKET", 1);
        assertThat(noQuote.status()).isEqualTo(422);
        assertThat(noQuote.text("detail")).contains("no quote");

        long sequence = tickAndWait(fay, "META", 20_000, 50);
        BrokerApi.Response bought = api.place(fay, "m1", "META", "BUY", "MARKET", 30);
        assertThat(bought.status()).isEqualTo(201);
        assertThat(bought.text("status")).isEqualTo("FILLED");
        assertThat(bought.body().path("fills").get(0).path("price").asLong()).isEqualTo(20_000);
        assertThat(bought.body().path("fills").get(0).path("tickerSequence").asLong()).isEqualTo(sequence);
        assertThat(api.cash(fay, "USD")).containsExactly(START_CASH - 600_000, 0);

        BrokerApi.Response tooMuch = api.place(fay, "m2", "META", "SELL", "MARKET", 30);
        assertThat(tooMuch.status()).as("only 20 shares of the quote's volume are left").isEqualTo(422);
        assertThat(tooMuch.text("detail")).contains("20 shares left");

        BrokerApi.Response sold = api.place(fay, "m3", "META", "SELL", "MARKET", 20);
        assertThat(sold.status()).isEqualTo(201);
        assertThat(api.shares(fay, "META")).containsExactly(10, 0);
        assertThat(api.cash(fay, "USD")[0]).isEqualTo(START_CASH - 600_000 + 400_000);
    }

    @Test
    void a_quote_is_kept_in_symbol_state() {
        String hal = customer();
        CqlSession session = stack.session("nvirginia");

        long sequence = tickAndWait(hal, "DIS", 5_000, 25);
        Row state = session.execute(SimpleStatement.newInstance("SELECT last_ticker_sequence, quote_sequence, "
                + "quote_price, quote_volume, quote_updated_at FROM symbol_state WHERE symbol = 'DIS'")).one();
        assertThat(state.getLong("last_ticker_sequence")).isEqualTo(sequence);
        assertThat(state.getLong("quote_sequence")).isEqualTo(sequence);
        assertThat(state.getLong("quote_price")).isEqualTo(5_000);
        assertThat(state.getLong("quote_volume")).isEqualTo(25);
        assertThat(state.getInstant("quote_updated_at")).isNotNull();
        assertThat(api.get(hal, "/api/v1/quotes").body().findValuesAsText("symbol"))
                .contains("DIS");
    }

    @Test
    void a_ticker_fills_partially_and_the_rest_waits() {
        String gus = customer();
        String orderId = placeGtc(gus, "p1", "TSLA", "BUY", "LIMIT", 100, "limitPrice", 10_000);
        tickAndWait(gus, "TSLA", 9_900, 30);
        BrokerApi.Response partial = order(gus, orderId);
        assertThat(partial.text("status")).isEqualTo("PARTIALLY_FILLED");
        assertThat(partial.number("filledQuantity")).isEqualTo(30);
        assertThat(api.cash(gus, "USD")).as("70 shares still reserved at the limit")
                .containsExactly(START_CASH - 30 * 9_900 - 70 * 10_000, 70 * 10_000);
        assertThat(listed(gus, "PARTIALLY_FILLED")).as("the list filters on the order's status now").containsExactly(orderId);
        assertThat(listed(gus, "OPEN")).isEmpty();

        tickAndWait(gus, "TSLA", 10_000, 500);
        BrokerApi.Response filled = order(gus, orderId);
        assertThat(filled.text("status")).isEqualTo("FILLED");
        assertThat(filled.number("averagePrice")).isEqualTo((30 * 9_900 + 70 * 10_000 + 50) / 100);
        assertThat(api.cash(gus, "USD")).containsExactly(START_CASH - 30 * 9_900 - 70 * 10_000, 0);
        assertThat(listed(gus, "FILLED")).containsExactly(orderId);
        assertThat(listed(gus, "PARTIALLY_FILLED")).isEmpty();
        assertThat(api.get(gus, "/api/v1/orders?symbol=TSLA").body().path("items").get(0).path("filledQuantity").asLong())
                .isEqualTo(100);
    }

    /** The ids of a customer's orders listed with a status filter. */
    private List<String> listed(String token, String status) {
        BrokerApi.Response page = api.get(token, "/api/v1/orders?status=" + status);
        assertThat(page.status()).as("%s", page.body()).isEqualTo(200);
        return page.body().path("items").findValuesAsText("orderId");
    }

    /**
     * A listing reads a page's order rows a read of {@code OrderDao.IDS_PER_READ} (64) rows at a
     * time: more orders than that, in one page and across pages, each listed once, newest first,
     * with its own row's status, and filters applied to the right rows.
     */
    @Test
    void lists_more_orders_than_one_read_holds_once_each_newest_first() {
        String kim = customer();
        int n = 150;
        java.util.ArrayList<String> placed = new java.util.ArrayList<>();
        for (int i = 0; i < n; i++) {
            String symbol = i % 3 == 0 ? "NFLX" : "ORCL";
            placed.add(placeGtc(kim, "many-" + i, symbol, "BUY", "LIMIT", 1, "limitPrice", 1_000 + i));
        }
        String cancelled = placed.get(70);
        assertThat(api.cancel(kim, cancelled).status()).isEqualTo(200);
        List<String> newestFirst = new java.util.ArrayList<>(placed);
        java.util.Collections.reverse(newestFirst);

        BrokerApi.Response all = api.get(kim, "/api/v1/orders?pageSize=500");
        assertThat(all.status()).as("%s", all.body()).isEqualTo(200);
        assertThat(all.body().path("items").findValuesAsText("orderId")).containsExactlyElementsOf(newestFirst);
        assertThat(all.body().path("items").findValuesAsText("limitPrice"))
                .as("each item is its own order's row").containsExactlyElementsOf(
                        java.util.stream.IntStream.iterate(n - 1, i -> i >= 0, i -> i - 1)
                                .mapToObj(i -> Long.toString(1_000 + i)).toList());

        List<String> paged = new java.util.ArrayList<>();
        String token = null;
        for (int pages = 0; pages < 10; pages++) {
            BrokerApi.Response page = api.get(kim, "/api/v1/orders?pageSize=70"
                    + (token == null ? "" : "&pageToken=" + token));
            assertThat(page.status()).as("%s", page.body()).isEqualTo(200);
            paged.addAll(page.body().path("items").findValuesAsText("orderId"));
            token = page.body().path("nextPageToken").isMissingNode() || page.body().path("nextPageToken").isNull()
                    ? null : page.body().path("nextPageToken").asText();
            if (token == null) {
                break;
            }
        }
        assertThat(token).as("the list ended within ten pages").isNull();
        assertThat(paged).containsExactlyElementsOf(newestFirst);

        BrokerApi.Response ended = api.get(kim, "/api/v1/orders?pageSize=500&status=CANCELLED");
        assertThat(ended.body().path("items").findValuesAsText("orderId")).containsExactly(cancelled);
        assertThat(ended.body().path("items").get(0).path("status").asText()).isEqualTo("CANCELLED");
        BrokerApi.Response nflx = api.get(kim, "/api/v1/orders?pageSize=500&symbol=NFLX&status=OPEN");
        assertThat(nflx.body().path("items").findValuesAsText("orderId")).containsExactlyElementsOf(
                newestFirst.stream().filter(id -> placed.indexOf(id) % 3 == 0 && !id.equals(cancelled)).toList());
    }

    @Test
    void all_or_none_never_fills_partially() {
        String hal = customer();
        String orderId = placeGtc(hal, "a1", "AVGO", "BUY", "LIMIT", 100, "limitPrice", 10_000, "allOrNone", true);
        tickAndWait(hal, "AVGO", 10_000, 99);
        assertThat(order(hal, orderId).number("filledQuantity")).isZero();

        long sequence = tickAndWait(hal, "AVGO", 10_000, 100);
        assertThat(order(hal, orderId).text("status")).isEqualTo("FILLED");
        await().atMost(Duration.ofSeconds(10)).until(() -> !exchange.fillsOf(orderId).isEmpty());
        assertThat(exchange.fillsOf(orderId)).singleElement()
                .satisfies(f -> assertThat(f.quantity()).isEqualTo(100))
                .satisfies(f -> assertThat(f.tickerSequence()).isEqualTo(sequence));
    }

    @Test
    void cancel_releases_the_reservation_and_a_second_cancel_is_a_conflict() {
        String ivy = customer();
        String buy = placeGtc(ivy, "c1", "COST", "BUY", "LIMIT", 10, "limitPrice", 10_000);
        api.seedShares(id(ivy), "COST", 5);
        String sell = placeGtc(ivy, "c2", "COST", "SELL", "LIMIT", 5, "limitPrice", 20_000);
        assertThat(api.cash(ivy, "USD")).containsExactly(START_CASH - 100_000, 100_000);
        assertThat(api.shares(ivy, "COST")).containsExactly(0, 5);

        BrokerApi.Response cancelled = api.cancel(ivy, buy);
        assertThat(cancelled.status()).isEqualTo(200);
        assertThat(cancelled.text("status")).isEqualTo("CANCELLED");
        assertThat(api.cancel(ivy, sell).status()).isEqualTo(200);
        assertThat(api.cash(ivy, "USD")).containsExactly(START_CASH, 0);
        assertThat(api.shares(ivy, "COST")).containsExactly(5, 0);

        BrokerApi.Response again = api.cancel(ivy, buy);
        assertThat(again.status()).isEqualTo(409);
        assertThat(again.body().path("order").path("status").asText()).isEqualTo("CANCELLED");

        tickAndWait(ivy, "COST", 10_000, 100);
        assertThat(order(ivy, buy).number("filledQuantity")).as("a cancelled order never fills").isZero();
    }

    @Test
    void day_orders_expire_at_the_close_and_release_their_reservation() {
        String jay = customer();
        BrokerApi.Response placed = api.place(jay, "d1", "NFLX", "BUY", "LIMIT", 10, "limitPrice", 10_000);
        assertThat(placed.status()).isEqualTo(201);
        String orderId = placed.text("orderId");
        assertThat(api.cash(jay, "USD")[1]).isEqualTo(100_000);

        InProcessBroker.CLOCK.advance(Duration.ofDays(1));
        await().atMost(Duration.ofSeconds(30)).until(() -> order(jay, orderId).text("status").equals("EXPIRED"));
        assertThat(api.cash(jay, "USD")).containsExactly(START_CASH, 0);
    }

    @Test
    void orders_that_cannot_be_covered_are_rejected_with_the_reason() {
        String kim = api.customer("poor" + UUID.randomUUID().toString().substring(0, 8), 50_000);
        BrokerApi.Response cash = api.place(kim, "r1", "ADBE", "BUY", "LIMIT", 10, "limitPrice", 10_000);
        assertThat(cash.status()).isEqualTo(422);
        assertThat(cash.text("detail")).contains("insufficient cash");
        assertThat(cash.body().path("order").path("status").asText()).isEqualTo("REJECTED");

        BrokerApi.Response shares = api.place(kim, "r2", "ADBE", "SELL", "LIMIT", 1, "limitPrice", 10_000);
        assertThat(shares.status()).isEqualTo(422);
        assertThat(shares.text("detail")).contains("insufficient shares");
        assertThat(api.cash(kim, "USD")).containsExactly(50_000, 0);

        assertThat(api.send("POST", "/api/v1/account/withdrawals", kim, Map.of("currency", "USD", "amount", 50_001))
                .status()).isEqualTo(422);
        assertThat(api.send("POST", "/api/v1/account/withdrawals", kim, Map.of("currency", "USD", "amount", 50_000))
                .status()).isEqualTo(201);
        assertThat(api.cash(kim, "USD")).containsExactly(0, 0);
    }

    @Test
    void placement_is_idempotent_on_the_client_order_id() {
        String lee = customer();
        BrokerApi.Response first = api.place(lee, "same", "AMD", "BUY", "LIMIT", 10, "limitPrice", 10_000, "timeInForce", "GTC");
        BrokerApi.Response repeat = api.place(lee, "same", "AMD", "BUY", "LIMIT", 10, "limitPrice", 10_000, "timeInForce", "GTC");
        assertThat(first.status()).isEqualTo(201);
        assertThat(repeat.status()).isEqualTo(200);
        assertThat(repeat.text("orderId")).isEqualTo(first.text("orderId"));
        assertThat(api.cash(lee, "USD")[1]).as("reserved once").isEqualTo(100_000);

        BrokerApi.Response different = api.place(lee, "same", "AMD", "BUY", "LIMIT", 11, "limitPrice", 10_000, "timeInForce", "GTC");
        assertThat(different.status()).isEqualTo(409);
        assertThat(api.get(lee, "/api/v1/orders?symbol=AMD").body().path("items")).hasSize(1);
    }

    @Test
    void a_customer_can_neither_see_nor_cancel_another_customers_order() {
        String owner = customer();
        String other = customer();
        String orderId = placeGtc(owner, "x1", "INTC", "BUY", "LIMIT", 10, "limitPrice", 1_000);

        assertThat(api.order(other, orderId).status()).isEqualTo(404);
        assertThat(api.cancel(other, orderId).status()).isEqualTo(404);
        assertThat(api.order(other, UUID.randomUUID().toString()).status()).isEqualTo(404);
        assertThat(api.get(other, "/api/v1/orders").body().path("items")).isEmpty();
        assertThat(api.order(owner, orderId).text("status")).isEqualTo("OPEN");
        assertThat(api.order("nobody.bad", orderId).status()).isEqualTo(401);
    }

    @Test
    void replayed_tickers_make_no_new_fills() {
        String mia = customer();
        String orderId = placeGtc(mia, "rp", "CSCO", "BUY", "LIMIT", 100, "limitPrice", 10_000);
        long first = tickAndWait(mia, "CSCO", 10_000, 10);
        assertThat(order(mia, orderId).number("filledQuantity")).isEqualTo(10);

        exchange.send("CSCO", 10_000, 10, first);
        exchange.send("CSCO", 9_000, 50, first);
        tickAndWait(mia, "CSCO", 10_001, 10);
        assertThat(order(mia, orderId).number("filledQuantity")).isEqualTo(10);
        await().atMost(Duration.ofSeconds(10)).until(() -> !exchange.fillsOf(orderId).isEmpty());
        assertThat(exchange.fillsOf(orderId)).hasSize(1);
    }

    @Test
    void a_poison_ticker_is_dead_lettered_and_consumption_carries_on() {
        String ned = customer();
        String orderId = placeGtc(ned, "pz", "PEP", "BUY", "LIMIT", 10, "limitPrice", 10_000);
        exchange.sendRaw("NASDAQ", "PEP", "{not json".getBytes(StandardCharsets.UTF_8));
        exchange.sendRaw("NASDAQ", "PEP", "{\"symbol\":\"PEP\",\"exchange\":\"NASDAQ\",\"price\":-5,\"volume\":1,\"exchangeTimeMicros\":1,\"sequence\":1}"
                .getBytes(StandardCharsets.UTF_8));
        tickAndWait(ned, "PEP", 10_000, 100);
        assertThat(order(ned, orderId).text("status")).isEqualTo("FILLED");
        await().atMost(Duration.ofSeconds(10)).until(() -> exchange.deadLetters().size() >= 2);
        List<ConsumerRecord<String, byte[]>> dead = exchange.deadLetters();
        assertThat(dead).allSatisfy(r -> assertThat(r.headers().lastHeader("geobroker-reject-reason")).isNotNull());
        assertThat(new String(dead.get(0).headers().lastHeader("geobroker-reject-reason").value(), StandardCharsets.UTF_8))
                .contains("malformed JSON");
    }

    @Test
    void client_mistakes_get_problem_details_never_a_server_error() {
        String oli = customer();
        record Case(String body, int status) {
        }
        List<Case> cases = List.of(
                new Case("{\"clientOrderId\":\"e1\",\"symbol\":\"AAPL\",\"side\":\"BUY\",\"type\":\"LIMIT\",\"quantity\":0,\"limitPrice\":1}", 400),
                new Case("{\"clientOrderId\":\"e2\",\"symbol\":\"AAPL\",\"side\":\"BUY\",\"type\":\"LIMIT\",\"quantity\":-3,\"limitPrice\":1}", 400),
                new Case("{\"clientOrderId\":\"e3\",\"symbol\":\"AAPL\",\"side\":\"BUY\",\"type\":\"MARKET\",\"quantity\":1,\"limitPrice\":1}", 400),
                new Case("{\"clientOrderId\":\"e4\",\"symbol\":\"AAPL\",\"side\":\"BUY\",\"type\":\"LIMIT\",\"quantity\":1}", 400),
                new Case("{\"clientOrderId\":\"e5\",\"symbol\":\"AAPL\",\"side\":\"HOLD\",\"type\":\"LIMIT\",\"quantity\":1,\"limitPrice\":1}", 400),
                new Case("{\"clientOrderId\":\"e6\",\"symbol\":\"AAPL\",\"side\":\"BUY\",\"type\":\"LIMIT\",\"quantity\":1,\"limitPrice\":1,\"leverage\":9}", 400),
                new Case("{\"clientOrderId\":\"e7\",\"symbol\":\"AAPL\",\"side\":\"BUY\",\"type\":\"LIMIT\",\"quantity\":1.5,\"limitPrice\":1}", 400),
                new Case("{\"clientOrderId\":\"e8\",\"symbol\":\"NOPE\",\"side\":\"BUY\",\"type\":\"MARKET\",\"quantity\":1}", 422),
                new Case("{\"clientOrderId\":\"e9\",", 400),
                new Case("[]", 400),
                new Case("{\"clientOrderId\":\"" + "x".repeat(20_000) + "\"}", 413));
        for (Case c : cases) {
            BrokerApi.Response r = api.raw("POST", "/api/v1/orders", oli, c.body());
            assertThat(r.status()).as(c.body().substring(0, Math.min(80, c.body().length()))).isEqualTo(c.status());
            assertThat(r.body().path("title").asText()).isNotBlank();
            assertThat(r.body().path("status").asInt()).isEqualTo(c.status());
        }
        assertThat(api.get(oli, "/api/v1/orders?status=BOGUS").status()).isEqualTo(400);
        assertThat(api.get(oli, "/api/v1/orders?pageToken=@@@@").status()).isEqualTo(400);
        assertThat(api.get(oli, "/api/v1/orders?pageToken=AAAAAAAAAAAAAAAA").status()).isLessThan(500);
        assertThat(api.get(oli, "/api/v1/account/transactions?pageToken=AAAAAAAAAAAAAAAA").status()).isLessThan(500);
        assertThat(api.get(oli, "/api/v1/orders/not-a-uuid").status()).isEqualTo(400);
        assertThat(api.get(oli, "/api/v1/quotes/NOPE").status()).isEqualTo(404);
        assertThat(api.send("POST", "/api/v1/account/deposits", oli, Map.of("currency", "AUD", "amount", 5)).status())
                .as("AUD is held by Sydney").isEqualTo(422);
        assertThat(api.raw("POST", "/api/v1/orders", null, "{}").status()).isEqualTo(401);
    }

    @Test
    void metrics_are_exposed_for_prometheus() {
        String pia = customer();
        String orderId = placeGtc(pia, "mx", "QCOM", "BUY", "LIMIT", 1, "limitPrice", 10_000);
        double delivered = metric("geobroker_ticker_delivery_seconds_count");
        tickAndWait(pia, "QCOM", 10_000, 10);
        assertThat(order(pia, orderId).text("status")).isEqualTo("FILLED");
        assertThat(metric("geobroker_ticker_delivery_seconds_count")).as("the filling ticker's delivery is timed")
                .isGreaterThan(delivered);
        await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
            String text = api.rawText("/actuator/prometheus");
            assertThat(text).contains("geobroker_ticker_to_fill_seconds_count{region=\"nvirginia\"}",
                    "geobroker_engine_stage_seconds_count{region=\"nvirginia\",stage=\"persist\"}",
                    "geobroker_orders_placed_total",
                    "geobroker_orders_resting", "kafka_consumer_fetch_manager_records_lag_max");
        });
        assertThat(api.get(null, "/actuator/health/readiness").status()).isEqualTo(200);

        // a market order fills at the latest quote when placed: no ticker filled it, so it has no ticker-to-fill
        double tickerFills = tickerToFillCount();
        assertThat(tickerFills).isGreaterThanOrEqualTo(1);
        BrokerApi.Response market = api.place(pia, "mx2", "QCOM", "BUY", "MARKET", 1);
        assertThat(market.status()).isEqualTo(201);
        assertThat(market.text("status")).isEqualTo("FILLED");
        assertThat(tickerToFillCount()).isEqualTo(tickerFills);

        // a resting order's placement is one write of one partition, its log slot; the projection round a
        // read of the order waits for writes the customer's order, list entry and cash in one partition
        double written = metric("geobroker_engine_group_partitions_sum");
        double commits = metric("geobroker_engine_group_partitions_count");
        double statements = metric("geobroker_engine_projection_statements_sum");
        double partitions = metric("geobroker_engine_projection_partitions_sum");
        String resting = placeGtc(pia, "mx3", "QCOM", "BUY", "LIMIT", 1, "limitPrice", 5_000);
        assertThat(api.order(pia, resting).text("status")).isEqualTo("OPEN");
        assertThat(metric("geobroker_engine_group_partitions_sum") - written)
                .isEqualTo(metric("geobroker_engine_group_partitions_count") - commits).isPositive();
        double moreStatements = metric("geobroker_engine_projection_statements_sum") - statements;
        double morePartitions = metric("geobroker_engine_projection_partitions_sum") - partitions;
        assertThat(moreStatements).isGreaterThanOrEqualTo(3);
        assertThat(morePartitions).isPositive().isLessThan(moreStatements);
    }

    @Test
    void an_order_whose_row_holds_only_later_changes_is_not_found_here_yet() {
        // the home region's update of an order placed elsewhere, arrived in this DC before the placement
        String token = customer();
        String customerId = id(token);
        UUID orderId = UUID.randomUUID();
        stack.session("nvirginia").execute(SimpleStatement.newInstance("UPDATE customer_orders SET status = 'OPEN', "
                + "filled_quantity = 0, updated_at = toTimestamp(now()) WHERE customer_id = ? AND order_id = ?",
                customerId, orderId));
        stack.session("nvirginia").execute(SimpleStatement.newInstance("INSERT INTO orders_by_customer (customer_id, "
                + "placed_at, order_id, symbol, side, order_type, quantity) VALUES (?, toTimestamp(now()), ?, 'ORCL', "
                + "'BUY', 'LIMIT', 1)", customerId, orderId));
        placeGtc(token, "whole", "ORCL", "BUY", "LIMIT", 1, "limitPrice", 1_000);

        BrokerApi.Response one = order(token, orderId.toString());
        assertThat(one.status()).as("%s", one.body()).isEqualTo(404);
        assertThat(one.text("title")).isEqualTo("Order not found");
        BrokerApi.Response list = api.get(token, "/api/v1/orders");
        assertThat(list.status()).as("%s", list.body()).isEqualTo(200);
        assertThat(list.body().path("items")).hasSize(1);
        assertThat(list.body().path("items").get(0).path("clientOrderId").asText()).isEqualTo("whole");
    }

    private double tickerToFillCount() {
        return metric("geobroker_ticker_to_fill_seconds_count");
    }

    /** A metric of this broker without labels other than the region. */
    private double metric(String name) {
        String prefix = name + "{region=\"nvirginia\"} ";
        return api.rawText("/actuator/prometheus").lines().filter(l -> l.startsWith(prefix))
                .mapToDouble(l -> Double.parseDouble(l.substring(prefix.length()).trim())).findFirst().orElseThrow();
    }
}
