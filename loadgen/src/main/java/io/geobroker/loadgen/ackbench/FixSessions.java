package io.geobroker.loadgen.ackbench;

import io.geobroker.loadgen.driver.Driver;
import quickfix.Application;
import quickfix.ConfigError;
import quickfix.DefaultMessageFactory;
import quickfix.FieldNotFound;
import quickfix.Log;
import quickfix.MemoryStoreFactory;
import quickfix.Message;
import quickfix.SessionID;
import quickfix.SessionSettings;
import quickfix.SocketInitiator;
import quickfix.field.ClOrdID;
import quickfix.field.ExecType;
import quickfix.field.MsgType;
import quickfix.field.Password;
import quickfix.field.Text;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.LongAdder;

/**
 * The FIX sessions of a benchmark: one QuickFIX/J initiator session per client to the broker's FIX
 * acceptor, FIX 4.4, SenderCompID = the customer id, TargetCompID {@value #TARGET_COMP_ID}, the
 * customer's token as the Logon's Password(554), ResetSeqNumFlag(141)=Y on every logon, HeartBtInt
 * 30. Sequence numbers live in memory only: each run starts them afresh, and nothing needs
 * resending across runs. One QuickFIX/J thread handles every session's incoming messages and hands
 * each ack to the client thread waiting for it.
 */
final class FixSessions implements Application, AutoCloseable {

    static final String TARGET_COMP_ID = "GEOBROKER";
    static final int HEARTBEAT_SECONDS = 30;

    /**
     * The sessions' log: none. Without a log factory QuickFIX/J prints every message on the console,
     * which would cost the load generator CPU per order that the system under test shares.
     */
    private static final Log SILENT = new Log() {
        @Override
        public void clear() {
        }

        @Override
        public void onIncoming(String message) {
        }

        @Override
        public void onOutgoing(String message) {
        }

        @Override
        public void onEvent(String text) {
        }

        @Override
        public void onErrorEvent(String text) {
        }
    };

    private final Map<SessionID, FixOrderEntry> clients = new LinkedHashMap<>();
    private final LongAdder fills = new LongAdder();
    private final SocketInitiator initiator;
    private final String address;

    private FixSessions(String host, int port, List<Driver.Customer> customers, Duration ackTimeout) throws ConfigError {
        this.address = host + ":" + port;
        SessionSettings settings = new SessionSettings();
        for (Driver.Customer c : customers) {
            SessionID id = new SessionID("FIX.4.4", c.id(), TARGET_COMP_ID);
            clients.put(id, new FixOrderEntry(id, c.token(), ackTimeout));
            settings(settings, id, host, port);
        }
        initiator = new SocketInitiator(this, new MemoryStoreFactory(), settings, sessionId -> SILENT,
                new DefaultMessageFactory());
    }

    /** A session's settings: where to connect, fresh sequence numbers at each logon, lenient about the broker's messages. */
    static void settings(SessionSettings settings, SessionID id, String host, int port) {
        settings.setString(id, "ConnectionType", "initiator");
        settings.setString(id, "SocketConnectHost", host);
        settings.setLong(id, "SocketConnectPort", port);
        settings.setLong(id, "HeartBtInt", HEARTBEAT_SECONDS);
        settings.setLong(id, "ReconnectInterval", 2);
        settings.setString(id, "NonStopSession", "Y");
        settings.setString(id, "ResetOnLogon", "Y");
        settings.setLong(id, "LogonTimeout", 10);
        // The benchmark reads ClOrdID, ExecType and Text of what comes back; it does not judge the
        // rest of the broker's messages (that is the broker's own tests' work), nor keep what it sent.
        settings.setString(id, "UseDataDictionary", "N");
        settings.setString(id, "PersistMessages", "N");
        settings.setString(id, "CheckLatency", "N");
    }

    /**
     * Connects and logs on one session per customer to {@code host:port}; returns once every one is
     * logged on, or fails naming the sessions that were not within {@code timeout} and why.
     */
    static FixSessions logOn(String host, int port, List<Driver.Customer> customers, Duration ackTimeout, Duration timeout)
            throws InterruptedException {
        FixSessions sessions;
        try {
            sessions = new FixSessions(host, port, customers, ackTimeout);
            sessions.initiator.start();
        } catch (ConfigError e) {
            throw new IllegalStateException("FIX initiator settings: " + e.getMessage(), e);
        }
        long deadline = System.nanoTime() + timeout.toNanos();
        List<String> failed = new ArrayList<>();
        for (FixOrderEntry client : sessions.clients.values()) {
            if (!client.awaitLogon(deadline)) {
                failed.add(client.sessionId().getSenderCompID()
                        + (client.logoutText().isEmpty() ? "" : " (" + client.logoutText() + ")"));
            }
        }
        if (!failed.isEmpty()) {
            sessions.close();
            throw new IllegalStateException(failed.size() + " of " + customers.size() + " FIX sessions to " + sessions.address
                    + " not logged on within " + timeout.toSeconds() + " s: " + String.join(", ", failed.subList(0,
                    Math.min(3, failed.size()))) + (failed.size() > 3 ? ", ..." : "")
                    + " (is the broker's FIX acceptor on that port? --fix-port)");
        }
        return sessions;
    }

    /** The clients' order entries, in the customers' order. */
    List<OrderEntry> entries() {
        return List.copyOf(clients.values());
    }

    /** ExecutionReports with ExecType Trade (F) received so far, over all sessions. */
    long fills() {
        return fills.sum();
    }

    String address() {
        return address;
    }

    @Override
    public void onCreate(SessionID sessionId) {
    }

    @Override
    public void onLogon(SessionID sessionId) {
        FixOrderEntry client = clients.get(sessionId);
        if (client != null) {
            client.loggedOn();
        }
    }

    @Override
    public void onLogout(SessionID sessionId) {
        FixOrderEntry client = clients.get(sessionId);
        if (client != null) {
            client.loggedOut();
        }
    }

    @Override
    public void toAdmin(Message message, SessionID sessionId) {
        FixOrderEntry client = clients.get(sessionId);
        if (client != null && MsgType.LOGON.equals(msgType(message))) {
            message.setString(Password.FIELD, client.token());
        }
    }

    @Override
    public void fromAdmin(Message message, SessionID sessionId) {
        FixOrderEntry client = clients.get(sessionId);
        if (client == null) {
            return;
        }
        String type = msgType(message);
        if (MsgType.LOGOUT.equals(type)) {
            client.logout(text(message));
        } else if (MsgType.REJECT.equals(type)) {
            client.rejectedMessage("session-reject: " + text(message));
        }
    }

    @Override
    public void toApp(Message message, SessionID sessionId) {
    }

    @Override
    public void fromApp(Message message, SessionID sessionId) throws FieldNotFound {
        FixOrderEntry client = clients.get(sessionId);
        if (client == null) {
            return;
        }
        String type = msgType(message);
        if (MsgType.EXECUTION_REPORT.equals(type)) {
            char execType = message.getChar(ExecType.FIELD);
            if (execType == ExecType.TRADE) {
                fills.increment();
            }
            if (message.isSetField(ClOrdID.FIELD)) {
                client.executionReport(message.getString(ClOrdID.FIELD), execType, text(message));
            }
        } else if (MsgType.BUSINESS_MESSAGE_REJECT.equals(type)) {
            client.rejectedMessage("business-reject: " + text(message));
        }
    }

    private static String msgType(Message message) {
        try {
            return message.getHeader().getString(MsgType.FIELD);
        } catch (FieldNotFound e) {
            return "";
        }
    }

    private static String text(Message message) {
        try {
            return message.isSetField(Text.FIELD) ? message.getString(Text.FIELD) : "";
        } catch (FieldNotFound e) {
            return "";
        }
    }

    /** Logs every session out (waiting briefly for the broker's Logout) and closes the connections. */
    @Override
    public void close() {
        initiator.stop();
    }
}
