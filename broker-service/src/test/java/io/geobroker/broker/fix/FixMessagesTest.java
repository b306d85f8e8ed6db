package io.geobroker.broker.fix;

import io.geobroker.broker.order.OrderIds;
import io.geobroker.broker.order.OrderResponse;
import io.geobroker.domain.Fill;
import io.geobroker.domain.OrderEvent;
import io.geobroker.domain.OrderStatus;
import io.geobroker.domain.TimeInForce;
import io.geobroker.domain.WireFormat;
import org.apache.kafka.clients.consumer.ConsumerRecord;
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
import quickfix.field.OrderID;
import quickfix.field.OrderQty;
import quickfix.field.OrigClOrdID;
import quickfix.field.TransactTime;

import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

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

    private static OrderEvent event(OrderStatus status, long filled, long notional) {
        UUID orderId = OrderIds.orderId("c1", "L9");
        return new OrderEvent(OrderIds.eventId(orderId, status).toString(), status, orderId.toString(), "c1", "L9",
                "AAPL", "NASDAQ", Side.BUY, OrderType.LIMIT, 10, filled, notional, "USD", 1_700_000_000_250_000L,
                "nvirginia");
    }

    @Test
    void an_unsolicited_cancel_report_carries_the_event_id_and_the_orders_totals() throws Exception {
        OrderEvent cancelled = event(OrderStatus.CANCELLED, 4, 76_004);
        Message r = FixReports.ended(cancelled, 2);
        assertThat(r.getChar(ExecType.FIELD)).isEqualTo(ExecType.CANCELED);
        assertThat(r.getChar(OrdStatus.FIELD)).isEqualTo(OrdStatus.CANCELED);
        assertThat(r.getString(ExecID.FIELD)).isEqualTo(cancelled.eventId());
        assertThat(r.getString(OrderID.FIELD)).isEqualTo(cancelled.orderId());
        assertThat(r.getString(ClOrdID.FIELD)).isEqualTo("L9");
        assertThat(r.isSetField(OrigClOrdID.FIELD)).as("unsolicited: no request to refer to").isFalse();
        assertThat(new BigDecimal(r.getString(LeavesQty.FIELD))).isEqualByComparingTo("0");
        assertThat(new BigDecimal(r.getString(CumQty.FIELD))).isEqualByComparingTo("4");
        assertThat(new BigDecimal(r.getString(OrderQty.FIELD))).isEqualByComparingTo("10");
        assertThat(new BigDecimal(r.getString(AvgPx.FIELD))).isEqualByComparingTo("190.01");
        assertThat(r.getUtcTimeStamp(TransactTime.FIELD))
                .isEqualTo(LocalDateTime.ofInstant(Instant.ofEpochSecond(1_700_000_000L, 250_000_000), ZoneOffset.UTC));
    }

    @Test
    void an_expiry_report_is_expired_with_nothing_filled() throws Exception {
        OrderEvent expired = event(OrderStatus.EXPIRED, 0, 0);
        Message r = FixReports.ended(expired, 2);
        assertThat(r.getChar(ExecType.FIELD)).isEqualTo(ExecType.EXPIRED);
        assertThat(r.getChar(OrdStatus.FIELD)).isEqualTo(OrdStatus.EXPIRED);
        assertThat(r.getString(ExecID.FIELD)).isEqualTo(expired.eventId())
                .isNotEqualTo(event(OrderStatus.CANCELLED, 0, 0).eventId());
        assertThat(new BigDecimal(r.getString(CumQty.FIELD))).isEqualByComparingTo("0");
        assertThat(new BigDecimal(r.getString(AvgPx.FIELD))).isEqualByComparingTo("0");
    }

    @Test
    void the_answer_to_a_cancel_request_carries_the_exec_id_of_the_cancels_order_event() throws Exception {
        UUID orderId = OrderIds.orderId("c1", "L9");
        OrderResponse order = new OrderResponse(orderId, "L9", "AAPL", "NASDAQ", Side.BUY, OrderType.LIMIT,
                TimeInForce.GTC, false, 10, 19_000L, null, OrderStatus.CANCELLED, 4, 19_001L, null, Instant.EPOCH,
                Instant.EPOCH, "nvirginia", "nvirginia", null);
        Message answer = FixReports.cancelled(order, "C9", "L9", 2);
        assertThat(answer.getString(ExecID.FIELD)).isEqualTo(event(OrderStatus.CANCELLED, 4, 76_004).eventId());
        assertThat(FixReports.cancelled(order, "C10", "L9", 2).getString(ExecID.FIELD))
                .as("deterministic").isEqualTo(answer.getString(ExecID.FIELD));
    }

    @Test
    void cancel_and_expiry_exec_ids_are_found_in_stored_messages_but_not_status_reports() {
        Message cancelled = FixReports.ended(event(OrderStatus.CANCELLED, 0, 0), 2);
        cancelled.getHeader().setString(8, "FIX.4.4");
        assertThat(FixSessions.reportedExecId(cancelled.toString())).isEqualTo(event(OrderStatus.CANCELLED, 0, 0).eventId());
        Message expired = FixReports.ended(event(OrderStatus.EXPIRED, 0, 0), 2);
        expired.getHeader().setString(8, "FIX.4.4");
        assertThat(FixSessions.reportedExecId(expired.toString())).isEqualTo(event(OrderStatus.EXPIRED, 0, 0).eventId());
        OrderResponse open = new OrderResponse(UUID.randomUUID(), "S1", "AAPL", "NASDAQ", Side.BUY, OrderType.LIMIT,
                TimeInForce.GTC, false, 10, 19_000L, null, OrderStatus.OPEN, 0, null, null, Instant.EPOCH,
                Instant.EPOCH, "nvirginia", "nvirginia", null);
        Message status = FixReports.status(open, 2);
        status.getHeader().setString(8, "FIX.4.4");
        assertThat(FixSessions.reportedExecId(status.toString())).as("a status report is no event").isNull();
    }

    private static ConsumerRecord<String, byte[]> record(long offset, byte[] value) {
        return new ConsumerRecord<>("order-events", 0, offset, "k", value);
    }

    @Test
    void records_that_do_not_decode_are_skipped_and_the_rest_delivered_in_order() {
        OrderEvent first = event(OrderStatus.CANCELLED, 0, 0);
        OrderEvent second = event(OrderStatus.EXPIRED, 0, 0);
        List<OrderEvent> delivered = new ArrayList<>();
        FixFillFeed.Feed<OrderEvent> feed = new FixFillFeed.Feed<>("order-events", "orders",
                WireFormat::decodeOrderEvent, delivered::add);
        int skipped = FixFillFeed.deliver(List.of(record(0, WireFormat.encode(first)),
                record(1, "not json".getBytes(StandardCharsets.UTF_8)), record(2, null),
                record(3, WireFormat.encode(new Fill("f1", "o1", "c1", "AAPL", "NASDAQ", Side.BUY, OrderType.LIMIT,
                        1, 1, "USD", 1, 1, 1, "nvirginia"))),
                record(4, WireFormat.encode(second))), feed);
        assertThat(skipped).isEqualTo(3);
        assertThat(delivered).containsExactly(first, second);
    }
}
