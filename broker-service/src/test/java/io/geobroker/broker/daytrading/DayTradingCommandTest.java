package io.geobroker.broker.daytrading;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class DayTradingCommandTest {

    @Test
    void readsEveryFormOfAWorkloadLine() {
        DayTradingCommand add = DayTradingCommand.parseLine("[1] ADD,gDp4mjqeaH,63511.53 ", 0, 2);
        assertThat(add).isEqualTo(new DayTradingCommand(1, DtCommand.ADD, "gDp4mjqeaH", null, 6_351_153, -1, null, null));
        DayTradingCommand buy = DayTradingCommand.parseLine("[3] BUY,Fuspmx2FbF,zul,535.81", 0, 2);
        assertThat(buy.stockSymbol()).isEqualTo("ZUL");
        assertThat(buy.amount()).isEqualTo(53_581);
        DayTradingCommand trigger = DayTradingCommand.parseLine("[9] SET_BUY_TRIGGER,u1,AB,7", 0, 2);
        assertThat(trigger.price()).isEqualTo(700);
        assertThat(trigger.amount()).isEqualTo(-1);
        assertThat(DayTradingCommand.parseLine("[5] COMMIT_BUY,u1\r", 0, 2).command()).isEqualTo(DtCommand.COMMIT_BUY);
        DayTradingCommand dump = DayTradingCommand.parseLine("[10000] DUMPLOG,./testLOG", 0, 2);
        assertThat(dump.user()).isNull();
        assertThat(dump.filename()).isEqualTo("./testLOG");
        DayTradingCommand userDump = DayTradingCommand.parseLine("[7] DUMPLOG,u1,out.xml", 0, 2);
        assertThat(userDump.user()).isEqualTo("u1");
        assertThat(userDump.filename()).isEqualTo("out.xml");
    }

    @Test
    void aLineThatCannotBeReadSaysWhyAndKeepsWhatItCould() {
        assertThat(DayTradingCommand.parseLine("garbage", 42, 2))
                .satisfies(c -> assertThat(c.transactionNum()).isEqualTo(42))
                .satisfies(c -> assertThat(c.malformed()).contains("not a command line"));
        DayTradingCommand missing = DayTradingCommand.parseLine("[2] BUY,u1,ABC", 0, 2);
        assertThat(missing.command()).isEqualTo(DtCommand.BUY);
        assertThat(missing.user()).isEqualTo("u1");
        assertThat(missing.malformed()).contains("BUY takes 3 fields (user,symbol,amount), got 2");
        assertThat(DayTradingCommand.parseLine("[2] FOO,u1", 0, 2).malformed()).contains("unknown command 'FOO'");
        for (String amount : List.of("1.234", "-5", "1e5", "+5", "0", "0.00", "12345678901", "")) {
            assertThat(DayTradingCommand.parseLine("[4] ADD,u1," + amount, 0, 2).malformed())
                    .as(amount).startsWith("invalid amount");
        }
        assertThat(DayTradingCommand.parseLine("[4] QUOTE,u1,ABCD", 0, 2).malformed()).contains("invalid stock symbol");
        assertThat(DayTradingCommand.parseLine("[4] QUOTE,bad user,AB", 0, 2).malformed()).contains("invalid user id");
        assertThat(DayTradingCommand.parseLine("[4] DUMPLOG,u1,a<b>", 0, 2).malformed()).contains("invalid file name");
    }

    @Test
    void whatWasSentIsShownOnlyAsPrintableAscii() {
        assertThat(DayTradingCommand.parseLine("[4] QUOTE,u\u0001\u00e9,AB", 0, 2).malformed())
                .contains("'u??'");
        assertThat(DayTradingCommand.abbreviate("x".repeat(50))).hasSize(43).endsWith("...");
    }

    @Test
    void amountsAreExactMinorUnitsAndPrintedWithTheCurrencysDigits() {
        assertThat(Dollars.parse("0.06", 2)).isEqualTo(6);
        assertThat(Dollars.parse("131417.80", 2)).isEqualTo(13_141_780);
        assertThat(Dollars.format(13_141_780, 2)).isEqualTo("131417.80");
        assertThat(Dollars.format(5, 2)).isEqualTo("0.05");
        assertThatThrownBy(() -> Dollars.parse("0.001", 2)).hasMessageContaining("more than 2 decimals");
        assertThatThrownBy(() -> Dollars.parse("10000000000.01", 2)).hasMessageContaining("is not from 0.01");
    }

    @Test
    void workloadSymbolsMapOntoTheRegionsOwnSymbolsDeterministically() {
        DayTradingSymbols mapping = new DayTradingSymbols(List.of("MSFT", "AAPL", "MU", "GS"));
        assertThat(mapping.symbolOf("mu")).isEqualTo("MU");
        // A = 1, so "A" is 1 % 4 = 1 in [AAPL, GS, MSFT, MU]; "ZUL" is (26 * 27 + 21) * 27 + 12 = 19,533 % 4 = 1
        assertThat(mapping.symbolOf("A")).isEqualTo("GS");
        assertThat(mapping.symbolOf("ZUL")).isEqualTo("GS");
        assertThat(mapping.symbolOf("B")).isEqualTo("MSFT");
        assertThat(new DayTradingSymbols(List.of("MU", "GS", "AAPL", "MSFT")).symbolOf("YOG")).isEqualTo(mapping.symbolOf("YOG"));
    }
}
