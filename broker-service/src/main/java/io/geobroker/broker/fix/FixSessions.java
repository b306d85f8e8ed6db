package io.geobroker.broker.fix;

import io.geobroker.domain.Fill;
import io.geobroker.domain.OrderEvent;
import io.geobroker.domain.SymbolDirectory;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import quickfix.Message;
import quickfix.MessageStore;
import quickfix.Session;
import quickfix.SessionID;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.regex.Pattern;

/**
 * The customers that use FIX at this broker and what each session was sent.
 *
 * <p>A customer's first Logon adds it to a list kept beside the message store
 * ({@value #CUSTOMERS_FILE}); from then on every fill of that customer is reported to its session,
 * also while it is logged out (QuickFIX/J stores the report with its sequence number and the client's
 * next Logon gets it by resend) and across restarts (the sessions of the listed customers are
 * created at start, before any fill is read).
 *
 * <p>Order events (an order cancelled by any means, or expired) are reported the same way, as
 * Canceled or Expired ExecutionReports whose ExecID is the event's id.
 *
 * <p>Exactly once per ExecID: a fill's or order event's report is sent only if the session has not
 * been sent one with the same ExecID (the fill id, the event id). The answer to the session's own
 * cancel request carries the event's id too and is recorded before the event's report is considered
 * (the report waits for the answer as a fill waits for its order's placement), so a cancel made over
 * this session is reported once. At start, the last {@code remembered} messages of each session's
 * store are read for the ExecIDs of their trade, cancel and expiry reports, which covers records read
 * again after a crash (the consumers commit their offsets after each poll) and fills published
 * again by a restarted broker.
 */
final class FixSessions {

    static final String CUSTOMERS_FILE = "customers";
    private static final Logger log = LoggerFactory.getLogger(FixSessions.class);
    private static final Pattern COMP_ID = Pattern.compile("[\\x21-\\x7E]{1,64}");
    private static final long ACK_WAIT_MILLIS = 2_000;

    private final String compId;
    private final Path customersFile;
    private final int remembered;
    private final SymbolDirectory directory;
    private final Function<SessionID, Session> sessionFactory;
    private final Set<String> customers = ConcurrentHashMap.newKeySet();
    private final Map<String, Reported> reported = new ConcurrentHashMap<>();
    /** Orders with a placement or cancel under way on their customer's session: their reports wait for its answer. */
    private final Map<UUID, CountDownLatch> answering = new ConcurrentHashMap<>();
    private Runnable onFirstCustomer;

    /** The ExecIDs a session was sent, oldest first, bounded. */
    private static final class Reported {
        final Set<String> execIds;

        Reported(int limit) {
            this.execIds = Collections.newSetFromMap(new LinkedHashMap<>(16, 0.75f, false) {
                @Override
                protected boolean removeEldestEntry(Map.Entry<String, Boolean> eldest) {
                    return size() > limit;
                }
            });
        }
    }

    FixSessions(String compId, Path storeDirectory, int remembered, SymbolDirectory directory,
                Function<SessionID, Session> sessionFactory) {
        this.compId = compId;
        this.customersFile = storeDirectory.resolve(CUSTOMERS_FILE);
        this.remembered = remembered;
        this.directory = directory;
        this.sessionFactory = sessionFactory;
    }

    SessionID sessionId(String customerId) {
        return new SessionID("FIX.4.4", compId, customerId);
    }

    /** Creates the sessions of every customer that has logged on here before, and reads what they were sent. */
    int restore() {
        if (!Files.exists(customersFile)) {
            return 0;
        }
        try {
            for (String id : Files.readAllLines(customersFile, StandardCharsets.UTF_8)) {
                if (COMP_ID.matcher(id).matches() && customers.add(id)) {
                    session(id);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + customersFile, e);
        }
        return customers.size();
    }

    /** Runs {@code action} once, as soon as some customer uses FIX here (at once if one already does). */
    synchronized void onFirstCustomer(Runnable action) {
        onFirstCustomer = action;
        if (!customers.isEmpty()) {
            firstCustomer();
        }
    }

    private synchronized void firstCustomer() {
        if (onFirstCustomer != null) {
            Runnable action = onFirstCustomer;
            onFirstCustomer = null;
            action.run();
        }
    }

    /** A customer logged on: from now on its fills are reported to it. */
    void loggedOn(SessionID sessionId) {
        String customerId = sessionId.getTargetCompID();
        reported.computeIfAbsent(customerId, id -> remembered(Session.lookupSession(sessionId)));
        if (customers.add(customerId)) {
            try {
                Files.writeString(customersFile, customerId + "\n", StandardCharsets.UTF_8, StandardOpenOption.CREATE,
                        StandardOpenOption.APPEND, StandardOpenOption.WRITE, StandardOpenOption.SYNC);
            } catch (IOException e) {
                customers.remove(customerId);
                throw new UncheckedIOException("cannot record FIX customer in " + customersFile, e);
            }
            firstCustomer();
        }
    }

    /** A placement or cancel of the order is under way on the customer's session: its reports wait for the answer. */
    void answering(UUID orderId) {
        answering.put(orderId, new CountDownLatch(1));
    }

    void answered(UUID orderId) {
        CountDownLatch latch = answering.remove(orderId);
        if (latch != null) {
            latch.countDown();
        }
    }

    /**
     * The session is about to answer a request with a report of this ExecID (a cancel that took
     * effect): the same event read from Kafka is then not reported again.
     */
    void answeredWith(String customerId, String execId) {
        Reported sent = reported.computeIfAbsent(customerId, id -> remembered(session(id)));
        synchronized (sent) {
            sent.execIds.add(execId);
        }
    }

    /**
     * Reports a durable fill to its customer's session, unless the customer does not use FIX here or
     * the session was already sent this fill. Returns whether a report was sent (or stored for resend).
     */
    boolean report(Fill fill) {
        if (!customers.contains(fill.customerId())) {
            return false;
        }
        if (!awaitAnswer(fill.orderId())) {
            return false;
        }
        int digits = directory.exchange(fill.exchange()).map(e -> e.currencyMinorDigits()).orElse(2);
        Message report = FixReports.trade(fill, digits);
        if (report == null) {
            log.warn("fill {} of order {} carries no order totals; not reported over FIX", fill.fillId(), fill.orderId());
            return false;
        }
        return sendOnce(fill.customerId(), fill.fillId(), report);
    }

    /**
     * Reports an order cancelled or expired to its customer's session, unless the customer does not
     * use FIX here or the session was already sent a report with the event's id (the answer to its
     * own cancel request included). Returns whether a report was sent (or stored for resend).
     */
    boolean report(OrderEvent event) {
        if (!customers.contains(event.customerId())) {
            return false;
        }
        if (!awaitAnswer(event.orderId())) {
            return false;
        }
        int digits = directory.exchange(event.exchange()).map(e -> e.currencyMinorDigits()).orElse(2);
        return sendOnce(event.customerId(), event.eventId(), FixReports.ended(event, digits));
    }

    /** Waits (a bounded time) for an answer under way about the order on its session; false if interrupted. */
    private boolean awaitAnswer(String orderId) {
        CountDownLatch answer;
        try {
            answer = answering.get(UUID.fromString(orderId));
        } catch (IllegalArgumentException e) {
            return true;
        }
        if (answer != null) {
            try {
                answer.await(ACK_WAIT_MILLIS, TimeUnit.MILLISECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return false;
            }
        }
        return true;
    }

    private boolean sendOnce(String customerId, String execId, Message report) {
        Session session = session(customerId);
        Reported sent = reported.computeIfAbsent(customerId, id -> remembered(session));
        synchronized (sent) {
            if (!sent.execIds.add(execId)) {
                return false;
            }
            session.send(report);
            return true;
        }
    }

    private Session session(String customerId) {
        SessionID id = sessionId(customerId);
        Session session = Session.lookupSession(id);
        return session != null ? session : sessionFactory.apply(id);
    }

    /** The ExecIDs of the trade, cancel and expiry reports among the session's last {@code remembered} stored messages. */
    private Reported remembered(Session session) {
        Reported r = new Reported(remembered);
        if (session == null) {
            return r;
        }
        MessageStore store = session.getStore();
        try {
            int last = store.getNextSenderMsgSeqNum() - 1;
            List<String> messages = new ArrayList<>();
            store.get(Math.max(1, last - remembered + 1), last, messages);
            for (String m : messages) {
                String execId = reportedExecId(m);
                if (execId != null) {
                    r.execIds.add(execId);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the FIX message store of " + session.getSessionID(), e);
        }
        return r;
    }

    /**
     * ExecID(17) of a stored ExecutionReport with ExecType(150) F (trade), 4 (canceled) or C
     * (expired), else null.
     */
    static String reportedExecId(String message) {
        if (!message.contains("\u000135=8\u0001") || !(message.contains("\u0001150=F\u0001")
                || message.contains("\u0001150=4\u0001") || message.contains("\u0001150=C\u0001"))) {
            return null;
        }
        int at = message.indexOf("\u000117=");
        if (at < 0) {
            return null;
        }
        int end = message.indexOf('\u0001', at + 4);
        return end < 0 ? null : message.substring(at + 4, end);
    }
}
