package io.geobroker.loadgen.ackbench;

import quickfix.Message;
import quickfix.Session;
import quickfix.SessionID;
import quickfix.field.ClOrdID;
import quickfix.field.ExecType;
import quickfix.field.OrdType;
import quickfix.field.OrderQty;
import quickfix.field.Price;
import quickfix.field.Side;
import quickfix.field.Symbol;
import quickfix.field.TimeInForce;
import quickfix.field.TransactTime;
import quickfix.fix44.NewOrderSingle;

import java.math.BigDecimal;
import java.time.Duration;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * FIX order entry of one client: its own session (SenderCompID = the customer id). {@link #place}
 * sends a NewOrderSingle and waits for the first ExecutionReport carrying its ClOrdID, which the
 * session's callbacks ({@link FixSessions}) hand over from QuickFIX/J's thread.
 */
final class FixOrderEntry implements OrderEntry {

    /** The order waiting for its ack (at most one: the client sends its next order only after it). */
    private record Pending(String clientOrderId, CompletableFuture<Ack> ack) {
    }

    private final SessionID sessionId;
    private final String token;
    private final Duration ackTimeout;
    private final CountDownLatch loggedOn = new CountDownLatch(1);
    private volatile Session session;
    private volatile Pending pending;
    private volatile String logoutText = "";

    FixOrderEntry(SessionID sessionId, String token, Duration ackTimeout) {
        this.sessionId = sessionId;
        this.token = token;
        this.ackTimeout = ackTimeout;
    }

    SessionID sessionId() {
        return sessionId;
    }

    /** The customer's bearer token, the Logon's Password(554). */
    String token() {
        return token;
    }

    @Override
    public Ack place(BenchOrder order) throws InterruptedException {
        Message message = newOrderSingle(order, LocalDateTime.now(ZoneOffset.UTC));
        Pending p = new Pending(order.clientOrderId(), new CompletableFuture<>());
        pending = p;
        try {
            Session s = session;
            if (s == null || !s.send(message)) {
                return Ack.error("not-logged-on");
            }
            return p.ack().get(ackTimeout.toNanos(), TimeUnit.NANOSECONDS);
        } catch (TimeoutException e) {
            return Ack.error("timeout");
        } catch (ExecutionException e) {
            return Ack.error(e.getCause().getClass().getSimpleName());
        } finally {
            pending = null;
        }
    }

    /**
     * The FIX 4.4 NewOrderSingle of a benchmark order: ClOrdID, Symbol, Side buy, TransactTime,
     * OrderQty, OrdType limit, Price as a decimal of the currency's major unit, TimeInForce DAY.
     */
    static NewOrderSingle newOrderSingle(BenchOrder order, LocalDateTime transactTime) {
        NewOrderSingle m = new NewOrderSingle();
        m.setString(ClOrdID.FIELD, order.clientOrderId());
        m.setString(Symbol.FIELD, order.symbol());
        m.setChar(Side.FIELD, Side.BUY);
        m.setUtcTimeStamp(TransactTime.FIELD, transactTime, true);
        m.setDecimal(OrderQty.FIELD, BigDecimal.valueOf(BenchOrder.QUANTITY));
        m.setChar(OrdType.FIELD, OrdType.LIMIT);
        m.setDecimal(Price.FIELD, DecimalPrice.toDecimal(order.limitPrice(), order.minorDigits()));
        m.setChar(TimeInForce.FIELD, TimeInForce.DAY);
        return m;
    }

    /**
     * The ack an ExecutionReport's ExecType stands for: Rejected (8) is a reject with its Text(58);
     * anything else (New, Pending New for another region's symbol, even an immediate fill) accepts.
     */
    static Ack ack(char execType, String text) {
        return execType == ExecType.REJECTED ? Ack.rejected(text.isEmpty() ? "rejected" : text) : Ack.ACCEPTED;
    }

    void loggedOn() {
        session = Session.lookupSession(sessionId);
        loggedOn.countDown();
    }

    boolean awaitLogon(long deadlineNanos) throws InterruptedException {
        return loggedOn.await(Math.max(0, deadlineNanos - System.nanoTime()), TimeUnit.NANOSECONDS);
    }

    /** An ExecutionReport: the ack if it carries the pending order's ClOrdID (later reports are not acks). */
    void executionReport(String clientOrderId, char execType, String text) {
        Pending p = pending;
        if (p != null && p.clientOrderId().equals(clientOrderId)) {
            p.ack().complete(ack(execType, text));
        }
    }

    /** A session-level Reject(3) or BusinessMessageReject(j): it can only be about the pending order. */
    void rejectedMessage(String what) {
        Pending p = pending;
        if (p != null) {
            p.ack().complete(Ack.error(what));
        }
    }

    void logout(String text) {
        if (text != null && !text.isEmpty()) {
            logoutText = text;
        }
    }

    void loggedOut() {
        Pending p = pending;
        if (p != null) {
            p.ack().complete(Ack.error("logged-out"));
        }
    }

    /** The Text(58) of the broker's last Logout, e.g. why it refused the logon; empty if none. */
    String logoutText() {
        return logoutText;
    }
}
