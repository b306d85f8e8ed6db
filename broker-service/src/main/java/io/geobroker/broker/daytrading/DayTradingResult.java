package io.geobroker.broker.daytrading;

import com.fasterxml.jackson.annotation.JsonInclude;

import java.util.List;

/**
 * What one day-trading command did. Amounts and prices are decimals of the region's currency;
 * fields that do not apply to the command are left out.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record DayTradingResult(long transactionNum, String command, String user, boolean ok, String error,
                               long engineMicros, String stockSymbol, String symbol, String price, Long quantity,
                               String amount, Cash cash, List<HoldingView> holdings, List<PendingView> pendingBuys,
                               List<PendingView> pendingSells, List<TriggerView> triggers,
                               List<TransactionView> transactions, Long triggersFilled, Long triggersEndedPartlyFilled,
                               Long commandsLogged, LogLink log) {

    /** The user's cash in the region's currency after the command. */
    public record Cash(String currency, String available, String reserved) {
    }

    /** Shares of one symbol: available, and reserved by a pending SELL or an armed automatic sale. */
    public record HoldingView(String symbol, long available, long reserved) {
    }

    /** A BUY or SELL waiting for its COMMIT or CANCEL (at most 60 s after its quote). */
    public record PendingView(String symbol, String stockSymbol, long quantity, String price, long quotedAtMillis) {
    }

    /** An automatic buy or sell: its amount, and once armed its price and the limit order that executes it. */
    public record TriggerView(String side, String symbol, String stockSymbol, String amount, String price,
                              String orderId, String status) {
    }

    /** One of the user's latest cash movements: an amount added or removed, and the shares of a trade. */
    public record TransactionView(long transactionNum, String command, String action, String amount, String symbol,
                                  Long shares, long atMillis) {
    }

    /** Where a DUMPLOG's log is read (GET, as XML). */
    public record LogLink(String path, String user, String filename) {
    }

    /** Fills in a result on the engine thread; {@link #build()} once the command is applied. */
    public static final class Builder {
        public final long transactionNum;
        public final String command;
        public final String user;
        public String error;
        public long engineMicros;
        public String stockSymbol;
        public String symbol;
        public String price;
        public Long quantity;
        public String amount;
        public Cash cash;
        public List<HoldingView> holdings;
        public List<PendingView> pendingBuys;
        public List<PendingView> pendingSells;
        public List<TriggerView> triggers;
        public List<TransactionView> transactions;
        public Long triggersFilled;
        public Long triggersEndedPartlyFilled;
        public Long commandsLogged;
        public LogLink log;

        public Builder(DayTradingCommand c) {
            this.transactionNum = c.transactionNum();
            this.command = c.command() == null ? null : c.command().name();
            this.user = c.user();
            this.stockSymbol = c.stockSymbol();
        }

        public DayTradingResult build() {
            return new DayTradingResult(transactionNum, command, user, error == null, error, engineMicros, stockSymbol,
                    symbol, price, quantity, amount, cash, holdings, pendingBuys, pendingSells, triggers, transactions,
                    triggersFilled, triggersEndedPartlyFilled, commandsLogged, log);
        }
    }
}
