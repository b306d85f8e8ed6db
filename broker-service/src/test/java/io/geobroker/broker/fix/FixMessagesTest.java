package io.geobroker.broker.fix;

import io.geobroker.domain.Fill;
import io.geobroker.domain.OrderType;
import io.geobroker.domain.Side;
import org.junit.jupiter.api.Test;
import quickfix.Message;
import quickfix.field.AvgPx;
import quickfix.field.ClOrdID;
import quickfix.field.CumQty;
import quickfix.field.ExecID;
import quickfix.field.ExecType;
import quickfix.field.LastPx;
import quickfix.field.LastQty;
import quickfix.field.LeavesQty;
import quickfix.field.OrdStatus;

import java.math.BigDecimal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Prices on the wire, trade reports built from fills, and what the store and the log see. */
class FixMessagesTest {

    @Test
    void decimal_prices_become_minor_units_exactly_or_are_refused() {
        assertThat(FixPrices.toMinorUnits(new BigDecimal("190.25"), 2)).isEqualTo(19_025);
        assertThat(FixPrices.toMinorUnits(new BigDecimal("190.2"), 2)).isEqualTo(19_020);
        assertThat(FixPrices.toMinorUnits(new BigDecimal("190.250000"), 2)).as("trailing zeros are fine").isEqualTo(19_025);
        assertThat(FixPrices.toMinorUnits(new BigDecimal("1500"), 0)).isEqualTo(1_500);
        assertThatThrownBy(() -> FixPrices.toMinorUnits(new BigDecimal("190.255"), 2))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("more than 2 decimals");
        assertThatThrownBy(() -> FixPrices.toMinorUnits(new BigDecimal("1500.5"), 0))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> FixPrices.toMinorUnits(new BigDecimal("1e30"), 2))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("out of range");
        assertThat(FixPrices.toDecimal(19_025, 2)).isEqualByComparingTo("190.25");
        assertThat(FixPrices.toDecimal(19_025, 2).toPlainString()).isEqualTo("190.25");
        assertThat(FixPrices.average(99_994, 10, 2)).isEqualByComparingTo("99.994");
        assertThat(FixPrices.average(10_000, 3, 2)).as("a third of a cent, four digits further")
                .isEqualByComparingTo("33.333333");
        assertThat(FixPrices.average(0, 0, 2)).isEqualByComparingTo("0");
    }

    @Test
    void a_trade_report_carries_the_fill_and_the_orders_totals_after_it() throws Exception {
        Fill fill = new Fill("fill-1", "order-1", "c1", "AAPL", "NASDAQ", Side.BUY, OrderType.LIMIT, 9_999, 6, "USD",
                42, 1_700_000_000_000_000L, 1_700_000_000_250_000L, "nvirginia", "L1", 10L, 10L, 99_994L);
        Message r = FixReports.trade(fill, 2);
        assertThat(r.getString(ExecID.FIELD)).isEqualTo("fill-1");
        assertThat(r.getString(ClOrdID.FIELD)).isEqualTo("L1");
        assertThat(r.getChar(ExecType.FIELD)).isEqualTo(ExecType.TRADE);
        assertThat(r.getChar(OrdStatus.FIELD)).isEqualTo(OrdStatus.FILLED);
        assertThat(r.getString(LastQty.FIELD)).isEqualTo("6");
        assertThat(r.getString(LastPx.FIELD)).isEqualTo("99.99");
        assertThat(r.getString(CumQty.FIELD)).isEqualTo("10");
        assertThat(r.getString(LeavesQty.FIELD)).isEqualTo("0");
        assertThat(r.getString(AvgPx.FIELD)).isEqualTo("99.994");

        Fill partial = new Fill("fill-0", "order-1", "c1", "AAPL", "NASDAQ", Side.BUY, OrderType.LIMIT, 10_000, 4,
                "USD", 41, 1, 2, "nvirginia", "L1", 10L, 4L, 40_000L);
        Message p = FixReports.trade(partial, 2);
        assertThat(p.getChar(OrdStatus.FIELD)).isEqualTo(OrdStatus.PARTIALLY_FILLED);
        assertThat(p.getString(LeavesQty.FIELD)).isEqualTo("6");

        Fill old = new Fill("fill-9", "order-1", "c1", "AAPL", "NASDAQ", Side.BUY, OrderType.LIMIT, 10_000, 4,
                "USD", 41, 1, 2, "nvirginia");
        assertThat(FixReports.trade(old, 2)).as("no totals, no report that would have to guess them").isNull();
    }

    @Test
    void trade_exec_ids_are_found_in_stored_messages_and_nothing_else_is() {
        Fill fill = new Fill("fill-7", "order-1", "c1", "AAPL", "NASDAQ", Side.SELL, OrderType.MARKET, 19_000, 1,
                "USD", 7, 1, 2, "nvirginia", "M1", 1L, 1L, 19_000L);
        Message trade = FixReports.trade(fill, 2);
        trade.getHeader().setString(8, "FIX.4.4");
        assertThat(FixSessions.reportedExecId(trade.toString())).isEqualTo("fill-7");
        Message rejected = FixReports.rejected("X1", null, "AAPL", '1', 1, 99, "no");
        rejected.getHeader().setString(8, "FIX.4.4");
        assertThat(FixSessions.reportedExecId(rejected.toString())).isNull();
        assertThat(FixSessions.reportedExecId("8=FIX.4.4\u00019=5\u000135=0\u000110=000\u0001")).isNull();
    }

    @Test
    void the_token_in_a_logon_never_reaches_the_log() {
        String logon = "8=FIX.4.4\u00019=80\u000135=A\u000149=c1\u000156=GEOBROKER\u0001554=c1.s3cr3t\u000198=0\u000110=123\u0001";
        assertThat(FixEventLog.scrub("Invalid message: " + logon)).doesNotContain("s3cr3t").contains("554=***");
        assertThat(FixEventLog.scrub("8=FIX.4.4|554=c1.s3cr3t|98=0|")).isEqualTo("8=FIX.4.4|554=***|98=0|");
        assertThat(FixEventLog.scrub("Received logon")).isEqualTo("Received logon");
    }
}
