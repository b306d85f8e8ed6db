package io.geobroker.broker.fix;

import quickfix.ApplicationAdapter;
import quickfix.ConfigError;
import quickfix.DefaultMessageFactory;
import quickfix.FieldNotFound;
import quickfix.FileStoreFactory;
import quickfix.Message;
import quickfix.MessageFactory;
import quickfix.MessageStoreFactory;
import quickfix.Session;
import quickfix.SessionID;
import quickfix.SessionNotFound;
import quickfix.SessionSettings;
import quickfix.ThreadedSocketAcceptor;
import quickfix.UnsupportedMessageType;
import quickfix.field.AvgPx;
import quickfix.field.CumQty;
import quickfix.field.ExecID;
import quickfix.field.ExecType;
import quickfix.field.LeavesQty;
import quickfix.field.OrdStatus;
import quickfix.field.OrderID;
import quickfix.field.TransactTime;
import quickfix.fix44.ExecutionReport;
import quickfix.fix44.NewOrderSingle;
import quickfix.mina.acceptor.DynamicAcceptorSessionProvider;

import java.io.IOException;
import java.math.BigDecimal;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;

/**
 * The FIX floor: the broker's FIX 4.4 acceptor as QuickFIX/J runs it, with nothing behind it. The
 * same session settings ({@link FixAcceptor#sessionSettings}: dynamic sessions, a file store written
 * through for every message, the FIX 4.4 data dictionary), the same event log, one thread per
 * session; every NewOrderSingle is answered at once with an ExecutionReport NEW carrying the fields
 * the broker's own ack carries. Nothing is matched, reserved, written to Cassandra or published, and
 * any Logon is accepted.
 *
 * <p>{@code ack-bench --floor} runs it as a process of its own and measures it with its FIX clients:
 * what the protocol and its library cost per order on a machine, the least any durable
 * acknowledgement there can cost, beside the broker's rounds. Started from the broker's jar:
 * <pre>
 * java -cp broker-service.jar -Dloader.main=io.geobroker.broker.fix.FixFloor \
 *      org.springframework.boot.loader.launch.PropertiesLauncher ADDRESS PORT STORE_DIR [sync]
 * </pre>
 * It prints {@value #LISTENING} and the address once it accepts, and runs until it is stopped.
 */
public final class FixFloor extends ApplicationAdapter {

    /** The first words of the line printed once the acceptor listens. */
    public static final String LISTENING = "FIX floor listening on";

    private final MessageFactory messages = new DefaultMessageFactory();

    public static void main(String[] args) throws Exception {
        if (args.length < 3 || args.length > 4 || (args.length == 4 && !args[3].equals("sync"))) {
            System.err.println("usage: FixFloor ADDRESS PORT STORE_DIR [sync]");
            System.exit(2);
        }
        String address = args[0];
        int port = Integer.parseInt(args[1]);
        Path store = Path.of(args[2]).toAbsolutePath();
        ThreadedSocketAcceptor acceptor = start(address, port, store, args.length == 4);
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            acceptor.stop(true);
            stopped.countDown();
        }, "fix-floor-stop"));
        System.out.println(LISTENING + " " + address + ":" + port + " (store " + store + ")");
        stopped.await();
    }

    /** Starts the floor's acceptor on {@code address:port}, its sessions' files under {@code store}. */
    public static ThreadedSocketAcceptor start(String address, int port, Path store, boolean storeSync)
            throws ConfigError, IOException {
        Files.createDirectories(store);
        SessionID template = new SessionID("FIX.4.4", "GEOBROKER", DynamicAcceptorSessionProvider.WILDCARD);
        SessionSettings settings = FixAcceptor.sessionSettings(template, store, address, port, storeSync);
        MessageStoreFactory storeFactory = new FileStoreFactory(settings);
        FixEventLog log = new FixEventLog();
        FixFloor floor = new FixFloor();
        ThreadedSocketAcceptor acceptor = new ThreadedSocketAcceptor(floor, storeFactory, settings, log, floor.messages);
        acceptor.setSessionProvider(new InetSocketAddress(address, port),
                new DynamicAcceptorSessionProvider(settings, template, floor, storeFactory, log, floor.messages));
        acceptor.start();
        return acceptor;
    }

    /** The ack the broker sends for a resting order, built from the order as it came. */
    static ExecutionReport ack(NewOrderSingle order) throws FieldNotFound {
        ExecutionReport r = new ExecutionReport(new OrderID(UUID.randomUUID().toString()),
                new ExecID(UUID.randomUUID().toString()), new ExecType(ExecType.NEW), new OrdStatus(OrdStatus.NEW),
                order.getSide(), new LeavesQty(0), new CumQty(0), new AvgPx(0));
        r.setDecimal(LeavesQty.FIELD, order.getDecimal(quickfix.field.OrderQty.FIELD));
        r.setDecimal(CumQty.FIELD, BigDecimal.ZERO);
        r.setDecimal(AvgPx.FIELD, BigDecimal.ZERO);
        r.set(order.getClOrdID());
        r.set(order.getSymbol());
        r.set(order.getOrdType());
        r.setDecimal(quickfix.field.OrderQty.FIELD, order.getDecimal(quickfix.field.OrderQty.FIELD));
        if (order.isSetPrice()) {
            r.setDecimal(quickfix.field.Price.FIELD, order.getDecimal(quickfix.field.Price.FIELD));
        }
        if (order.isSetTimeInForce()) {
            r.set(order.getTimeInForce());
        }
        r.set(new TransactTime(LocalDateTime.now(ZoneOffset.UTC)));
        return r;
    }

    @Override
    public void fromApp(Message message, SessionID sessionId) throws FieldNotFound, UnsupportedMessageType {
        if (!(message instanceof NewOrderSingle order)) {
            throw new UnsupportedMessageType();
        }
        try {
            Session.sendToTarget(ack(order), sessionId);
        } catch (SessionNotFound e) {
            // The session logged out while its order was read: nothing to answer.
        }
    }
}
