package io.geobroker.broker.fix;

import io.geobroker.broker.config.BrokerProperties;
import io.geobroker.broker.order.OrderService;
import io.geobroker.broker.security.TokenAuthenticator;
import io.geobroker.domain.SymbolDirectory;
import io.geobroker.domain.Topics;
import io.geobroker.domain.Topology;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.actuate.health.Health;
import org.springframework.context.SmartLifecycle;
import org.springframework.stereotype.Component;
import quickfix.ConfigError;
import quickfix.DefaultMessageFactory;
import quickfix.FileStoreFactory;
import quickfix.LogFactory;
import quickfix.MessageFactory;
import quickfix.MessageStoreFactory;
import quickfix.Session;
import quickfix.SessionID;
import quickfix.SessionSettings;
import quickfix.ThreadedSocketAcceptor;
import quickfix.mina.acceptor.DynamicAcceptorSessionProvider;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The broker's FIX 4.4 acceptor: one session per customer (SenderCompID = customer id,
 * TargetCompID = {@code geobroker.fix.comp-id}), created when the customer first logs on, on the HTTP
 * listener's bind address and {@code geobroker.fix.port}. Sequence numbers and sent messages are
 * written through to {@code geobroker.fix.store-directory}, which must outlive the process.
 */
@Component
public class FixAcceptor implements SmartLifecycle {

    private static final Logger log = LoggerFactory.getLogger(FixAcceptor.class);

    private final BrokerProperties.Fix config;
    private final String bindAddress;
    private final OrderService orders;
    private final TokenAuthenticator tokens;
    private final SymbolDirectory directory;
    private final Topology topology;
    private final Topics topics;
    private final String region;
    private ThreadedSocketAcceptor acceptor;
    private FixSessions sessions;
    private FixFillFeed feed;
    private volatile boolean running;
    private volatile State state = State.STARTING;
    private volatile String failure;

    private enum State { STARTING, LISTENING, DISABLED, FAILED }

    public FixAcceptor(BrokerProperties properties, @Value("${server.address:0.0.0.0}") String bindAddress,
                       OrderService orders, TokenAuthenticator tokens, SymbolDirectory directory, Topology topology,
                       Topics topics) {
        this.config = properties.fix();
        this.bindAddress = bindAddress;
        this.orders = orders;
        this.tokens = tokens;
        this.directory = directory;
        this.topology = topology;
        this.topics = topics;
        this.region = properties.region();
    }

    /**
     * Starts the acceptor on its own thread, off the broker's way to being ready for REST: FIX 4.4's
     * classes take about 2 s of a start to load (most of it the JVM verifying the message factory),
     * and a FIX port that cannot be opened no longer keeps the broker from serving REST. Until the
     * acceptor listens, and for good if it could not start, {@link #health} is DOWN. Orders that
     * arrive before the engine has rebuilt its state wait for it, as REST's do.
     */
    @Override
    public synchronized void start() {
        running = true;
        if (!config.enabled()) {
            state = State.DISABLED;
            return;
        }
        Thread starter = new Thread(this::startWhileRunning, "fix-start");
        starter.setDaemon(true);
        starter.start();
    }

    private synchronized void startWhileRunning() {
        if (!running) {
            return;
        }
        try {
            startSessions();
            state = State.LISTENING;
        } catch (RuntimeException e) {
            failure = String.valueOf(e.getMessage());
            state = State.FAILED;
            log.error("FIX 4.4 acceptor did not start; the broker serves REST without it", e);
        }
    }

    private void startSessions() {
        Path store = Path.of(config.storeDirectory()).toAbsolutePath();
        try {
            Files.createDirectories(store);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create the FIX store directory " + store, e);
        }
        SessionID template = new SessionID("FIX.4.4", config.compId(), DynamicAcceptorSessionProvider.WILDCARD);
        SessionSettings settings = sessionSettings(template, store, bindAddress, config.port(), config.storeSync());
        MessageStoreFactory storeFactory = new FileStoreFactory(settings);
        LogFactory logFactory = new FixEventLog();
        MessageFactory messages = new DefaultMessageFactory();
        DynamicAcceptorSessionProvider[] provider = new DynamicAcceptorSessionProvider[1];
        sessions = new FixSessions(config.compId(), store, config.rememberedReports(), directory,
                id -> provider[0].getSession(id, acceptor));
        FixApplication application = new FixApplication(orders, directory, tokens::customerOf, sessions);
        try {
            provider[0] = new DynamicAcceptorSessionProvider(settings, template, application, storeFactory,
                    logFactory, messages);
            acceptor = new ThreadedSocketAcceptor(application, storeFactory, settings, logFactory, messages);
            acceptor.setSessionProvider(new InetSocketAddress(bindAddress, config.port()), provider[0]);
            acceptor.start();
        } catch (ConfigError e) {
            throw new IllegalStateException("FIX acceptor configuration: " + e.getMessage(), e);
        }
        int restored = sessions.restore();
        sessions.onFirstCustomer(() -> feed = new FixFillFeed(topology, topics, region,
                config.fillRegions().stream().filter(r -> !r.isBlank()).toList(), sessions::report, sessions::report));
        log.info("FIX 4.4 acceptor on {}:{} as {} ({} customer session(s) restored from {})", bindAddress,
                config.port(), config.compId(), restored, store);
    }

    /** UP once the acceptor listens (or when FIX is disabled); DOWN while it starts, and if it could not. */
    public Health health() {
        return switch (state) {
            case LISTENING -> Health.up().withDetail("state", "listening").withDetail("port", config.port()).build();
            case DISABLED -> Health.up().withDetail("state", "disabled").build();
            case STARTING -> Health.down().withDetail("state", "starting").build();
            case FAILED -> Health.down().withDetail("state", "not started").withDetail("error", failure).build();
        };
    }

    /**
     * The acceptor's settings, for the broker and for {@link FixFloor}: dynamic sessions from
     * {@code template}, messages and sequence numbers in a file store under {@code store} (synced
     * to disk before each send when {@code storeSync}), incoming messages checked against FIX 4.4's
     * data dictionary.
     */
    static SessionSettings sessionSettings(SessionID template, Path store, String bindAddress, int port,
                                           boolean storeSync) {
        SessionSettings s = new SessionSettings();
        s.setString("ConnectionType", "acceptor");
        // Every session's settings: the default section (dynamic sessions are created with these).
        s.setString("NonStopSession", "Y");
        s.setString("FileStorePath", store.toString());
        s.setString("FileStoreSync", storeSync ? "Y" : "N");
        s.setString("PersistMessages", "Y");
        s.setString("UseDataDictionary", "Y");
        s.setString("DataDictionary", "FIX44.xml");
        s.setString("ValidateUserDefinedFields", "N");
        s.setString("ResetOnLogon", "N");
        s.setString("ResetOnDisconnect", "N");
        s.setString("SocketAcceptAddress", bindAddress);
        s.setLong("SocketAcceptPort", port);
        s.setString("SocketReuseAddress", "Y");
        s.setString("SocketTcpNoDelay", "Y");
        // The template that accepts any customer as TargetCompID.
        s.setString(template, "AcceptorTemplate", "Y");
        return s;
    }

    @Override
    public void stop() {
        running = false;
        stopAcceptor();
    }

    private synchronized void stopAcceptor() {
        if (feed != null) {
            feed.close();
            feed = null;
        }
        if (acceptor != null) {
            acceptor.stop(true);
            for (SessionID id : acceptor.getSessions()) {
                Session s = Session.lookupSession(id);
                if (s != null) {
                    try {
                        s.close();
                    } catch (IOException e) {
                        log.warn("closing FIX session store of {}: {}", id.getTargetCompID(), e.getMessage());
                    }
                }
            }
            acceptor = null;
        }
    }

    @Override
    public boolean isRunning() {
        return running;
    }

    /** After the engine and the web server: FIX sessions come up last and go down first. */
    @Override
    public int getPhase() {
        return SmartLifecycle.DEFAULT_PHASE;
    }
}
