package io.geobroker.broker.it;

import quickfix.Application;
import quickfix.DefaultMessageFactory;
import quickfix.FieldNotFound;
import quickfix.Log;
import quickfix.MemoryStoreFactory;
import quickfix.Message;
import quickfix.Session;
import quickfix.SessionID;
import quickfix.SessionSettings;
import quickfix.SocketInitiator;
import quickfix.field.MsgType;
import quickfix.field.Password;
import quickfix.field.ResetSeqNumFlag;
import quickfix.field.Text;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

/**
 * A customer's FIX 4.4 session with a broker, as a real client would run it: a QuickFIX/J
 * initiator (memory store, so sequence numbers live as long as this object). Application messages
 * and rejects the broker sends are queued for the test; the Logon carries the token as Password(554).
 */
final class FixClient implements AutoCloseable {

    private final SocketInitiator initiator;
    private final SessionID sessionId;
    private final BlockingQueue<Message> received = new LinkedBlockingQueue<>();
    private final List<String> logoutTexts = new ArrayList<>();
    private volatile boolean resetOnLogon = true;

    FixClient(String host, int port, String customerId, String targetCompId, String token) throws Exception {
        sessionId = new SessionID("FIX.4.4", customerId, targetCompId);
        SessionSettings s = new SessionSettings();
        s.setString("ConnectionType", "initiator");
        s.setString(sessionId, "SocketConnectHost", host);
        s.setLong(sessionId, "SocketConnectPort", port);
        s.setLong(sessionId, "HeartBtInt", 30);
        s.setLong(sessionId, "ReconnectInterval", 1);
        s.setString(sessionId, "NonStopSession", "Y");
        s.setString(sessionId, "UseDataDictionary", "Y");
        s.setString(sessionId, "DataDictionary", "FIX44.xml");
        s.setString(sessionId, "ValidateUserDefinedFields", "N");
        Application app = new Application() {
            public void onCreate(SessionID id) {
            }

            public void onLogon(SessionID id) {
            }

            public void onLogout(SessionID id) {
            }

            public void toAdmin(Message m, SessionID id) {
                try {
                    if (MsgType.LOGON.equals(m.getHeader().getString(MsgType.FIELD))) {
                        m.setString(Password.FIELD, token);
                        if (resetOnLogon) {
                            m.setBoolean(ResetSeqNumFlag.FIELD, true);
                        }
                    }
                } catch (FieldNotFound e) {
                    throw new IllegalStateException(e);
                }
            }

            public void fromAdmin(Message m, SessionID id) throws FieldNotFound {
                String type = m.getHeader().getString(MsgType.FIELD);
                if (MsgType.LOGOUT.equals(type)) {
                    synchronized (logoutTexts) {
                        logoutTexts.add(m.isSetField(Text.FIELD) ? m.getString(Text.FIELD) : "");
                    }
                } else if (MsgType.REJECT.equals(type)) {
                    received.add(m);
                }
            }

            public void toApp(Message m, SessionID id) {
            }

            public void fromApp(Message m, SessionID id) {
                received.add(m);
            }
        };
        initiator = new SocketInitiator(app, new MemoryStoreFactory(), s, id -> new EventsOnly(customerId),
                new DefaultMessageFactory());
        initiator.start();
    }

    /** The session's events on standard output; never the messages (a Logon carries the token). */
    private record EventsOnly(String who) implements Log {
        public void clear() {
        }

        public void onIncoming(String message) {
        }

        public void onOutgoing(String message) {
        }

        public void onEvent(String text) {
            System.out.println("FIX client " + who + ": " + text);
        }

        public void onErrorEvent(String text) {
            System.out.println("FIX client " + who + " error: " + text);
        }
    }

    Session session() {
        return Session.lookupSession(sessionId);
    }

    /** After the first Logon, keep sequence numbers on later ones (a reconnect that asks for what it missed). */
    void keepSequenceNumbers() {
        resetOnLogon = false;
    }

    boolean awaitLogon(Duration within) throws InterruptedException {
        long until = System.nanoTime() + within.toNanos();
        while (System.nanoTime() < until) {
            if (session() != null && session().isLoggedOn()) {
                return true;
            }
            Thread.sleep(20);
        }
        return false;
    }

    List<String> logoutTexts() {
        synchronized (logoutTexts) {
            return List.copyOf(logoutTexts);
        }
    }

    void send(Message m) {
        if (!session().send(m)) {
            throw new IllegalStateException("not logged on");
        }
    }

    /** The next received message that matches, dropping the ones before it; fails after {@code within}. */
    Message next(Predicate<Message> matching, Duration within) throws InterruptedException {
        long until = System.nanoTime() + within.toNanos();
        while (true) {
            long left = until - System.nanoTime();
            Message m = left > 0 ? received.poll(left, TimeUnit.NANOSECONDS) : null;
            if (m == null) {
                throw new AssertionError("no matching FIX message within " + within);
            }
            if (matching.test(m)) {
                return m;
            }
        }
    }

    /** Every message received so far and within {@code quiet} more, in order. */
    List<Message> drain(Duration quiet) throws InterruptedException {
        List<Message> all = new ArrayList<>();
        Message m;
        while ((m = received.poll(quiet.toMillis(), TimeUnit.MILLISECONDS)) != null) {
            all.add(m);
        }
        return all;
    }

    void logout() {
        session().logout("test");
    }

    void logon() {
        session().logon();
    }

    @Override
    public void close() {
        initiator.stop(true);
    }
}
