package io.geobroker.loadgen.daytrading;

import javax.xml.stream.XMLInputFactory;
import javax.xml.stream.XMLStreamConstants;
import javax.xml.stream.XMLStreamException;
import javax.xml.stream.XMLStreamReader;
import java.io.IOException;
import java.io.InputStream;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What a day-trading log says each user's cash, shares and trigger fills are, read by streaming the
 * XML (StAX, one entry at a time): cash = the {@code accountTransaction}s' funds, {@code add} minus
 * {@code remove}; shares per symbol = the sum of the {@code debugEvent}s whose message is
 * {@code shares <signed integer> <SYMBOL>}; trigger fills = the {@code systemEvent}s of command
 * SET_BUY_TRIGGER / SET_SELL_TRIGGER (one per fill, with the trigger's transaction number: a trigger
 * filled in parts has several), and the triggers that fired = their distinct transaction numbers. Only users {@code users} accepts are kept (this run's, by
 * prefix: a reused stack's log holds earlier runs too).
 */
public final class LogLedger {

    private static final Pattern SHARES = Pattern.compile("shares ([+-]?\\d{1,18}) (\\S+)");

    /** One user's figures from the log. */
    public static final class Account {
        private BigDecimal cash = BigDecimal.ZERO;
        private final Map<String, Long> shares = new TreeMap<>();
        private long triggerFills;
        private final Set<Long> triggersFired = new HashSet<>();

        public BigDecimal cash() {
            return cash;
        }

        public Map<String, Long> shares() {
            return shares;
        }

        /** Fill events of the user's triggers. */
        public long triggerFills() {
            return triggerFills;
        }

        /** The user's triggers with at least one fill event. */
        public long triggersFired() {
            return triggersFired.size();
        }
    }

    private final Map<String, Account> accounts = new HashMap<>();
    private final Map<String, Long> entries = new TreeMap<>();
    private long unknownActions;

    private LogLedger() {
    }

    public static LogLedger read(Path file, Predicate<String> users) throws IOException {
        try (InputStream in = Files.newInputStream(file)) {
            return read(in, users);
        }
    }

    static LogLedger read(InputStream in, Predicate<String> users) throws IOException {
        XMLInputFactory factory = XMLInputFactory.newFactory();
        factory.setProperty(XMLInputFactory.SUPPORT_DTD, false);
        factory.setProperty(XMLInputFactory.IS_SUPPORTING_EXTERNAL_ENTITIES, false);
        LogLedger ledger = new LogLedger();
        try {
            XMLStreamReader xml = factory.createXMLStreamReader(in);
            try {
                int depth = 0;
                String entry = null;
                String field = null;
                Map<String, String> fields = new HashMap<>();
                StringBuilder text = new StringBuilder();
                while (xml.hasNext()) {
                    switch (xml.next()) {
                        case XMLStreamConstants.START_ELEMENT -> {
                            depth++;
                            if (depth == 2) {
                                entry = xml.getLocalName();
                                fields.clear();
                            } else if (depth == 3) {
                                field = xml.getLocalName();
                                text.setLength(0);
                            }
                        }
                        case XMLStreamConstants.CHARACTERS, XMLStreamConstants.CDATA -> {
                            if (depth == 3) {
                                text.append(xml.getText());
                            }
                        }
                        case XMLStreamConstants.END_ELEMENT -> {
                            if (depth == 3 && field != null) {
                                fields.put(field, text.toString().strip());
                            } else if (depth == 2 && entry != null) {
                                ledger.entry(entry, fields, users);
                            }
                            depth--;
                        }
                        default -> {
                        }
                    }
                }
            } finally {
                xml.close();
            }
        } catch (XMLStreamException e) {
            throw new IOException("the log is not well-formed XML: " + e.getMessage(), e);
        }
        return ledger;
    }

    private void entry(String entry, Map<String, String> fields, Predicate<String> users) {
        entries.merge(entry, 1L, Long::sum);
        String user = fields.get("username");
        if (user == null || !users.test(user)) {
            return;
        }
        switch (entry) {
            case "accountTransaction" -> {
                BigDecimal funds = new BigDecimal(fields.getOrDefault("funds", "0"));
                String action = fields.getOrDefault("action", "");
                Account a = account(user);
                if (action.equals("add")) {
                    a.cash = a.cash.add(funds);
                } else if (action.equals("remove")) {
                    a.cash = a.cash.subtract(funds);
                } else {
                    unknownActions++;
                }
            }
            case "debugEvent" -> {
                Matcher m = SHARES.matcher(fields.getOrDefault("debugMessage", ""));
                if (m.matches()) {
                    account(user).shares.merge(m.group(2), Long.parseLong(m.group(1)), Long::sum);
                }
            }
            case "systemEvent" -> {
                String command = fields.get("command");
                if ("SET_BUY_TRIGGER".equals(command) || "SET_SELL_TRIGGER".equals(command)) {
                    Account a = account(user);
                    a.triggerFills++;
                    a.triggersFired.add(Long.parseLong(fields.getOrDefault("transactionNum", "0")));
                }
            }
            default -> {
            }
        }
    }

    private Account account(String user) {
        return accounts.computeIfAbsent(user, u -> new Account());
    }

    /** The user's figures (all zero if the log has nothing of theirs). */
    public Account of(String user) {
        Account a = accounts.get(user);
        return a != null ? a : new Account();
    }

    /** Entries of the whole log by element name (every user's). */
    public Map<String, Long> entries() {
        return entries;
    }

    /** Trigger fill events of the accepted users beyond the first of their trigger: fills in parts. */
    public long repeatedTriggerFills() {
        return accounts.values().stream().mapToLong(a -> a.triggerFills - a.triggersFired.size()).sum();
    }

    /** accountTransactions of the accepted users whose action is neither add nor remove. */
    public long unknownActions() {
        return unknownActions;
    }
}
