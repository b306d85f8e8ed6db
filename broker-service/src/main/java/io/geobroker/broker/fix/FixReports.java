package io.geobroker.broker.fix;

import io.geobroker.broker.order.OrderIds;
import io.geobroker.broker.order.OrderResponse;
import io.geobroker.domain.Fill;
import io.geobroker.domain.OrderEvent;
import io.geobroker.domain.OrderStatus;
import io.geobroker.domain.OrderType;
import io.geobroker.domain.Side;
import io.geobroker.domain.TimeInForce;
import quickfix.field.AvgPx;
import quickfix.field.ClOrdID;
import quickfix.field.CumQty;
import quickfix.field.CxlRejReason;
import quickfix.field.CxlRejResponseTo;
import quickfix.field.ExecID;
import quickfix.field.ExecInst;
import quickfix.field.ExecType;
import quickfix.field.LastPx;
import quickfix.field.LastQty;
import quickfix.field.LeavesQty;
import quickfix.field.OrdRejReason;
import quickfix.field.OrdStatus;
import quickfix.field.OrdType;
import quickfix.field.OrderID;
import quickfix.field.OrderQty;
import quickfix.field.OrigClOrdID;
import quickfix.field.Price;
import quickfix.field.StopPx;
import quickfix.field.Symbol;
import quickfix.field.Text;
import quickfix.field.TransactTime;
import quickfix.fix44.ExecutionReport;
import quickfix.fix44.OrderCancelReject;

import java.math.BigDecimal;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.UUID;

/**
 * The broker's FIX messages to a client, built from the REST API's views of orders and from
 * fills. Quantities are whole shares; prices are decimals of the currency's major unit (see
 * {@link FixPrices}). Execution ids: a fill's id for a trade (so a client recognises a fill it has
 * seen), the order event's id for a cancel or expiry (the answer to a cancel request and the
 * unsolicited report of the same cancel carry one ExecID: {@link OrderIds#eventId}), otherwise a
 * fresh UUID.
 */
final class FixReports {

    private FixReports() {
    }

    /** The answer to an accepted placement: New, or Pending New for another region's symbol. */
    static ExecutionReport accepted(OrderResponse o, int minorDigits) {
        boolean pending = o.status() == OrderStatus.PENDING;
        ExecutionReport r = report(o.orderId().toString(), UUID.randomUUID().toString(),
                pending ? ExecType.PENDING_NEW : ExecType.NEW, pending ? OrdStatus.PENDING_NEW : OrdStatus.NEW,
                o.side(), o.quantity(), 0, BigDecimal.ZERO);
        describe(r, o, minorDigits);
        return r;
    }

    /** The answer to a status request or a repeated placement: the order as it stands (ExecType I). */
    static ExecutionReport status(OrderResponse o, int minorDigits) {
        ExecutionReport r = report(o.orderId().toString(), UUID.randomUUID().toString(), ExecType.ORDER_STATUS,
                ordStatus(o.status()), o.side(), leaves(o), o.filledQuantity(), average(o, minorDigits));
        describe(r, o, minorDigits);
        return r;
    }

    /** The answer to a cancel that took effect. */
    static ExecutionReport cancelled(OrderResponse o, String clOrdId, String origClOrdId, int minorDigits) {
        ExecutionReport r = report(o.orderId().toString(), OrderIds.eventId(o.orderId(), OrderStatus.CANCELLED).toString(),
                ExecType.CANCELED, OrdStatus.CANCELED, o.side(), 0, o.filledQuantity(), average(o, minorDigits));
        describe(r, o, minorDigits);
        r.set(new ClOrdID(clOrdId));
        r.set(new OrigClOrdID(origClOrdId));
        return r;
    }

    /** A refused placement (or status request of an unknown order): Rejected, with the reason as text. */
    static ExecutionReport rejected(String clOrdId, String orderId, String symbol, char side, long quantity,
                                    int reason, String text) {
        ExecutionReport r = new ExecutionReport(new OrderID(orderId == null ? "NONE" : orderId),
                new ExecID(UUID.randomUUID().toString()), new ExecType(ExecType.REJECTED),
                new OrdStatus(OrdStatus.REJECTED), new quickfix.field.Side(side), new LeavesQty(0), new CumQty(0),
                new AvgPx(0));
        r.setDecimal(LeavesQty.FIELD, BigDecimal.ZERO);
        r.setDecimal(CumQty.FIELD, BigDecimal.ZERO);
        r.setDecimal(AvgPx.FIELD, BigDecimal.ZERO);
        r.set(new ClOrdID(clOrdId));
        if (symbol != null) {
            r.set(new Symbol(symbol));
        }
        if (quantity > 0) {
            r.setDecimal(OrderQty.FIELD, BigDecimal.valueOf(quantity));
        }
        r.set(new OrdRejReason(reason));
        r.set(new Text(text));
        r.set(new TransactTime(LocalDateTime.now(ZoneOffset.UTC)));
        return r;
    }

    /** The answer to a status request for an order the customer does not have. */
    static ExecutionReport unknownStatus(String clOrdId, String symbol, char side, String text) {
        ExecutionReport r = rejected(clOrdId, null, symbol, side, 0, OrdRejReason.UNKNOWN_ORDER, text);
        r.set(new ExecType(ExecType.ORDER_STATUS));
        r.removeField(OrdRejReason.FIELD);
        return r;
    }

    /**
     * A trade: the fill's price and quantity, and the order's totals after it. Null when the fill
     * does not carry the order's totals (a fill published from a row written before they were kept).
     */
    static ExecutionReport trade(Fill f, int minorDigits) {
        if (!f.hasOrderTotals()) {
            return null;
        }
        long cum = f.orderFilledQuantity();
        long leaves = f.orderQuantity() - cum;
        ExecutionReport r = report(f.orderId(), f.fillId(), ExecType.TRADE,
                leaves == 0 ? OrdStatus.FILLED : OrdStatus.PARTIALLY_FILLED, f.side(), leaves, cum,
                FixPrices.average(f.orderFilledNotional(), cum, minorDigits));
        r.set(new ClOrdID(f.clientOrderId()));
        r.set(new Symbol(f.symbol()));
        r.setDecimal(OrderQty.FIELD, BigDecimal.valueOf(f.orderQuantity()));
        r.set(new OrdType(ordType(f.orderType())));
        r.setDecimal(LastQty.FIELD, BigDecimal.valueOf(f.quantity()));
        r.setDecimal(LastPx.FIELD, FixPrices.toDecimal(f.price(), minorDigits));
        r.set(new TransactTime(LocalDateTime.ofEpochSecond(f.durableTimeMicros() / 1_000_000,
                (int) (f.durableTimeMicros() % 1_000_000) * 1000, ZoneOffset.UTC)));
        return r;
    }

    /**
     * An unsolicited report of an order that ended without filling in full: ExecType and OrdStatus
     * Canceled (4) or Expired (C), ExecID the event's id, ClOrdID the order's, LeavesQty 0 and the
     * order's filled totals.
     */
    static ExecutionReport ended(OrderEvent e, int minorDigits) {
        char kind = e.status() == OrderStatus.EXPIRED ? ExecType.EXPIRED : ExecType.CANCELED;
        ExecutionReport r = report(e.orderId(), e.eventId(), kind, kind == ExecType.EXPIRED ? OrdStatus.EXPIRED
                : OrdStatus.CANCELED, e.side(), 0, e.filledQuantity(),
                FixPrices.average(e.filledNotional(), e.filledQuantity(), minorDigits));
        r.set(new ClOrdID(e.clientOrderId()));
        r.set(new Symbol(e.symbol()));
        r.setDecimal(OrderQty.FIELD, BigDecimal.valueOf(e.quantity()));
        r.set(new OrdType(ordType(e.orderType())));
        r.set(new TransactTime(LocalDateTime.ofEpochSecond(Math.floorDiv(e.eventTimeMicros(), 1_000_000),
                (int) Math.floorMod(e.eventTimeMicros(), 1_000_000) * 1000, ZoneOffset.UTC)));
        return r;
    }

    /** A refused cancel: Too late to cancel (the order is done), Unknown order, or Other with the reason. */
    static OrderCancelReject cancelRejected(String orderId, String clOrdId, String origClOrdId, OrderStatus status,
                                            int reason, String text) {
        OrderCancelReject r = new OrderCancelReject(new OrderID(orderId == null ? "NONE" : orderId),
                new ClOrdID(clOrdId), new OrigClOrdID(origClOrdId),
                new OrdStatus(status == null ? OrdStatus.REJECTED : ordStatus(status)),
                new CxlRejResponseTo(CxlRejResponseTo.ORDER_CANCEL_REQUEST));
        r.set(new CxlRejReason(reason));
        r.set(new Text(text));
        return r;
    }

    static char ordStatus(OrderStatus s) {
        return switch (s) {
            case PENDING -> OrdStatus.PENDING_NEW;
            case OPEN -> OrdStatus.NEW;
            case PARTIALLY_FILLED -> OrdStatus.PARTIALLY_FILLED;
            case FILLED -> OrdStatus.FILLED;
            case CANCELLED -> OrdStatus.CANCELED;
            case EXPIRED -> OrdStatus.EXPIRED;
            case REJECTED -> OrdStatus.REJECTED;
        };
    }

    static char ordType(OrderType t) {
        return switch (t) {
            case MARKET -> OrdType.MARKET;
            case LIMIT -> OrdType.LIMIT;
            case STOP -> OrdType.STOP_STOP_LOSS;
            case STOP_LIMIT -> OrdType.STOP_LIMIT;
        };
    }

    static char side(Side s) {
        return s == Side.BUY ? quickfix.field.Side.BUY : quickfix.field.Side.SELL;
    }

    /** The order's average fill price as the API shows it (rounded to a minor unit). */
    private static BigDecimal average(OrderResponse o, int minorDigits) {
        return o.averagePrice() == null ? BigDecimal.ZERO : FixPrices.toDecimal(o.averagePrice(), minorDigits);
    }

    private static long leaves(OrderResponse o) {
        return o.status().isTerminal() ? 0 : o.quantity() - o.filledQuantity();
    }

    private static ExecutionReport report(String orderId, String execId, char execType, char ordStatus, Side side,
                                          long leaves, long cum, BigDecimal averagePrice) {
        ExecutionReport r = new ExecutionReport(new OrderID(orderId), new ExecID(execId), new ExecType(execType),
                new OrdStatus(ordStatus), new quickfix.field.Side(side(side)), new LeavesQty(0), new CumQty(0),
                new AvgPx(0));
        r.setDecimal(LeavesQty.FIELD, BigDecimal.valueOf(leaves));
        r.setDecimal(CumQty.FIELD, BigDecimal.valueOf(cum));
        r.setDecimal(AvgPx.FIELD, averagePrice);
        return r;
    }

    private static void describe(ExecutionReport r, OrderResponse o, int minorDigits) {
        r.set(new ClOrdID(o.clientOrderId()));
        r.set(new Symbol(o.symbol()));
        r.setDecimal(OrderQty.FIELD, BigDecimal.valueOf(o.quantity()));
        r.set(new OrdType(ordType(o.type())));
        if (o.limitPrice() != null) {
            r.setDecimal(Price.FIELD, FixPrices.toDecimal(o.limitPrice(), minorDigits));
        }
        if (o.stopPrice() != null) {
            r.setDecimal(StopPx.FIELD, FixPrices.toDecimal(o.stopPrice(), minorDigits));
        }
        r.set(new quickfix.field.TimeInForce(o.timeInForce() == TimeInForce.GTC
                ? quickfix.field.TimeInForce.GOOD_TILL_CANCEL : quickfix.field.TimeInForce.DAY));
        if (o.allOrNone()) {
            r.set(new ExecInst(String.valueOf(ExecInst.ALL_OR_NONE_AON)));
        }
        Instant at = o.updatedAt() != null ? o.updatedAt() : Instant.now();
        r.set(new TransactTime(LocalDateTime.ofInstant(at, ZoneOffset.UTC)));
    }
}
