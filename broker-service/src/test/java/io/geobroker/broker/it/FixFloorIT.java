package io.geobroker.broker.it;

import io.geobroker.broker.fix.FixFloor;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import quickfix.Message;
import quickfix.ThreadedSocketAcceptor;
import quickfix.field.ClOrdID;
import quickfix.field.CumQty;
import quickfix.field.ExecType;
import quickfix.field.HandlInst;
import quickfix.field.LeavesQty;
import quickfix.field.MsgType;
import quickfix.field.OrdStatus;
import quickfix.field.OrdType;
import quickfix.field.OrderQty;
import quickfix.field.Price;
import quickfix.field.RefMsgType;
import quickfix.field.Side;
import quickfix.field.Symbol;
import quickfix.field.TimeInForce;
import quickfix.field.TransactTime;
import quickfix.fix44.NewOrderSingle;
import quickfix.fix44.OrderStatusRequest;

import java.io.IOException;
import java.math.BigDecimal;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The FIX floor ({@code ack-bench --floor}'s acceptor) on a real socket with a QuickFIX/J initiator:
 * it answers each NewOrderSingle at once with an ack that carries the order back, writes its
 * sessions' messages through to its store as the broker's acceptor does, and rejects what it does
 * not serve without ending the session. No Cassandra or Kafka: the floor has nothing behind it.
 */
class FixFloorIT {

    private static final Duration WAIT = Duration.ofSeconds(10);

    @Test
    void acks_each_order_at_once_with_the_order_carried_back(@TempDir Path store) throws Exception {
        int port = freePort();
        ThreadedSocketAcceptor floor = FixFloor.start("127.0.0.1", port, store, false);
        try (FixClient client = new FixClient("127.0.0.1", port, "floor-customer-1", "GEOBROKER", "any token")) {
            assertThat(client.awaitLogon(WAIT)).isTrue();
            for (int i = 1; i <= 3; i++) {
                client.send(order("floor-" + i, 10 * i, "12.34"));
                Message ack = client.next(m -> isType(m, MsgType.EXECUTION_REPORT), WAIT);
                assertThat(ack.getString(ClOrdID.FIELD)).isEqualTo("floor-" + i);
                assertThat(ack.getChar(ExecType.FIELD)).isEqualTo(ExecType.NEW);
                assertThat(ack.getChar(OrdStatus.FIELD)).isEqualTo(OrdStatus.NEW);
                assertThat(ack.getDecimal(LeavesQty.FIELD)).isEqualByComparingTo(BigDecimal.valueOf(10L * i));
                assertThat(ack.getDecimal(CumQty.FIELD)).isEqualByComparingTo(BigDecimal.ZERO);
                assertThat(ack.getDecimal(Price.FIELD)).isEqualByComparingTo("12.34");
                assertThat(ack.getString(Symbol.FIELD)).isEqualTo("AAPL");
            }

            OrderStatusRequest status = new OrderStatusRequest(new ClOrdID("floor-1"), new Side(Side.BUY));
            status.set(new Symbol("AAPL"));
            client.send(status);
            Message reject = client.next(m -> isType(m, MsgType.BUSINESS_MESSAGE_REJECT), WAIT);
            assertThat(reject.getString(RefMsgType.FIELD)).isEqualTo(MsgType.ORDER_STATUS_REQUEST);

            client.send(order("floor-4", 5, "1.00"));
            assertThat(client.next(m -> isType(m, MsgType.EXECUTION_REPORT), WAIT).getString(ClOrdID.FIELD))
                    .isEqualTo("floor-4");
        } finally {
            floor.stop(true);
        }
        try (Stream<Path> files = Files.list(store)) {
            assertThat(files.map(p -> p.getFileName().toString()))
                    .anyMatch(name -> name.contains("floor-customer-1") && name.endsWith(".body"));
        }
    }

    private static NewOrderSingle order(String clOrdId, long quantity, String price) {
        NewOrderSingle o = new NewOrderSingle(new ClOrdID(clOrdId), new Side(Side.BUY),
                new TransactTime(LocalDateTime.now(ZoneOffset.UTC)), new OrdType(OrdType.LIMIT));
        o.set(new HandlInst(HandlInst.AUTOMATED_EXECUTION_ORDER_PRIVATE_NO_BROKER_INTERVENTION));
        o.set(new Symbol("AAPL"));
        o.setDecimal(OrderQty.FIELD, BigDecimal.valueOf(quantity));
        o.setDecimal(Price.FIELD, new BigDecimal(price));
        o.set(new TimeInForce(TimeInForce.DAY));
        return o;
    }

    private static boolean isType(Message m, String type) {
        try {
            return m.getHeader().getString(MsgType.FIELD).equals(type);
        } catch (quickfix.FieldNotFound e) {
            return false;
        }
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }
}
