package io.geobroker.broker.it;

import io.geobroker.broker.order.OrderIds;
import io.geobroker.domain.Fill;
import io.geobroker.domain.OrderStatus;
import io.geobroker.testsupport.StackContext;
import io.geobroker.testsupport.WithLocalStack;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import quickfix.FieldNotFound;
import quickfix.Message;
import quickfix.field.ClOrdID;
import quickfix.field.ExecID;
import quickfix.field.ExecType;
import quickfix.field.HandlInst;
import quickfix.field.MsgType;
import quickfix.field.OrdType;
import quickfix.field.OrderQty;
import quickfix.field.Price;
import quickfix.field.Side;
import quickfix.field.Symbol;
import quickfix.field.TimeInForce;
import quickfix.field.TransactTime;
import quickfix.fix44.NewOrderSingle;

import java.io.IOException;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A FIX client's fills across a SIGKILL of its broker (the boot jar as its own JVM) in the middle of
 * a stream of tickers: after the restart, with the same message store, the client that reconnects
 * with its sequence numbers has every fill reported exactly once per ExecID. Two more orders are
 * cancelled over REST, one before the kill and one after the restart; while the broker is down its
 * FIX feed's committed offsets are deleted, so the restarted broker reads the fills and the first
 * cancel again: each cancel is still reported exactly once (the ExecIDs read back from the store).
 */
@WithLocalStack
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class FixRestartIT {

    private static final int PORT = 9878;
    private static final int ORDERS = 40;
    private TestStack stack;
    private String address;
    private Path store;
    private BrokerProcess broker;
    private Exchange exchange;

    @BeforeAll
    void start(StackContext context) throws IOException {
        stack = TestStack.of(context);
        address = stack.testAddress(32);
        store = Files.createTempDirectory("fix-restart-store");
        Map<String, Object> fix = new HashMap<>();
        fix.put("geobroker.fix.enabled", "true");
        fix.put("geobroker.fix.port", PORT);
        fix.put("geobroker.fix.store-directory", store.toString());
        broker = new BrokerProcess(stack, "nvirginia", address, Path.of("target", "fix-restart-broker.log"), fix);
        broker.start();
        exchange = new Exchange(stack.kafkaBootstrap("nvirginia"), stack.topics());
    }

    @AfterAll
    void stop() throws Exception {
        if (broker != null) {
            broker.close();
        }
        if (exchange != null) {
            exchange.close();
        }
        try (var files = Files.walk(store)) {
            files.sorted((a, b) -> b.getNameCount() - a.getNameCount()).forEach(p -> p.toFile().delete());
        }
    }

    @Test
    void every_fill_reaches_the_fix_client_exactly_once_across_a_broker_sigkill() throws Exception {
        String token = broker.api.customer("fixr" + UUID.randomUUID().toString().substring(0, 8), 100_000_000);
        String customerId = token.substring(0, token.lastIndexOf('.'));
        List<Message> trades = new ArrayList<>();
        List<Message> cancels = new ArrayList<>();
        int beforeKill;
        try (FixClient fix = new FixClient(address, PORT, customerId, "GEOBROKER", token)) {
            assertThat(fix.awaitLogon(Duration.ofSeconds(30))).isTrue();
            fix.keepSequenceNumbers();
            for (int i = 0; i < ORDERS; i++) {
                fix.send(limit("K" + i));
            }
            Set<String> acked = new HashSet<>();
            while (acked.size() < ORDERS) {
                Message m = fix.next(FixRestartIT::isExecutionReport, Duration.ofSeconds(30));
                assertThat(m.getChar(ExecType.FIELD)).isEqualTo(ExecType.NEW);
                acked.add(m.getString(ClOrdID.FIELD));
            }

            for (String z : List.of("Z0", "Z1")) {
                fix.send(limit(z, "50.00"));
                assertThat(fix.next(FixRestartIT::isExecutionReport, Duration.ofSeconds(30)).getChar(ExecType.FIELD))
                        .isEqualTo(ExecType.NEW);
            }
            assertThat(broker.api.cancel(token, OrderIds.orderId(customerId, "Z0").toString()).status()).isEqualTo(200);
            await("the cancel reported before the kill").atMost(Duration.ofSeconds(30)).until(() -> {
                take(fix.drain(Duration.ofMillis(50)), trades, cancels);
                return !cancels.isEmpty();
            });

            for (int i = 0; i < ORDERS / 2; i++) {
                exchange.tick("META", 10_000, 1);
            }
            await("a first trade reported before the kill").atMost(Duration.ofSeconds(30)).until(() -> {
                take(fix.drain(Duration.ofMillis(50)), trades, cancels);
                return !trades.isEmpty();
            });
            broker.kill();
            beforeKill = distinctExecIds(trades).size();
            try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, stack.kafkaBootstrap("nvirginia")))) {
                admin.deleteConsumerGroups(List.of(stack.topics().prefix() + "geobroker-fix-nvirginia")).all().get();
            }
            for (int i = ORDERS / 2; i < ORDERS; i++) {
                exchange.tick("META", 10_000, 1);
            }
            broker.start();
            assertThat(broker.api.cancel(token, OrderIds.orderId(customerId, "Z1").toString()).status()).isEqualTo(200);

            await().atMost(Duration.ofSeconds(90)).until(() -> {
                take(fix.drain(Duration.ofMillis(200)), trades, cancels);
                return distinctExecIds(trades).size() >= ORDERS && distinctExecIds(cancels).size() >= 2;
            });
            take(fix.drain(Duration.ofSeconds(3)), trades, cancels);
        }

        Set<String> orderIds = new HashSet<>();
        for (int i = 0; i < ORDERS; i++) {
            orderIds.add(OrderIds.orderId(customerId, "K" + i).toString());
        }
        Set<String> published = exchange.fills().stream().filter(f -> orderIds.contains(f.orderId()))
                .map(Fill::fillId).collect(Collectors.toSet());
        List<String> reported = trades.stream().map(FixRestartIT::execId).toList();
        System.out.printf("FIX across SIGKILL: %d trade reports, %d distinct ExecIDs, %d distinct fills on Kafka%n",
                reported.size(), Set.copyOf(reported).size(), published.size());
        assertThat(beforeKill).as("the kill came mid-stream").isBetween(1, ORDERS - 1);
        assertThat(published).as("every order filled once").hasSize(ORDERS);
        assertThat(reported).as("no ExecID reported twice").doesNotHaveDuplicates();
        assertThat(Set.copyOf(reported)).as("every fill reported").isEqualTo(published);
        List<String> cancelled = cancels.stream().map(FixRestartIT::execId).toList();
        System.out.printf("FIX cancels across SIGKILL and a re-read of the order events: %d reports, %d distinct ExecIDs%n",
                cancelled.size(), Set.copyOf(cancelled).size());
        assertThat(cancelled).as("each cancel reported exactly once").containsExactlyInAnyOrder(
                OrderIds.eventId(OrderIds.orderId(customerId, "Z0"), OrderStatus.CANCELLED).toString(),
                OrderIds.eventId(OrderIds.orderId(customerId, "Z1"), OrderStatus.CANCELLED).toString());
    }

    /** Sorts received messages into trade and cancel reports (the rest is not counted). */
    private static void take(List<Message> received, List<Message> trades, List<Message> cancels) {
        for (Message m : received) {
            if (isTrade(m)) {
                trades.add(m);
            } else if (isCancel(m)) {
                cancels.add(m);
            }
        }
    }

    private static boolean isCancel(Message m) {
        try {
            return isExecutionReport(m) && m.getChar(ExecType.FIELD) == ExecType.CANCELED;
        } catch (FieldNotFound e) {
            return false;
        }
    }

    private static NewOrderSingle limit(String clOrdId) {
        return limit(clOrdId, "100.00");
    }

    private static NewOrderSingle limit(String clOrdId, String price) {
        NewOrderSingle o = new NewOrderSingle(new ClOrdID(clOrdId), new Side(Side.BUY),
                new TransactTime(LocalDateTime.now(ZoneOffset.UTC)), new OrdType(OrdType.LIMIT));
        o.set(new Symbol("META"));
        o.setDecimal(OrderQty.FIELD, BigDecimal.ONE);
        o.setDecimal(Price.FIELD, new BigDecimal(price));
        o.set(new TimeInForce(TimeInForce.GOOD_TILL_CANCEL));
        o.set(new HandlInst(HandlInst.AUTOMATED_EXECUTION_ORDER_PRIVATE_NO_BROKER_INTERVENTION));
        return o;
    }

    private static boolean isExecutionReport(Message m) {
        try {
            return MsgType.EXECUTION_REPORT.equals(m.getHeader().getString(MsgType.FIELD));
        } catch (FieldNotFound e) {
            return false;
        }
    }

    private static boolean isTrade(Message m) {
        try {
            return isExecutionReport(m) && m.getChar(ExecType.FIELD) == ExecType.TRADE;
        } catch (FieldNotFound e) {
            return false;
        }
    }

    private static String execId(Message m) {
        try {
            return m.getString(ExecID.FIELD);
        } catch (FieldNotFound e) {
            throw new IllegalStateException(e);
        }
    }

    private static Set<String> distinctExecIds(List<Message> trades) {
        return trades.stream().map(FixRestartIT::execId).collect(Collectors.toSet());
    }
}
