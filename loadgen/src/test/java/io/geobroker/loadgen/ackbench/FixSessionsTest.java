package io.geobroker.loadgen.ackbench;

import io.geobroker.loadgen.driver.Driver;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import quickfix.Application;
import quickfix.DefaultMessageFactory;
import quickfix.FieldNotFound;
import quickfix.MemoryStoreFactory;
import quickfix.Message;
import quickfix.RejectLogon;
import quickfix.Session;
import quickfix.SessionID;
import quickfix.SessionSettings;
import quickfix.SocketAcceptor;
import quickfix.field.ExecType;
import quickfix.field.MsgType;
import quickfix.fix44.ExecutionReport;

import java.io.IOException;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The FIX client against a small QuickFIX/J acceptor on loopback that plays the broker's contract:
 * logon with the token as Password, a New (or, for symbol {@code BAD}, a Rejected) report per
 * order, then a fill for symbol {@code FILL}.
 */
class FixSessionsTest {

    private static final Map<String, String> TOKENS = Map.of("c-0", "token-0", "c-1", "token-1", "c-2", "token-2");

    /** What the acceptor saw: per customer, the last logon's ResetSeqNumFlag and NewOrderSingle prices. */
    private final Map<String, String> resetFlags = new ConcurrentHashMap<>();
    private final Map<String, String> prices = new ConcurrentHashMap<>();
    private SocketAcceptor acceptor;
    private int port;

    @BeforeEach
    void startAcceptor() throws Exception {
        try (ServerSocket probe = new ServerSocket(0)) {
            port = probe.getLocalPort();
        }
        SessionSettings settings = new SessionSettings();
        for (String customer : TOKENS.keySet()) {
            SessionID id = new SessionID("FIX.4.4", FixSessions.TARGET_COMP_ID, customer);
            settings.setString(id, "ConnectionType", "acceptor");
            settings.setString(id, "SocketAcceptAddress", "127.0.0.1");
            settings.setLong(id, "SocketAcceptPort", port);
            settings.setString(id, "NonStopSession", "Y");
            settings.setString(id, "UseDataDictionary", "N");
        }
        acceptor = new SocketAcceptor(new Broker(), new MemoryStoreFactory(), settings, new DefaultMessageFactory());
        acceptor.start();
    }

    @AfterEach
    void stopAcceptor() {
        acceptor.stop(true);
    }

    private final class Broker implements Application {
        @Override
        public void fromAdmin(Message message, SessionID id) throws FieldNotFound, RejectLogon {
            if (MsgType.LOGON.equals(message.getHeader().getString(MsgType.FIELD))) {
                String customer = id.getTargetCompID();
                if (!message.isSetField(554) || !TOKENS.get(customer).equals(message.getString(554))) {
                    throw new RejectLogon("bad token for " + customer);
                }
                resetFlags.put(customer, message.isSetField(141) ? message.getString(141) : "");
            }
        }

        @Override
        public void fromApp(Message message, SessionID id) throws FieldNotFound {
            String clOrdId = message.getString(11);
            String symbol = message.getString(55);
            prices.put(id.getTargetCompID(), message.getString(44));
            boolean bad = symbol.equals("BAD");
            send(report(clOrdId, bad ? ExecType.REJECTED : ExecType.NEW, bad ? "unknown symbol BAD" : null), id);
            if (symbol.equals("FILL")) {
                send(report(clOrdId, ExecType.TRADE, null), id);
            }
        }

        private ExecutionReport report(String clOrdId, char execType, String text) {
            ExecutionReport er = new ExecutionReport();
            er.setString(37, "o-" + clOrdId);
            er.setString(17, "e-" + clOrdId + "-" + execType);
            er.setString(11, clOrdId);
            er.setChar(150, execType);
            er.setChar(39, execType == ExecType.TRADE ? '2' : execType);
            if (text != null) {
                er.setString(58, text);
            }
            return er;
        }

        private void send(Message m, SessionID id) {
            Session.lookupSession(id).send(m);
        }

        @Override
        public void onCreate(SessionID id) {
        }

        @Override
        public void onLogon(SessionID id) {
        }

        @Override
        public void onLogout(SessionID id) {
        }

        @Override
        public void toAdmin(Message message, SessionID id) {
        }

        @Override
        public void toApp(Message message, SessionID id) {
        }
    }

    private static Driver.Customer customer(String id, String token) {
        return new Driver.Customer(id, token, null);
    }

    @Test
    void each_client_logs_on_with_its_token_and_gets_its_acks_and_fills() throws Exception {
        List<Driver.Customer> customers = List.of(customer("c-0", "token-0"), customer("c-1", "token-1"));
        try (FixSessions sessions = FixSessions.logOn("127.0.0.1", port, customers, Duration.ofSeconds(5), Duration.ofSeconds(20))) {
            assertThat(resetFlags).containsEntry("c-0", "Y").containsEntry("c-1", "Y");
            List<OrderEntry> entries = sessions.entries();

            assertThat(entries.get(0).place(new BenchOrder("a-1", "AAPL", 19_025, 2))).isEqualTo(Ack.ACCEPTED);
            assertThat(prices).containsEntry("c-0", "190.25");
            Ack rejected = entries.get(1).place(new BenchOrder("b-1", "BAD", 100, 2));
            assertThat(rejected).isEqualTo(Ack.rejected("unknown symbol BAD"));
            long fillsBefore = sessions.fills();
            assertThat(entries.get(1).place(new BenchOrder("b-2", "FILL", 100, 2))).isEqualTo(Ack.ACCEPTED);

            RoundResult round = ClosedLoop.run(entries, 25, (c, i) -> new BenchOrder("r-" + c + "-" + i, "MSFT", 20_750, 2),
                    Duration.ofSeconds(30), Duration.ofSeconds(5), sessions::fills, List.of());
            assertThat(round.accepted()).isEqualTo(50);
            assertThat(round.errors()).isZero();
            assertThat(round.latency().count()).isEqualTo(50);
            assertThat(prices).containsEntry("c-1", "207.50");
            org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(5))
                    .untilAsserted(() -> assertThat(sessions.fills()).isEqualTo(fillsBefore + 1));
        }
    }

    @Test
    void a_refused_logon_fails_with_the_brokers_reason() {
        List<Driver.Customer> customers = List.of(customer("c-2", "wrong"));
        assertThatThrownBy(() -> FixSessions.logOn("127.0.0.1", port, customers, Duration.ofSeconds(5), Duration.ofSeconds(3)))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("1 of 1 FIX sessions to 127.0.0.1:" + port + " not logged on")
                .hasMessageContaining("c-2 (bad token for c-2)");
    }

    @Test
    void no_acceptor_on_the_port_fails_within_the_timeout() throws IOException {
        int closed;
        try (ServerSocket probe = new ServerSocket(0)) {
            closed = probe.getLocalPort();
        }
        long start = System.nanoTime();
        assertThatThrownBy(() -> FixSessions.logOn("127.0.0.1", closed, List.of(customer("c-0", "token-0")),
                Duration.ofSeconds(5), Duration.ofSeconds(2)))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("--fix-port");
        assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(15));
    }
}
