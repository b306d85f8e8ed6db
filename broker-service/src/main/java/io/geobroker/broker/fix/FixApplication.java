package io.geobroker.broker.fix;

import io.geobroker.broker.matching.Engine;
import io.geobroker.broker.order.OrderIds;
import io.geobroker.broker.order.OrderResponse;
import io.geobroker.broker.order.OrderService;
import io.geobroker.broker.order.PlaceOrderRequest;
import io.geobroker.broker.routing.PeerClient;
import io.geobroker.broker.web.ApiProblem;
import io.geobroker.domain.OrderStatus;
import io.geobroker.domain.OrderType;
import io.geobroker.domain.Side;
import io.geobroker.domain.SymbolDirectory;
import io.geobroker.domain.SymbolInfo;
import io.geobroker.domain.TimeInForce;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.http.ProblemDetail;
import quickfix.FieldNotFound;
import quickfix.Message;
import quickfix.RejectLogon;
import quickfix.Session;
import quickfix.SessionID;
import quickfix.UnsupportedMessageType;
import quickfix.field.ClOrdID;
import quickfix.field.CxlRejReason;
import quickfix.field.ExecInst;
import quickfix.field.MsgType;
import quickfix.field.OrdRejReason;
import quickfix.field.OrdType;
import quickfix.field.OrderQty;
import quickfix.field.OrigClOrdID;
import quickfix.field.Password;
import quickfix.field.Price;
import quickfix.field.StopPx;
import quickfix.field.Symbol;
import quickfix.fix44.ExecutionReport;

import java.math.BigDecimal;
import java.util.Optional;
import java.util.UUID;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * The FIX side of the broker: Logon checks the customer's token, and NewOrderSingle,
 * OrderCancelRequest and OrderStatusRequest go through the same {@link OrderService} as REST, so
 * reservations, idempotency (ClOrdID is the client order id), routing and answers are the same.
 * Every message is answered on the session it came from; a refusal is an ExecutionReport
 * (Rejected, with the REST API's problem detail as Text) or an OrderCancelReject. Other
 * application messages get QuickFIX/J's BusinessMessageReject; malformed ones its session Reject.
 */
final class FixApplication implements quickfix.Application {

    private static final Logger log = LoggerFactory.getLogger(FixApplication.class);

    /** The customer a token belongs to, if it is a customer's token. */
    interface Tokens extends Function<String, Optional<String>> {
    }

    private final OrderService orders;
    private final SymbolDirectory directory;
    private final Tokens tokens;
    private final FixSessions sessions;

    FixApplication(OrderService orders, SymbolDirectory directory, Tokens tokens, FixSessions sessions) {
        this.orders = orders;
        this.directory = directory;
        this.tokens = tokens;
        this.sessions = sessions;
    }

    @Override
    public void onCreate(SessionID sessionId) {
    }

    @Override
    public void onLogon(SessionID sessionId) {
        sessions.loggedOn(sessionId);
    }

    @Override
    public void onLogout(SessionID sessionId) {
    }

    @Override
    public void toAdmin(Message message, SessionID sessionId) {
    }

    /** A Logon must carry the token of the customer named by SenderCompID in Password(554). */
    @Override
    public void fromAdmin(Message message, SessionID sessionId) throws FieldNotFound, RejectLogon {
        if (!MsgType.LOGON.equals(message.getHeader().getString(MsgType.FIELD))) {
            return;
        }
        String customerId = sessionId.getTargetCompID();
        String token = message.isSetField(Password.FIELD) ? message.getString(Password.FIELD) : null;
        Predicate<String> isCustomer = customerId::equals;
        if (token == null || token.isEmpty() || tokens.apply(token).filter(isCustomer).isEmpty()) {
            throw new RejectLogon("SenderCompID must be a customer id and Password(554) that customer's token");
        }
    }

    @Override
    public void toApp(Message message, SessionID sessionId) {
    }

    @Override
    public void fromApp(Message message, SessionID sessionId) throws FieldNotFound, UnsupportedMessageType {
        String type = message.getHeader().getString(MsgType.FIELD);
        String customerId = sessionId.getTargetCompID();
        Message answer = switch (type) {
            case MsgType.ORDER_SINGLE -> newOrder(customerId, message);
            case MsgType.ORDER_CANCEL_REQUEST -> cancel(customerId, message);
            case MsgType.ORDER_STATUS_REQUEST -> status(customerId, message);
            default -> throw new UnsupportedMessageType();
        };
        Session session = Session.lookupSession(sessionId);
        if (session != null) {
            session.send(answer);
        }
    }

    private Message newOrder(String customerId, Message m) throws FieldNotFound {
        String clOrdId = m.getString(ClOrdID.FIELD);
        String symbol = m.isSetField(Symbol.FIELD) ? m.getString(Symbol.FIELD) : null;
        char side = m.isSetField(quickfix.field.Side.FIELD) ? m.getChar(quickfix.field.Side.FIELD) : '?';
        long quantity = 0;
        UUID orderId = OrderIds.orderId(customerId, clOrdId);
        try {
            quantity = wholeShares(m);
            SymbolInfo info = symbol == null ? null : directory.symbol(symbol).orElse(null);
            if (info == null) {
                return FixReports.rejected(clOrdId, orderId.toString(), symbol, side, quantity,
                        OrdRejReason.UNKNOWN_SYMBOL, symbol == null ? "Symbol(55) is required"
                                : "symbol '" + symbol + "' is not listed");
            }
            int digits = minorDigits(info);
            PlaceOrderRequest request = new PlaceOrderRequest(clOrdId, symbol, side(side), orderType(m),
                    quantity, price(m, Price.FIELD, digits), price(m, StopPx.FIELD, digits), timeInForce(m),
                    allOrNone(m));
            sessions.answering(orderId);
            try {
                OrderService.Placed placed = orders.place(customerId, request);
                return switch (placed.status()) {
                    case OK -> FixReports.status(placed.order(), digits);
                    default -> FixReports.accepted(placed.order(), digits);
                };
            } finally {
                sessions.answered(orderId);
            }
        } catch (IllegalArgumentException e) {
            return FixReports.rejected(clOrdId, orderId.toString(), symbol, side, quantity, OrdRejReason.OTHER,
                    e.getMessage());
        } catch (ApiProblem p) {
            ProblemDetail d = p.detail();
            int reason = d.getStatus() == 409 ? OrdRejReason.DUPLICATE_ORDER
                    : "Unknown symbol".equals(d.getTitle()) ? OrdRejReason.UNKNOWN_SYMBOL : OrdRejReason.OTHER;
            return FixReports.rejected(clOrdId, orderId.toString(), symbol, side, quantity, reason, text(d));
        } catch (Engine.EngineBusyException | Engine.DeadlinePassedException | PeerClient.PeerUnavailableException e) {
            return FixReports.rejected(clOrdId, orderId.toString(), symbol, side, quantity, OrdRejReason.OTHER,
                    "not accepted now, try again: " + describe(e));
        } catch (RuntimeException e) {
            log.warn("FIX order {} of {} failed", clOrdId, customerId, e);
            return FixReports.rejected(clOrdId, orderId.toString(), symbol, side, quantity, OrdRejReason.OTHER,
                    "internal error; the order's state is unknown: ask with an OrderStatusRequest");
        }
    }

    private Message cancel(String customerId, Message m) throws FieldNotFound {
        String clOrdId = m.getString(ClOrdID.FIELD);
        String origClOrdId = m.getString(OrigClOrdID.FIELD);
        UUID orderId = OrderIds.orderId(customerId, origClOrdId);
        sessions.answering(orderId);
        try {
            OrderResponse cancelled = orders.cancel(customerId, orderId);
            ExecutionReport answer = FixReports.cancelled(cancelled, clOrdId, origClOrdId, minorDigits(cancelled.symbol()));
            sessions.answeredWith(customerId, answer.getExecID().getValue());
            return answer;
        } catch (ApiProblem p) {
            ProblemDetail d = p.detail();
            if (d.getStatus() == 404) {
                return FixReports.cancelRejected(null, clOrdId, origClOrdId, null, CxlRejReason.UNKNOWN_ORDER, text(d));
            }
            OrderStatus now = d.getStatus() == 409 ? currentStatus(customerId, orderId) : null;
            int reason = now != null && now.isTerminal() ? CxlRejReason.TOO_LATE_TO_CANCEL : CxlRejReason.OTHER;
            return FixReports.cancelRejected(orderId.toString(), clOrdId, origClOrdId, now, reason, text(d));
        } catch (RuntimeException e) {
            if (!(e instanceof Engine.EngineBusyException || e instanceof PeerClient.PeerUnavailableException)) {
                log.warn("FIX cancel {} of {} failed", origClOrdId, customerId, e);
            }
            return FixReports.cancelRejected(orderId.toString(), clOrdId, origClOrdId, null, CxlRejReason.OTHER,
                    "not cancelled now, try again: " + describe(e));
        } finally {
            sessions.answered(orderId);
        }
    }

    private Message status(String customerId, Message m) throws FieldNotFound {
        String clOrdId = m.getString(ClOrdID.FIELD);
        UUID orderId = OrderIds.orderId(customerId, clOrdId);
        try {
            OrderResponse order = orders.get(customerId, orderId);
            return FixReports.status(order, minorDigits(order.symbol()));
        } catch (ApiProblem p) {
            return FixReports.unknownStatus(clOrdId, m.isSetField(Symbol.FIELD) ? m.getString(Symbol.FIELD) : null,
                    m.isSetField(quickfix.field.Side.FIELD) ? m.getChar(quickfix.field.Side.FIELD) : '?', text(p.detail()));
        }
    }

    private OrderStatus currentStatus(String customerId, UUID orderId) {
        try {
            return orders.get(customerId, orderId).status();
        } catch (ApiProblem e) {
            return null;
        }
    }

    private int minorDigits(String symbol) {
        return minorDigits(directory.symbol(symbol).orElseThrow());
    }

    private int minorDigits(SymbolInfo info) {
        return directory.exchange(info.exchange()).orElseThrow().currencyMinorDigits();
    }

    private static String text(ProblemDetail d) {
        return d.getDetail() == null ? d.getTitle() : d.getTitle() + ": " + d.getDetail();
    }

    private static String describe(RuntimeException e) {
        return e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
    }

    private static long wholeShares(Message m) throws FieldNotFound {
        BigDecimal quantity = new BigDecimal(m.getString(OrderQty.FIELD));
        try {
            return quantity.longValueExact();
        } catch (ArithmeticException e) {
            throw new IllegalArgumentException("OrderQty(38) must be a whole number of shares, was " + quantity.toPlainString());
        }
    }

    private static Side side(char side) {
        return switch (side) {
            case quickfix.field.Side.BUY -> Side.BUY;
            case quickfix.field.Side.SELL -> Side.SELL;
            default -> throw new IllegalArgumentException("Side(54) must be 1 (buy) or 2 (sell), was " + side);
        };
    }

    private static OrderType orderType(Message m) throws FieldNotFound {
        char type = m.getChar(OrdType.FIELD);
        return switch (type) {
            case OrdType.MARKET -> OrderType.MARKET;
            case OrdType.LIMIT -> OrderType.LIMIT;
            case OrdType.STOP_STOP_LOSS -> OrderType.STOP;
            case OrdType.STOP_LIMIT -> OrderType.STOP_LIMIT;
            default -> throw new IllegalArgumentException("OrdType(40) " + type
                    + " is not supported: 1 (market), 2 (limit), 3 (stop) or 4 (stop limit)");
        };
    }

    private static Long price(Message m, int field, int digits) throws FieldNotFound {
        if (!m.isSetField(field)) {
            return null;
        }
        return FixPrices.toMinorUnits(new BigDecimal(m.getString(field)), digits);
    }

    private static TimeInForce timeInForce(Message m) throws FieldNotFound {
        if (!m.isSetField(quickfix.field.TimeInForce.FIELD)) {
            return TimeInForce.DAY;
        }
        char tif = m.getChar(quickfix.field.TimeInForce.FIELD);
        return switch (tif) {
            case quickfix.field.TimeInForce.DAY -> TimeInForce.DAY;
            case quickfix.field.TimeInForce.GOOD_TILL_CANCEL -> TimeInForce.GTC;
            default -> throw new IllegalArgumentException("TimeInForce(59) " + tif + " is not supported: 0 (day) or 1 (GTC)");
        };
    }

    private static Boolean allOrNone(Message m) throws FieldNotFound {
        if (!m.isSetField(ExecInst.FIELD)) {
            return false;
        }
        String inst = m.getString(ExecInst.FIELD).replace(" ", "");
        if (!inst.chars().allMatch(c -> c == ExecInst.ALL_OR_NONE_AON)) {
            throw new IllegalArgumentException("ExecInst(18) '" + inst + "' is not supported: only G (all or none)");
        }
        return !inst.isEmpty();
    }
}
