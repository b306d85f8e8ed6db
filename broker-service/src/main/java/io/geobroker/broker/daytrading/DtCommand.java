package io.geobroker.broker.daytrading;

import java.util.Optional;

/**
 * The day-trading command set (UVic SENG 462/468), with the fields each command takes after its
 * name on a workload line: {@code [txNum] COMMAND,field,...}.
 */
public enum DtCommand {
    ADD(Fields.USER_AMOUNT),
    QUOTE(Fields.USER_SYMBOL),
    BUY(Fields.USER_SYMBOL_AMOUNT),
    COMMIT_BUY(Fields.USER),
    CANCEL_BUY(Fields.USER),
    SELL(Fields.USER_SYMBOL_AMOUNT),
    COMMIT_SELL(Fields.USER),
    CANCEL_SELL(Fields.USER),
    SET_BUY_AMOUNT(Fields.USER_SYMBOL_AMOUNT),
    CANCEL_SET_BUY(Fields.USER_SYMBOL),
    SET_BUY_TRIGGER(Fields.USER_SYMBOL_PRICE),
    SET_SELL_AMOUNT(Fields.USER_SYMBOL_AMOUNT),
    SET_SELL_TRIGGER(Fields.USER_SYMBOL_PRICE),
    CANCEL_SET_SELL(Fields.USER_SYMBOL),
    DUMPLOG(Fields.DUMPLOG),
    DISPLAY_SUMMARY(Fields.USER);

    /** The fields after the command's name. */
    public enum Fields {
        USER, USER_AMOUNT, USER_SYMBOL, USER_SYMBOL_AMOUNT, USER_SYMBOL_PRICE,
        /** {@code filename} (the whole log, operator only) or {@code user,filename}. */
        DUMPLOG
    }

    public final Fields fields;

    DtCommand(Fields fields) {
        this.fields = fields;
    }

    public boolean takesSymbol() {
        return fields == Fields.USER_SYMBOL || fields == Fields.USER_SYMBOL_AMOUNT || fields == Fields.USER_SYMBOL_PRICE;
    }

    public boolean takesAmount() {
        return fields == Fields.USER_AMOUNT || fields == Fields.USER_SYMBOL_AMOUNT;
    }

    public boolean takesPrice() {
        return fields == Fields.USER_SYMBOL_PRICE;
    }

    public static Optional<DtCommand> named(String name) {
        for (DtCommand c : values()) {
            if (c.name().equals(name)) {
                return Optional.of(c);
            }
        }
        return Optional.empty();
    }
}
