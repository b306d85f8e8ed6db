package io.geobroker.broker.matching;

import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.UUID;

/**
 * One user's day-trading state in this region, authoritative in the engine once loaded: its
 * pending BUYs and SELLs (stacks, the most recent last), its automatic buys and sells (one per
 * symbol as the user names it), and the symbols it has traded. Stored whole as one JSON document
 * ({@link DayTradingStore}); only the engine thread touches it.
 */
final class DayTrader {

    /** A BUY or SELL waiting for its COMMIT or CANCEL; it holds {@code reserved} cash (BUY) or shares (SELL). */
    record Pending(String symbol, String stockSymbol, long quantity, long price, long quotedAtMillis, long reserved,
                   long transactionNum) {
    }

    /**
     * An automatic buy or sell. Before it is armed a buy holds {@code reserved} cash; once armed
     * ({@code price} set) its limit order {@code orderId} holds what it needs, and it ends when that
     * order is filled, the trigger is cancelled, or the customer cancels that order
     * (REST, FIX, the web page).
     */
    static final class Trigger {
        public String symbol;
        public String stockSymbol;
        public long amount;
        public long reserved;
        public Long price;
        public UUID orderId;
        public long transactionNum;

        boolean armed() {
            return orderId != null;
        }
    }

    /** A movement of the user's cash (and shares, for a trade), as DISPLAY_SUMMARY lists the latest. */
    record Transaction(long transactionNum, String command, String action, long funds, String symbol, Long shares,
                       long atMillis) {
    }

    /** How many of the latest transactions are kept for DISPLAY_SUMMARY (all of them are in the log). */
    static final int RECENT_TRANSACTIONS = 20;

    /** The stored form. */
    record State(List<Pending> buys, List<Pending> sells, TreeMap<String, Trigger> buyTriggers,
                 TreeMap<String, Trigger> sellTriggers, long triggersFilled, long commandsLogged, TreeSet<String> symbols,
                 List<Transaction> recent, long triggersEndedPartlyFilled) {
    }

    final String customerId;
    final List<Pending> buys;
    final List<Pending> sells;
    final TreeMap<String, Trigger> buyTriggers;
    final TreeMap<String, Trigger> sellTriggers;
    final TreeSet<String> symbols;
    /** The latest transactions, oldest first. */
    final List<Transaction> recent;
    long triggersFilled;
    /**
     * Triggers whose order had fills when it was cancelled or replaced (re-armed, a new amount,
     * CANCEL_SET_*, or the order cancelled by its customer outside day trading).
     */
    long triggersEndedPartlyFilled;
    long commandsLogged;

    DayTrader(String customerId, State state) {
        this.customerId = customerId;
        this.buys = state == null ? new ArrayList<>() : new ArrayList<>(state.buys());
        this.sells = state == null ? new ArrayList<>() : new ArrayList<>(state.sells());
        this.buyTriggers = state == null ? new TreeMap<>() : state.buyTriggers();
        this.sellTriggers = state == null ? new TreeMap<>() : state.sellTriggers();
        this.symbols = state == null ? new TreeSet<>() : state.symbols();
        this.triggersFilled = state == null ? 0 : state.triggersFilled();
        this.triggersEndedPartlyFilled = state == null ? 0 : state.triggersEndedPartlyFilled();
        this.commandsLogged = state == null ? 0 : state.commandsLogged();
        this.recent = state == null || state.recent() == null ? new ArrayList<>() : new ArrayList<>(state.recent());
    }

    State state() {
        return new State(buys, sells, buyTriggers, sellTriggers, triggersFilled, commandsLogged, symbols, recent,
                triggersEndedPartlyFilled);
    }

    void remember(Transaction t) {
        recent.add(t);
        if (recent.size() > RECENT_TRANSACTIONS) {
            recent.remove(0);
        }
    }

    /** The automatic buy or sell whose order is {@code orderId}, or null. */
    Trigger triggerOf(UUID orderId) {
        for (Trigger t : buyTriggers.values()) {
            if (orderId.equals(t.orderId)) {
                return t;
            }
        }
        for (Trigger t : sellTriggers.values()) {
            if (orderId.equals(t.orderId)) {
                return t;
            }
        }
        return null;
    }
}
