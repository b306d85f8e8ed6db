package io.geobroker.broker.daytrading;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One day-trading command as the engine applies it. {@code amount} and {@code price} are minor
 * units (-1 when the command takes none); {@code user} is the customer id ({@code null} for the
 * operator's DUMPLOG of the whole log). A command that could not be read has {@code malformed} set
 * to the reason, and whatever could be read of it (its command and user when known): it changes
 * nothing and is logged as an error.
 */
public record DayTradingCommand(long transactionNum, DtCommand command, String user, String stockSymbol, long amount,
                                long price, String filename, String malformed) {

    public static final int MAX_USER_LENGTH = 64;
    /** The forms of the fields (the API's schema states the same). */
    public static final String USER_PATTERN = "[A-Za-z0-9_-]{1," + MAX_USER_LENGTH + "}";
    public static final String SYMBOL_PATTERN = "[A-Za-z]{1,3}";
    public static final String AMOUNT_PATTERN = "[0-9]{1,10}(\\.[0-9]{1,2})?";
    public static final String FILENAME_PATTERN = "[A-Za-z0-9._/~-]{1,255}";
    private static final Pattern LINE = Pattern.compile("\\[(\\d{1,18})]\\s*([A-Z_]+)(?:,(.*))?");
    private static final Pattern USER = Pattern.compile(USER_PATTERN);
    private static final Pattern SYMBOL = Pattern.compile(SYMBOL_PATTERN);
    private static final Pattern AMOUNT = Pattern.compile(AMOUNT_PATTERN);
    private static final Pattern FILENAME = Pattern.compile(FILENAME_PATTERN);

    public boolean isMalformed() {
        return malformed != null;
    }

    /** A copy with another transaction number (commands sent without one get the region's next). */
    public DayTradingCommand withTransactionNum(long n) {
        return new DayTradingCommand(n, command, user, stockSymbol, amount, price, filename, malformed);
    }

    /**
     * Reads one workload line, {@code [N] COMMAND,field,...} (surrounding spaces ignored); a line
     * without a readable transaction number gets {@code fallbackNum}.
     */
    public static DayTradingCommand parseLine(String line, long fallbackNum, int minorDigits) {
        String text = line.strip();
        Matcher m = LINE.matcher(text);
        if (!m.matches()) {
            return malformed(fallbackNum, null, null, "not a command line '[N] COMMAND,field,...': '" + abbreviate(text) + "'");
        }
        long n = Long.parseLong(m.group(1));
        if (n < 1) {
            return malformed(fallbackNum, null, null, "the transaction number must be positive");
        }
        String[] fields = m.group(3) == null ? new String[0] : m.group(3).split(",", -1);
        for (int i = 0; i < fields.length; i++) {
            fields[i] = fields[i].strip();
        }
        return DtCommand.named(m.group(2))
                .map(c -> of(n, c, fields, minorDigits))
                .orElseGet(() -> malformed(n, null, fields.length > 0 ? user(fields[0]) : null,
                        "unknown command '" + abbreviate(m.group(2)) + "'"));
    }

    /**
     * A command from its name's fields in workload order: user, then symbol, then amount or price
     * (DUMPLOG: {@code filename} or {@code user,filename}).
     */
    public static DayTradingCommand of(long n, DtCommand c, String[] fields, int minorDigits) {
        String user = fields.length > 0 ? user(fields[0]) : null;
        int expected = switch (c.fields) {
            case USER -> 1;
            case USER_AMOUNT, USER_SYMBOL -> 2;
            case USER_SYMBOL_AMOUNT, USER_SYMBOL_PRICE -> 3;
            case DUMPLOG -> fields.length == 1 ? 1 : 2;
        };
        if (fields.length != expected) {
            return malformed(n, c, c == DtCommand.DUMPLOG ? null : user, c + " takes " + expected + " field"
                    + (expected == 1 ? "" : "s") + " (" + describe(c) + "), got " + fields.length);
        }
        if (c == DtCommand.DUMPLOG) {
            String dumpUser = expected == 2 ? user : null;
            if (expected == 2 && dumpUser == null) {
                return malformed(n, c, null, "invalid user id '" + abbreviate(fields[0]) + "'");
            }
            String filename = fields[expected - 1];
            if (!FILENAME.matcher(filename).matches()) {
                return malformed(n, c, dumpUser, "invalid file name '" + abbreviate(filename) + "'");
            }
            return new DayTradingCommand(n, c, dumpUser, null, -1, -1, filename, null);
        }
        if (user == null) {
            return malformed(n, c, null, "invalid user id '" + abbreviate(fields[0]) + "' (1-" + MAX_USER_LENGTH
                    + " letters, digits, '_' or '-')");
        }
        String symbol = null;
        int next = 1;
        if (c.takesSymbol()) {
            symbol = fields[next++];
            if (!SYMBOL.matcher(symbol).matches()) {
                return malformed(n, c, user, "invalid stock symbol '" + abbreviate(symbol) + "' (1-3 letters)");
            }
            symbol = symbol.toUpperCase(java.util.Locale.ROOT);
        }
        long amount = -1;
        long price = -1;
        if (c.takesAmount() || c.takesPrice()) {
            long value;
            String what = c.takesPrice() ? "price" : "amount";
            if (!AMOUNT.matcher(fields[next]).matches()) {
                return new DayTradingCommand(n, c, user, symbol, -1, -1, null, "invalid " + what + " '"
                        + abbreviate(fields[next]) + "' (dollars: up to 10 digits, then up to 2 decimals)");
            }
            try {
                value = Dollars.parse(fields[next], minorDigits);
            } catch (IllegalArgumentException e) {
                return new DayTradingCommand(n, c, user, symbol, -1, -1, null, "invalid " + what + ": " + e.getMessage());
            }
            if (c.takesPrice()) {
                price = value;
            } else {
                amount = value;
            }
        }
        return new DayTradingCommand(n, c, user, symbol, amount, price, null, null);
    }

    static String describe(DtCommand c) {
        return switch (c.fields) {
            case USER -> "user";
            case USER_AMOUNT -> "user,amount";
            case USER_SYMBOL -> "user,symbol";
            case USER_SYMBOL_AMOUNT -> "user,symbol,amount";
            case USER_SYMBOL_PRICE -> "user,symbol,price";
            case DUMPLOG -> "filename, or user,filename";
        };
    }

    private static DayTradingCommand malformed(long n, DtCommand c, String user, String reason) {
        return new DayTradingCommand(n, c, user, null, -1, -1, null, reason);
    }

    private static String user(String field) {
        return USER.matcher(field).matches() ? field : null;
    }

    /** At most 40 characters of what was sent, anything but printable ASCII as '?' (it may end up in the XML log). */
    static String abbreviate(String s) {
        String shown = s.length() <= 40 ? s : s.substring(0, 40) + "...";
        StringBuilder b = new StringBuilder(shown.length());
        for (int i = 0; i < shown.length(); i++) {
            char ch = shown.charAt(i);
            b.append(ch >= ' ' && ch <= '~' ? ch : '?');
        }
        return b.toString();
    }
}
