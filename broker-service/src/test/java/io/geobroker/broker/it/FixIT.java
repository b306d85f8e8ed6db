package io.geobroker.broker.it;

import io.geobroker.broker.order.OrderIds;
import io.geobroker.domain.OrderStatus;
import io.geobroker.testsupport.StackContext;
import io.geobroker.testsupport.WithLocalStack;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import quickfix.FieldNotFound;
import quickfix.Message;
import quickfix.field.AvgPx;
import quickfix.field.BusinessRejectReason;
import quickfix.field.RefTagID;
import quickfix.field.ClOrdID;
import quickfix.field.CumQty;
import quickfix.field.CxlRejReason;
import quickfix.field.ExecID;
import quickfix.field.ExecType;
import quickfix.field.HandlInst;
import quickfix.field.LastPx;
import quickfix.field.LastQty;
import quickfix.field.LeavesQty;
import quickfix.field.MsgType;
import quickfix.field.OrdRejReason;
import quickfix.field.OrdStatus;
import quickfix.field.OrdType;
import quickfix.field.OrderID;
import quickfix.field.OrderQty;
import quickfix.field.OrigClOrdID;
import quickfix.field.PossDupFlag;
import quickfix.field.Price;
import quickfix.field.SessionRejectReason;
import quickfix.field.Side;
import quickfix.field.Symbol;
import quickfix.field.Text;
import quickfix.field.TimeInForce;
import quickfix.field.TransactTime;
import quickfix.fix44.NewOrderSingle;
import quickfix.fix44.OrderCancelRequest;
import quickfix.fix44.OrderStatusRequest;

import java.io.IOException;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.Predicate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * FIX 4.4 order entry of one broker (N. Virginia) on the real stack, with QuickFIX/J initiators as
 * the clients: Logon with the customer's token, every order message and its answers, fills as
 * trade reports (also while the client was logged out), the same orders over REST, and malformed
 * messages answered while the session stays up. Every test uses its own customer and symbol.
 */
@WithLocalStack
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class FixIT {

    private static final int PORT = 9878;
    private static final Duration ANSWER = Duration.ofSeconds(15);
    private static final long START_CASH = 10_000_000;
    private TestStack stack;
    private String address;
    private Path store;
    @AutoClose
    private InProcessBroker broker;
    @AutoClose
    private InProcessBroker sydney;
    private String sydneyAddress;
    private BrokerApi api;
    @AutoClose
    private Exchange exchange;

    @BeforeAll
    void start(StackContext context) throws IOException {
        stack = TestStack.of(context);
        address = stack.testAddress(31);
        sydneyAddress = stack.testAddress(33);
        store = Files.createTempDirectory("fix-store");
        Map<String, Object> peered = TestStack.peeredBrokers(sydneyAddress, address, "peer-" + UUID.randomUUID());
        broker = new InProcessBroker(stack, "nvirginia", address, fix(peered, store.resolve("nvirginia")));
        sydney = new InProcessBroker(stack, "sydney", sydneyAddress, fix(peered, store.resolve("sydney")));
        api = broker.api;
        exchange = new Exchange(stack.kafkaBootstrap("nvirginia"), stack.topics());
        // The acceptors start on their own threads, off the way to readiness; the brokers' health waits for them.
        for (BrokerApi b : List.of(broker.api, sydney.api)) {
            await("the FIX acceptor listening").atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(100))
                    .until(() -> b.get(null, "/actuator/health").status() == 200);
        }
    }

    private static Map<String, Object> fix(Map<String, Object> peered, Path store) {
        Map<String, Object> p = new HashMap<>(peered);
        p.put("geobroker.fix.enabled", "true");
        p.put("geobroker.fix.port", PORT);
        p.put("geobroker.fix.store-directory", store.toString());
        return p;
    }

    @AfterAll
    void removeStore() throws IOException {
        if (broker != null) {
            broker.close();
            broker = null;
        }
        if (sydney != null) {
            sydney.close();
            sydney = null;
        }
        try (var files = Files.walk(store)) {
            files.sorted((a, b) -> b.getNameCount() - a.getNameCount()).forEach(p -> p.toFile().delete());
        }
    }

    private String customer() {
        return api.customer("fix" + UUID.randomUUID().toString().substring(0, 8), START_CASH);
    }

    private static String id(String token) {
        return token.substring(0, token.lastIndexOf('.'));
    }

    private FixClient connect(String token) throws Exception {
        FixClient client = new FixClient(address, PORT, id(token), "GEOBROKER", token);
        assertThat(client.awaitLogon(ANSWER)).as("logged on").isTrue();
        return client;
    }

    private static NewOrderSingle order(String clOrdId, String symbol, char side, long quantity, char type) {
        NewOrderSingle o = new NewOrderSingle(new ClOrdID(clOrdId), new Side(side),
                new TransactTime(LocalDateTime.now(ZoneOffset.UTC)), new OrdType(type));
        o.set(new Symbol(symbol));
        o.setDecimal(OrderQty.FIELD, BigDecimal.valueOf(quantity));
        o.set(new HandlInst(HandlInst.AUTOMATED_EXECUTION_ORDER_PRIVATE_NO_BROKER_INTERVENTION));
        return o;
    }

    private static NewOrderSingle limit(String clOrdId, String symbol, char side, long quantity, String price) {
        NewOrderSingle o = order(clOrdId, symbol, side, quantity, OrdType.LIMIT);
        o.setDecimal(Price.FIELD, new BigDecimal(price));
        o.set(new TimeInForce(TimeInForce.GOOD_TILL_CANCEL));
        return o;
    }

    private static Predicate<Message> report(String clOrdId, char execType) {
        return m -> {
            try {
                return MsgType.EXECUTION_REPORT.equals(m.getHeader().getString(MsgType.FIELD))
                        && m.getString(ClOrdID.FIELD).equals(clOrdId) && m.getChar(ExecType.FIELD) == execType;
            } catch (FieldNotFound e) {
                return false;
            }
        };
    }

    private static Predicate<Message> type(String msgType) {
        return m -> {
            try {
                return msgType.equals(m.getHeader().getString(MsgType.FIELD));
            } catch (FieldNotFound e) {
                return false;
            }
        };
    }

    private long tickAndWait(String token, String symbol, long price, long volume) {
        long sequence = exchange.tick(symbol, price, volume);
        await().atMost(Duration.ofSeconds(30)).until(() -> {
            BrokerApi.Response q = api.get(token, "/api/v1/quotes/" + symbol);
            return q.status() == 200 && q.number("sequence") >= sequence;
        });
        return sequence;
    }

    /** Whether a message the broker stored for the customer's session carries {@code text}. */
    private static boolean storedMessagesContain(Path store, String customerId, String text) throws IOException {
        try (var files = Files.list(store)) {
            for (Path f : files.filter(p -> p.getFileName().toString().contains(customerId)
                    && p.getFileName().toString().endsWith(".body")).toList()) {
                if (Files.readString(f, java.nio.charset.StandardCharsets.ISO_8859_1).contains(text)) {
                    return true;
                }
            }
        }
        return false;
    }

    private static BigDecimal decimal(Message m, int field) throws FieldNotFound {
        return new BigDecimal(m.getString(field));
    }

    @Test
    void a_logon_without_the_customers_token_is_refused() throws Exception {
        String alice = customer();
        String bob = customer();
        try (FixClient wrong = new FixClient(address, PORT, id(alice), "GEOBROKER", bob)) {
            assertThat(wrong.awaitLogon(Duration.ofSeconds(4))).isFalse();
            assertThat(wrong.logoutTexts()).isNotEmpty()
                    .allSatisfy(t -> assertThat(t).contains("token"));
        }
        try (FixClient forged = new FixClient(address, PORT, id(alice), "GEOBROKER", id(alice) + ".not-the-secret")) {
            assertThat(forged.awaitLogon(Duration.ofSeconds(4))).isFalse();
        }
        try (FixClient right = connect(alice)) {
            assertThat(right.session().isLoggedOn()).isTrue();
        }
    }

    @Test
    void a_limit_order_is_acknowledged_then_filled_in_two_trades_with_the_orders_totals() throws Exception {
        String carol = customer();
        try (FixClient fix = connect(carol)) {
            fix.send(limit("L1", "AAPL", Side.BUY, 10, "100.00"));
            Message ack = fix.next(report("L1", ExecType.NEW), ANSWER);
            String orderId = OrderIds.orderId(id(carol), "L1").toString();
            assertThat(ack.getString(OrderID.FIELD)).isEqualTo(orderId);
            assertThat(ack.getChar(OrdStatus.FIELD)).isEqualTo(OrdStatus.NEW);
            assertThat(decimal(ack, LeavesQty.FIELD)).isEqualByComparingTo("10");
            assertThat(decimal(ack, Price.FIELD)).isEqualByComparingTo("100.00");

            BrokerApi.Response rest = api.order(carol, orderId);
            assertThat(rest.text("status")).as("the same order over REST").isEqualTo("OPEN");
            assertThat(rest.number("limitPrice")).isEqualTo(10_000);
            assertThat(rest.text("clientOrderId")).isEqualTo("L1");
            assertThat(api.cash(carol, "USD")).containsExactly(START_CASH - 100_000, 100_000);

            long first = tickAndWait(carol, "AAPL", 10_000, 4);
            Message partial = fix.next(report("L1", ExecType.TRADE), ANSWER);
            assertThat(partial.getString(ExecID.FIELD)).isEqualTo(OrderIds.fillId(UUID.fromString(orderId), first).toString());
            assertThat(decimal(partial, LastQty.FIELD)).isEqualByComparingTo("4");
            assertThat(decimal(partial, LastPx.FIELD)).isEqualByComparingTo("100.00");
            assertThat(decimal(partial, CumQty.FIELD)).isEqualByComparingTo("4");
            assertThat(decimal(partial, LeavesQty.FIELD)).isEqualByComparingTo("6");
            assertThat(partial.getChar(OrdStatus.FIELD)).isEqualTo(OrdStatus.PARTIALLY_FILLED);

            long second = tickAndWait(carol, "AAPL", 9_999, 100);
            Message done = fix.next(report("L1", ExecType.TRADE), ANSWER);
            assertThat(done.getString(ExecID.FIELD)).isEqualTo(OrderIds.fillId(UUID.fromString(orderId), second).toString());
            assertThat(decimal(done, LastQty.FIELD)).isEqualByComparingTo("6");
            assertThat(decimal(done, LastPx.FIELD)).isEqualByComparingTo("99.99");
            assertThat(decimal(done, CumQty.FIELD)).isEqualByComparingTo("10");
            assertThat(decimal(done, LeavesQty.FIELD)).isEqualByComparingTo("0");
            assertThat(decimal(done, AvgPx.FIELD)).isEqualByComparingTo("99.994");
            assertThat(done.getChar(OrdStatus.FIELD)).isEqualTo(OrdStatus.FILLED);
            assertThat(api.order(carol, orderId).text("status")).isEqualTo("FILLED");
            assertThat(fix.drain(Duration.ofSeconds(2))).as("no trade reported twice").noneMatch(report("L1", ExecType.TRADE));
        }
    }

    @Test
    void orders_are_cancelled_and_asked_about_over_fix_whichever_way_they_were_placed() throws Exception {
        String dave = customer();
        try (FixClient fix = connect(dave)) {
            BrokerApi.Response placed = api.place(dave, "R1", "MSFT", "BUY", "LIMIT", 5, "limitPrice", 30_000,
                    "timeInForce", "GTC");
            assertThat(placed.status()).isEqualTo(201);

            OrderStatusRequest ask = new OrderStatusRequest(new ClOrdID("R1"), new Side(Side.BUY));
            ask.set(new Symbol("MSFT"));
            fix.send(ask);
            Message status = fix.next(report("R1", ExecType.ORDER_STATUS), ANSWER);
            assertThat(status.getChar(OrdStatus.FIELD)).isEqualTo(OrdStatus.NEW);
            assertThat(decimal(status, Price.FIELD)).isEqualByComparingTo("300.00");

            fix.send(cancel("C1", "R1", "MSFT", 5));
            Message cancelled = fix.next(report("C1", ExecType.CANCELED), ANSWER);
            assertThat(cancelled.getString(OrigClOrdID.FIELD)).isEqualTo("R1");
            assertThat(cancelled.getString(ExecID.FIELD)).as("the cancel's event id")
                    .isEqualTo(OrderIds.eventId(UUID.fromString(placed.text("orderId")), OrderStatus.CANCELLED).toString());
            assertThat(fix.drain(Duration.ofSeconds(3))).as("the answer is the only report of this cancel")
                    .noneMatch(report("R1", ExecType.CANCELED));
            assertThat(cancelled.getChar(OrdStatus.FIELD)).isEqualTo(OrdStatus.CANCELED);
            assertThat(api.order(dave, placed.text("orderId")).text("status")).isEqualTo("CANCELLED");
            assertThat(api.cash(dave, "USD")).containsExactly(START_CASH, 0);

            fix.send(cancel("C2", "R1", "MSFT", 5));
            Message late = fix.next(type(MsgType.ORDER_CANCEL_REJECT), ANSWER);
            assertThat(late.getInt(CxlRejReason.FIELD)).isEqualTo(CxlRejReason.TOO_LATE_TO_CANCEL);
            assertThat(late.getChar(OrdStatus.FIELD)).isEqualTo(OrdStatus.CANCELED);

            fix.send(cancel("C3", "never-placed", "MSFT", 5));
            Message unknown = fix.next(type(MsgType.ORDER_CANCEL_REJECT), ANSWER);
            assertThat(unknown.getInt(CxlRejReason.FIELD)).isEqualTo(CxlRejReason.UNKNOWN_ORDER);

            fix.send(limit("F1", "MSFT", Side.BUY, 2, "250.00"));
            fix.next(report("F1", ExecType.NEW), ANSWER);
            BrokerApi.Response restCancel = api.cancel(dave, OrderIds.orderId(id(dave), "F1").toString());
            assertThat(restCancel.status()).as("an order placed over FIX, cancelled over REST").isEqualTo(200);
            assertThat(restCancel.text("status")).isEqualTo("CANCELLED");

            OrderStatusRequest missing = new OrderStatusRequest(new ClOrdID("nope"), new Side(Side.BUY));
            missing.set(new Symbol("MSFT"));
            fix.send(missing);
            Message none = fix.next(report("nope", ExecType.ORDER_STATUS), ANSWER);
            assertThat(none.getChar(OrdStatus.FIELD)).isEqualTo(OrdStatus.REJECTED);
        }
    }

    @Test
    void a_rest_cancel_of_a_fix_order_is_reported_once_unsolicited() throws Exception {
        String ivan = customer();
        try (FixClient fix = connect(ivan)) {
            fix.send(limit("U1", "ORCL", Side.BUY, 4, "100.00"));
            fix.next(report("U1", ExecType.NEW), ANSWER);
            String orderId = OrderIds.orderId(id(ivan), "U1").toString();
            assertThat(api.cancel(ivan, orderId).status()).isEqualTo(200);

            Message cancelled = fix.next(report("U1", ExecType.CANCELED), ANSWER);
            assertThat(cancelled.getString(ExecID.FIELD))
                    .isEqualTo(OrderIds.eventId(UUID.fromString(orderId), OrderStatus.CANCELLED).toString());
            assertThat(cancelled.getString(OrderID.FIELD)).isEqualTo(orderId);
            assertThat(cancelled.getChar(OrdStatus.FIELD)).isEqualTo(OrdStatus.CANCELED);
            assertThat(decimal(cancelled, LeavesQty.FIELD)).isEqualByComparingTo("0");
            assertThat(decimal(cancelled, CumQty.FIELD)).isEqualByComparingTo("0");
            assertThat(decimal(cancelled, OrderQty.FIELD)).isEqualByComparingTo("4");
            assertThat(cancelled.getString(Symbol.FIELD)).isEqualTo("ORCL");
            assertThat(cancelled.isSetField(OrigClOrdID.FIELD)).as("unsolicited").isFalse();
            assertThat(fix.drain(Duration.ofSeconds(3))).as("exactly once").noneMatch(report("U1", ExecType.CANCELED));
        }
    }

    @Test
    void a_day_order_that_expires_is_reported_expired() throws Exception {
        String judy = customer();
        try (FixClient fix = connect(judy)) {
            NewOrderSingle day = order("E1", "INTC", Side.BUY, 3, OrdType.LIMIT);
            day.setDecimal(Price.FIELD, new BigDecimal("20.00"));
            fix.send(day);
            Message ack = fix.next(report("E1", ExecType.NEW), ANSWER);
            assertThat(ack.getChar(TimeInForce.FIELD)).as("DAY when TimeInForce is left out").isEqualTo(TimeInForce.DAY);
            try {
                InProcessBroker.CLOCK.advance(Duration.ofDays(1));
                Message expired = fix.next(report("E1", ExecType.EXPIRED), Duration.ofSeconds(30));
                String orderId = OrderIds.orderId(id(judy), "E1").toString();
                assertThat(expired.getString(ExecID.FIELD))
                        .isEqualTo(OrderIds.eventId(UUID.fromString(orderId), OrderStatus.EXPIRED).toString());
                assertThat(expired.getChar(OrdStatus.FIELD)).isEqualTo(OrdStatus.EXPIRED);
                assertThat(decimal(expired, LeavesQty.FIELD)).isEqualByComparingTo("0");
                assertThat(api.order(judy, orderId).text("status")).isEqualTo("EXPIRED");
            } finally {
                InProcessBroker.CLOCK.reset();
            }
            assertThat(fix.drain(Duration.ofSeconds(2))).as("exactly once").noneMatch(report("E1", ExecType.EXPIRED));
        }
    }

    @Test
    void a_cancel_while_logged_out_arrives_once_after_the_next_logon() throws Exception {
        String kate = customer();
        try (FixClient fix = connect(kate)) {
            fix.keepSequenceNumbers();
            fix.send(limit("W1", "CSCO", Side.BUY, 2, "30.00"));
            fix.next(report("W1", ExecType.NEW), ANSWER);
            fix.logout();
            await().atMost(ANSWER).until(() -> !fix.session().isLoggedOn());

            String orderId = OrderIds.orderId(id(kate), "W1").toString();
            assertThat(api.cancel(kate, orderId).status()).isEqualTo(200);
            String execId = OrderIds.eventId(UUID.fromString(orderId), OrderStatus.CANCELLED).toString();
            await("the cancel report stored for the logged-out session").atMost(ANSWER)
                    .until(() -> storedMessagesContain(store.resolve("nvirginia"), id(kate), execId));

            fix.logon();
            assertThat(fix.awaitLogon(ANSWER)).isTrue();
            Message cancelled = fix.next(report("W1", ExecType.CANCELED), ANSWER);
            assertThat(cancelled.getString(ExecID.FIELD)).isEqualTo(execId);
            assertThat(cancelled.getHeader().isSetField(PossDupFlag.FIELD) && cancelled.getHeader().getBoolean(PossDupFlag.FIELD))
                    .as("sent again from the store").isTrue();
            assertThat(fix.drain(Duration.ofSeconds(2))).as("exactly once").noneMatch(report("W1", ExecType.CANCELED));
        }
    }

    private static OrderCancelRequest cancel(String clOrdId, String origClOrdId, String symbol, long quantity) {
        OrderCancelRequest c = new OrderCancelRequest(new OrigClOrdID(origClOrdId), new ClOrdID(clOrdId),
                new Side(Side.BUY), new TransactTime(LocalDateTime.now(ZoneOffset.UTC)));
        c.set(new Symbol(symbol));
        c.setDecimal(OrderQty.FIELD, BigDecimal.valueOf(quantity));
        return c;
    }

    @Test
    void refused_orders_are_rejected_with_the_reason_and_repeats_are_recognised() throws Exception {
        String erin = customer();
        try (FixClient fix = connect(erin)) {
            fix.send(limit("X1", "NVDA", Side.BUY, 1, "100.005"));
            Message decimals = fix.next(report("X1", ExecType.REJECTED), ANSWER);
            assertThat(decimals.getString(Text.FIELD)).contains("decimals");

            fix.send(limit("X2", "ZZZZ", Side.BUY, 1, "10.00"));
            Message unknown = fix.next(report("X2", ExecType.REJECTED), ANSWER);
            assertThat(unknown.getInt(OrdRejReason.FIELD)).isEqualTo(OrdRejReason.UNKNOWN_SYMBOL);

            fix.send(limit("X3", "NVDA", Side.SELL, 1, "10.00"));
            Message noShares = fix.next(report("X3", ExecType.REJECTED), ANSWER);
            assertThat(noShares.getString(Text.FIELD)).as("the REST API's reason").isNotBlank();
            assertThat(api.order(erin, OrderIds.orderId(id(erin), "X3").toString()).text("status")).isEqualTo("REJECTED");

            NewOrderSingle market = order("X4", "NVDA", Side.BUY, 1, OrdType.MARKET);
            market.setDecimal(Price.FIELD, new BigDecimal("10.00"));
            fix.send(market);
            Message priced = fix.next(report("X4", ExecType.REJECTED), ANSWER);
            assertThat(priced.getString(Text.FIELD)).contains("limitPrice");

            fix.send(limit("X5", "NVDA", Side.BUY, 1, "50.00"));
            fix.next(report("X5", ExecType.NEW), ANSWER);
            fix.send(limit("X5", "NVDA", Side.BUY, 1, "50.00"));
            Message repeat = fix.next(report("X5", ExecType.ORDER_STATUS), ANSWER);
            assertThat(repeat.getChar(OrdStatus.FIELD)).as("a repeated ClOrdID places nothing new").isEqualTo(OrdStatus.NEW);
            fix.send(limit("X5", "NVDA", Side.BUY, 2, "50.00"));
            Message reused = fix.next(report("X5", ExecType.REJECTED), ANSWER);
            assertThat(reused.getInt(OrdRejReason.FIELD)).isEqualTo(OrdRejReason.DUPLICATE_ORDER);
            assertThat(api.cash(erin, "USD")).containsExactly(START_CASH - 5_000, 5_000);
        }
    }

    @Test
    void malformed_and_unsupported_messages_are_rejected_and_the_session_stays_up() throws Exception {
        String fred = customer();
        try (FixClient fix = connect(fred)) {
            NewOrderSingle noSide = new NewOrderSingle(new ClOrdID("M0"), new Side(Side.BUY),
                    new TransactTime(LocalDateTime.now(ZoneOffset.UTC)), new OrdType(OrdType.LIMIT));
            noSide.removeField(Side.FIELD);
            noSide.set(new Symbol("AMZN"));
            noSide.setDecimal(OrderQty.FIELD, BigDecimal.ONE);
            noSide.setDecimal(Price.FIELD, new BigDecimal("10.00"));
            fix.send(noSide);
            Message reject = fix.next(type(MsgType.REJECT), ANSWER);
            assertThat(reject.getInt(SessionRejectReason.FIELD)).isEqualTo(SessionRejectReason.REQUIRED_TAG_MISSING);
            assertThat(reject.getInt(RefTagID.FIELD)).isEqualTo(Side.FIELD);

            NewOrderSingle noQuantity = new NewOrderSingle(new ClOrdID("M1"), new Side(Side.BUY),
                    new TransactTime(LocalDateTime.now(ZoneOffset.UTC)), new OrdType(OrdType.LIMIT));
            noQuantity.set(new Symbol("AMZN"));
            noQuantity.setDecimal(Price.FIELD, new BigDecimal("10.00"));
            fix.send(noQuantity);
            Message conditional = fix.next(type(MsgType.BUSINESS_MESSAGE_REJECT), ANSWER);
            assertThat(conditional.getInt(BusinessRejectReason.FIELD))
                    .isEqualTo(BusinessRejectReason.CONDITIONALLY_REQUIRED_FIELD_MISSING);

            Message quoteRequest = new Message();
            quoteRequest.getHeader().setString(MsgType.FIELD, MsgType.QUOTE_REQUEST);
            quoteRequest.setString(131, "Q1");
            quickfix.fix44.QuoteRequest.NoRelatedSym sym = new quickfix.fix44.QuoteRequest.NoRelatedSym();
            sym.set(new Symbol("AMZN"));
            quoteRequest.addGroup(sym);
            fix.send(quoteRequest);
            Message business = fix.next(type(MsgType.BUSINESS_MESSAGE_REJECT), ANSWER);
            assertThat(business.getString(372)).isEqualTo(MsgType.QUOTE_REQUEST);

            NewOrderSingle wrongType = order("M2", "AMZN", Side.BUY, 1, OrdType.PREVIOUSLY_QUOTED);
            fix.send(wrongType);
            Message unsupported = fix.next(m -> report("M2", ExecType.REJECTED).test(m) || type(MsgType.REJECT).test(m), ANSWER);
            assertThat(unsupported).isNotNull();

            assertThat(fix.session().isLoggedOn()).isTrue();
            fix.send(limit("M3", "AMZN", Side.BUY, 1, "10.00"));
            fix.next(report("M3", ExecType.NEW), ANSWER);
        }
        try (RawFix raw = RawFix.logon(address, PORT, id(fred), "GEOBROKER", fred)) {
            raw.sendGarbled("D", 2, "11=G1\u000121=1\u000155=AMZN\u000154=1\u000160=20260101-00:00:00\u000138=1\u000140=1\u0001");
            raw.send("1", 2, "112=still-there\u0001");
            assertThat(raw.readUntil("112=still-there", ANSWER)).as("a heartbeat for the test request").contains("35=0");
        }
        assertThat(api.get(fred, "/api/v1/orders/" + OrderIds.orderId(id(fred), "G1")).status())
                .as("the garbled order was ignored").isEqualTo(404);
    }

    @Test
    void fills_while_logged_out_arrive_once_when_the_client_comes_back() throws Exception {
        String gina = customer();
        try (FixClient fix = connect(gina)) {
            fix.keepSequenceNumbers();
            fix.send(limit("D1", "GOOGL", Side.BUY, 3, "170.00"));
            fix.next(report("D1", ExecType.NEW), ANSWER);
            fix.logout();
            await().atMost(ANSWER).until(() -> !fix.session().isLoggedOn());

            long sequence = tickAndWait(gina, "GOOGL", 17_000, 50);
            String orderId = OrderIds.orderId(id(gina), "D1").toString();
            await().atMost(ANSWER).until(() -> api.order(gina, orderId).text("status").equals("FILLED"));
            String fillId = OrderIds.fillId(UUID.fromString(orderId), sequence).toString();
            await("the trade report stored for the logged-out session").atMost(ANSWER)
                    .until(() -> storedMessagesContain(store.resolve("nvirginia"), id(gina), fillId));

            fix.logon();
            assertThat(fix.awaitLogon(ANSWER)).isTrue();
            Message trade = fix.next(report("D1", ExecType.TRADE), ANSWER);
            assertThat(trade.getString(ExecID.FIELD)).isEqualTo(OrderIds.fillId(UUID.fromString(orderId), sequence).toString());
            assertThat(trade.getHeader().isSetField(PossDupFlag.FIELD) && trade.getHeader().getBoolean(PossDupFlag.FIELD))
                    .as("sent again from the store").isTrue();
            List<Message> after = fix.drain(Duration.ofSeconds(2));
            assertThat(after).as("exactly once").noneMatch(report("D1", ExecType.TRADE));
        }
    }

    @Test
    void an_order_for_another_regions_symbol_is_pending_here_and_its_fill_reported_here() throws Exception {
        String hana = customer();
        try (FixClient fix = new FixClient(sydneyAddress, PORT, id(hana), "GEOBROKER", hana)) {
            assertThat(fix.awaitLogon(Duration.ofSeconds(30))).as("logged on in Sydney once the customer replicated").isTrue();
            fix.send(limit("P1", "NFLX", Side.BUY, 2, "600.00"));
            Message pending = fix.next(report("P1", ExecType.PENDING_NEW), ANSWER);
            assertThat(pending.getChar(OrdStatus.FIELD)).isEqualTo(OrdStatus.PENDING_NEW);
            String orderId = OrderIds.orderId(id(hana), "P1").toString();
            await().atMost(Duration.ofSeconds(30)).until(() -> "OPEN".equals(api.order(hana, orderId).text("status")));

            long sequence = tickAndWait(hana, "NFLX", 60_000, 10);
            Message trade = fix.next(report("P1", ExecType.TRADE), Duration.ofSeconds(30));
            assertThat(trade.getString(ExecID.FIELD)).as("N. Virginia's fill, reported by Sydney")
                    .isEqualTo(OrderIds.fillId(UUID.fromString(orderId), sequence).toString());
            assertThat(decimal(trade, CumQty.FIELD)).isEqualByComparingTo("2");
            assertThat(trade.getChar(OrdStatus.FIELD)).isEqualTo(OrdStatus.FILLED);
        }
    }

    @Test
    void an_order_for_another_regions_symbol_cancelled_at_home_is_reported_here() throws Exception {
        String lena = customer();
        try (FixClient fix = new FixClient(sydneyAddress, PORT, id(lena), "GEOBROKER", lena)) {
            assertThat(fix.awaitLogon(Duration.ofSeconds(30))).as("logged on in Sydney once the customer replicated").isTrue();
            fix.send(limit("Q1", "PEP", Side.BUY, 2, "100.00"));
            fix.next(report("Q1", ExecType.PENDING_NEW), ANSWER);
            String orderId = OrderIds.orderId(id(lena), "Q1").toString();
            await().atMost(Duration.ofSeconds(30)).until(() -> "OPEN".equals(api.order(lena, orderId).text("status")));

            assertThat(api.cancel(lena, orderId).status()).as("cancelled through N. Virginia's API").isEqualTo(200);
            Message cancelled = fix.next(report("Q1", ExecType.CANCELED), Duration.ofSeconds(30));
            assertThat(cancelled.getString(ExecID.FIELD)).as("N. Virginia's cancel, reported by Sydney")
                    .isEqualTo(OrderIds.eventId(UUID.fromString(orderId), OrderStatus.CANCELLED).toString());
            assertThat(fix.drain(Duration.ofSeconds(3))).as("exactly once").noneMatch(report("Q1", ExecType.CANCELED));
        }
    }
}
