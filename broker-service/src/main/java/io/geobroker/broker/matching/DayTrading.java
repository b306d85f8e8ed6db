package io.geobroker.broker.matching;

import io.geobroker.broker.daytrading.DayTradingCommand;
import io.geobroker.broker.daytrading.DayTradingResult;
import io.geobroker.broker.daytrading.DayTradingSymbols;
import io.geobroker.broker.daytrading.Dollars;
import io.geobroker.broker.daytrading.LogEvent;
import io.geobroker.broker.daytrading.DtCommand;
import io.geobroker.broker.order.NewOrder;
import io.geobroker.broker.order.OrderIds;
import io.geobroker.domain.OrderStatus;
import io.geobroker.domain.OrderType;
import io.geobroker.domain.Side;
import io.geobroker.domain.TimeInForce;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * The day-trading command set applied by the engine thread to the region's own accounts, orders
 * and books (broker-service/DAY-TRADING.md): a BUY or SELL reserves at a signed quote and its
 * COMMIT executes an order at that quote's price; automatic buys and sells are GTC limit orders that
 * tickers fill like any other. Every command, quote, cash movement, share movement, trigger
 * execution and error goes to the audit log in the same group, so a command's effects and its log
 * are durable together.
 *
 * <p>A command checks everything before it changes anything: a refused one (nothing pending, not
 * enough cash) changes no state and is logged as an error.
 */
final class DayTrading {

    static final long PENDING_MILLIS = 60_000;
    private static final String COMMIT_PREFIX = "dt-c-";

    private final Map<String, SymbolState> symbols;
    private final DayTradingSymbols mapping;
    private final String currency;
    private final int digits;
    private final Accounts accounts;
    private final OrderLifecycle orders;
    private final Group group;
    private final EngineStore engineStore;
    private final DayTradingStore store;
    private final Retry retry;
    private final Clock clock;
    private final String region;
    private final Mac signer;

    private final Map<String, DayTrader> traders = new HashMap<>();
    /** Users whose index rows of {@link #indexedHour} are written (events are logged in the current hour only). */
    private final Set<String> indexed = new HashSet<>();
    private long indexedHour = -1;
    private long lastSeq;

    DayTrading(Map<String, SymbolState> symbols, String currency, int digits, Accounts accounts, OrderLifecycle orders,
               Group group, EngineStore engineStore, DayTradingStore store, Retry retry, Clock clock, String region) {
        this.symbols = symbols;
        this.mapping = new DayTradingSymbols(symbols.keySet());
        this.currency = currency;
        this.digits = digits;
        this.accounts = accounts;
        this.orders = orders;
        this.group = group;
        this.engineStore = engineStore;
        this.store = store;
        this.retry = retry;
        this.clock = clock;
        this.region = region;
        this.signer = newSigner();
        orders.onTriggerOrders(new OrderLifecycle.TriggerOrders() {
            @Override
            public void onFill(OrderState order, long quantity, long price) {
                onTriggerFill(order, quantity, price);
            }

            @Override
            public void onCancelled(OrderState order) {
                onTriggerOrderCancelled(order);
            }
        });
    }

    /** Applies a batch in order; its answers wait in the group for its commit. */
    void apply(Command.DayTrade batch) {
        List<DayTradingResult> results = new ArrayList<>(batch.commands().size());
        for (DayTradingCommand c : batch.commands()) {
            long start = System.nanoTime();
            DayTradingResult.Builder r = new DayTradingResult.Builder(c);
            execute(c, r, batch.logPath());
            r.engineMicros = (System.nanoTime() - start) / 1_000;
            results.add(r.build());
        }
        group.commands += batch.commands().size() - 1;
        group.answer(() -> batch.result().complete(results));
    }

    private void execute(DayTradingCommand c, DayTradingResult.Builder r, String logPath) {
        if (c.isMalformed()) {
            r.error = c.malformed();
            if (c.command() != null) {
                // an errorEvent needs a command of the schema's set: a line with an unknown one is answered, not logged
                event(c.user(), c.transactionNum(), "errorEvent", c.command(), c.stockSymbol(), null, null, null, null,
                        null, null, c.malformed());
            }
            return;
        }
        DayTrader t = c.user() == null ? null : trader(c.user());
        Long funds = c.amount() >= 0 ? Long.valueOf(c.amount()) : c.price() >= 0 ? Long.valueOf(c.price()) : null;
        event(c.user(), c.transactionNum(), "userCommand", c.command(), c.stockSymbol(), c.filename(), funds, null, null,
                null, null, null);
        if (t != null) {
            t.commandsLogged++;
            changed(t);
            expirePending(t, c.transactionNum());
        }
        SymbolState s = c.stockSymbol() == null ? null : symbols.get(mapping.symbolOf(c.stockSymbol()));
        if (s != null) {
            r.symbol = s.symbol();
        }
        String refused = switch (c.command()) {
            case ADD -> add(t, c, r);
            case QUOTE -> quote(t, c, s, r) == null ? noQuote(s) : null;
            case BUY -> buy(t, c, s, r);
            case SELL -> sell(t, c, s, r);
            case COMMIT_BUY -> commit(t, c, r, Side.BUY);
            case COMMIT_SELL -> commit(t, c, r, Side.SELL);
            case CANCEL_BUY -> cancel(t, c, r, Side.BUY);
            case CANCEL_SELL -> cancel(t, c, r, Side.SELL);
            case SET_BUY_AMOUNT -> setBuyAmount(t, c, s, r);
            case SET_SELL_AMOUNT -> setSellAmount(t, c, s, r);
            case SET_BUY_TRIGGER -> setBuyTrigger(t, c, s, r);
            case SET_SELL_TRIGGER -> setSellTrigger(t, c, s, r);
            case CANCEL_SET_BUY -> cancelSet(t, c, r, t.buyTriggers, Side.BUY);
            case CANCEL_SET_SELL -> cancelSet(t, c, r, t.sellTriggers, Side.SELL);
            case DISPLAY_SUMMARY -> summary(t, r);
            case DUMPLOG -> {
                r.log = new DayTradingResult.LogLink(logPath, c.user(), c.filename());
                yield null;
            }
        };
        if (refused != null) {
            r.error = refused;
            event(c.user(), c.transactionNum(), "errorEvent", c.command(), c.stockSymbol(), c.filename(), funds, null,
                    null, null, null, refused);
        }
        if (t != null && r.cash == null && c.command() != DtCommand.QUOTE) {
            r.cash = cashView(t);
        }
    }

    // ---- commands; each returns null when done, else why it was refused (nothing changed)

    private String add(DayTrader t, DayTradingCommand c, DayTradingResult.Builder r) {
        CashAccount account = accounts.cash(t.customerId, currency);
        try {
            Math.addExact(Math.addExact(account.available, account.reserved), c.amount());
        } catch (ArithmeticException e) {
            return "the balance would exceed what an account can hold";
        }
        account.available += c.amount();
        group.cash.add(account);
        group.transactions.add(engineStore.transaction(t.customerId, now(), java.util.UUID.randomUUID(), "DEPOSIT",
                currency, c.amount(), null, null, null, null, region));
        transaction(t, c.transactionNum(), DtCommand.ADD, "add", c.amount(), null, null);
        r.amount = money(c.amount());
        return null;
    }

    private String buy(DayTrader t, DayTradingCommand c, SymbolState s, DayTradingResult.Builder r) {
        Quote q = quote(t, c, s, r);
        if (q == null) {
            return noQuote(s);
        }
        long shares = c.amount() / q.price;
        if (shares == 0) {
            return "the amount " + money(c.amount()) + " buys no whole share at " + money(q.price);
        }
        long cost = shares * q.price;
        CashAccount account = accounts.cash(t.customerId, currency);
        if (account.available < cost) {
            return "insufficient funds: " + shares + " shares at " + money(q.price) + " cost " + money(cost) + ", "
                    + money(account.available) + " available";
        }
        account.available -= cost;
        account.reserved += cost;
        group.cash.add(account);
        t.buys.add(new DayTrader.Pending(s.symbol(), c.stockSymbol(), shares, q.price, q.atMillis, cost, c.transactionNum()));
        r.quantity = shares;
        r.amount = money(cost);
        return null;
    }

    private String sell(DayTrader t, DayTradingCommand c, SymbolState s, DayTradingResult.Builder r) {
        Quote q = quote(t, c, s, r);
        if (q == null) {
            return noQuote(s);
        }
        long shares = c.amount() / q.price;
        if (shares == 0) {
            return "the amount " + money(c.amount()) + " is less than one share at " + money(q.price);
        }
        Holding h = accounts.holding(t.customerId, s.symbol());
        if (h.available < shares) {
            return "insufficient shares: selling " + shares + " " + s.symbol() + " needs them, " + h.available + " available";
        }
        h.available -= shares;
        h.reserved += shares;
        group.holdings.add(h);
        t.sells.add(new DayTrader.Pending(s.symbol(), c.stockSymbol(), shares, q.price, q.atMillis, shares, c.transactionNum()));
        r.quantity = shares;
        r.amount = money(shares * q.price);
        return null;
    }

    private String commit(DayTrader t, DayTradingCommand c, DayTradingResult.Builder r, Side side) {
        List<DayTrader.Pending> stack = side == Side.BUY ? t.buys : t.sells;
        if (stack.isEmpty()) {
            return "no pending " + side + " younger than 60 s";
        }
        DayTrader.Pending p = stack.get(stack.size() - 1);
        SymbolState s = symbols.get(p.symbol());
        if (s.quoteSequence < 0) {
            return noQuote(s);
        }
        stack.remove(stack.size() - 1);
        String clientOrderId = COMMIT_PREFIX + c.transactionNum() + "-" + nextSeq();
        NewOrder n = new NewOrder(OrderIds.orderId(t.customerId, clientOrderId), t.customerId, clientOrderId, s.info,
                currency, side, OrderType.LIMIT, TimeInForce.DAY, false, p.quantity(), p.price(), null, region, region);
        orders.executeAt(s, n, p.price(), p.reserved());
        long notional = p.quantity() * p.price();
        t.symbols.add(s.symbol());
        transaction(t, c.transactionNum(), c.command(), side == Side.BUY ? "remove" : "add", notional, s.symbol(),
                side == Side.BUY ? p.quantity() : -p.quantity());
        sharesEvent(t.customerId, c.transactionNum(), c.command(), p.stockSymbol(), side == Side.BUY ? p.quantity()
                : -p.quantity(), s.symbol());
        r.stockSymbol = p.stockSymbol();
        r.symbol = s.symbol();
        r.quantity = p.quantity();
        r.price = money(p.price());
        r.amount = money(notional);
        return null;
    }

    private String cancel(DayTrader t, DayTradingCommand c, DayTradingResult.Builder r, Side side) {
        List<DayTrader.Pending> stack = side == Side.BUY ? t.buys : t.sells;
        if (stack.isEmpty()) {
            return "no pending " + side + " younger than 60 s";
        }
        DayTrader.Pending p = stack.remove(stack.size() - 1);
        release(t, p, side);
        r.stockSymbol = p.stockSymbol();
        r.symbol = p.symbol();
        r.quantity = p.quantity();
        r.price = money(p.price());
        return null;
    }

    private String setBuyAmount(DayTrader t, DayTradingCommand c, SymbolState s, DayTradingResult.Builder r) {
        DayTrader.Trigger old = t.buyTriggers.get(c.stockSymbol());
        CashAccount account = accounts.cash(t.customerId, currency);
        long freed = old == null ? 0 : old.armed() ? liveReservation(old.orderId) : old.reserved;
        if (account.available + freed < c.amount()) {
            return "insufficient funds: " + money(c.amount()) + " to reserve, " + money(account.available + freed)
                    + " available";
        }
        if (old != null) {
            endTrigger(t, old, Side.BUY);
        }
        account.available -= c.amount();
        account.reserved += c.amount();
        group.cash.add(account);
        DayTrader.Trigger trigger = newTrigger(s, c);
        trigger.reserved = c.amount();
        t.buyTriggers.put(c.stockSymbol(), trigger);
        r.amount = money(c.amount());
        return null;
    }

    private String setSellAmount(DayTrader t, DayTradingCommand c, SymbolState s, DayTradingResult.Builder r) {
        DayTrader.Trigger old = t.sellTriggers.get(c.stockSymbol());
        Holding h = accounts.holding(t.customerId, s.symbol());
        long freed = old != null && old.armed() ? liveReservation(old.orderId) : 0;
        if (h.available + freed == 0) {
            return "no shares of " + s.symbol() + " to sell";
        }
        if (old != null) {
            endTrigger(t, old, Side.SELL);
        }
        t.sellTriggers.put(c.stockSymbol(), newTrigger(s, c));
        r.amount = money(c.amount());
        return null;
    }

    private String setBuyTrigger(DayTrader t, DayTradingCommand c, SymbolState s, DayTradingResult.Builder r) {
        DayTrader.Trigger trigger = t.buyTriggers.get(c.stockSymbol());
        if (trigger == null) {
            return "no SET_BUY_AMOUNT for " + c.stockSymbol();
        }
        long shares = trigger.amount / c.price();
        if (shares == 0) {
            return "the amount " + money(trigger.amount) + " buys no whole share at " + money(c.price());
        }
        CashAccount account = accounts.cash(t.customerId, currency);
        long freed = trigger.armed() ? liveReservation(trigger.orderId) : trigger.reserved;
        if (account.available + freed < shares * c.price()) {
            return "insufficient funds: " + shares + " shares at " + money(c.price()) + " need "
                    + money(shares * c.price()) + ", " + money(account.available + freed) + " available";
        }
        endTrigger(t, trigger, Side.BUY);
        arm(t, trigger, s, Side.BUY, shares, c);
        r.quantity = shares;
        r.price = money(c.price());
        r.amount = money(trigger.amount);
        return null;
    }

    private String setSellTrigger(DayTrader t, DayTradingCommand c, SymbolState s, DayTradingResult.Builder r) {
        DayTrader.Trigger trigger = t.sellTriggers.get(c.stockSymbol());
        if (trigger == null) {
            return "no SET_SELL_AMOUNT for " + c.stockSymbol();
        }
        long shares = trigger.amount / c.price();
        if (shares == 0) {
            return "the amount " + money(trigger.amount) + " is less than one share at " + money(c.price());
        }
        Holding h = accounts.holding(t.customerId, s.symbol());
        long freed = trigger.armed() ? liveReservation(trigger.orderId) : 0;
        if (h.available + freed < shares) {
            return "insufficient shares: selling " + shares + " " + s.symbol() + " needs them, " + (h.available + freed)
                    + " available";
        }
        endTrigger(t, trigger, Side.SELL);
        arm(t, trigger, s, Side.SELL, shares, c);
        r.quantity = shares;
        r.price = money(c.price());
        r.amount = money(trigger.amount);
        return null;
    }

    private String cancelSet(DayTrader t, DayTradingCommand c, DayTradingResult.Builder r,
                             TreeMap<String, DayTrader.Trigger> triggers, Side side) {
        DayTrader.Trigger trigger = triggers.remove(c.stockSymbol());
        if (trigger == null) {
            return "no automatic " + (side == Side.BUY ? "buy" : "sell") + " of " + c.stockSymbol() + " to cancel";
        }
        endTrigger(t, trigger, side);
        r.amount = money(trigger.amount);
        return null;
    }

    private String summary(DayTrader t, DayTradingResult.Builder r) {
        r.cash = cashView(t);
        List<DayTradingResult.HoldingView> holdings = new ArrayList<>();
        for (String symbol : t.symbols) {
            Holding h = accounts.holding(t.customerId, symbol);
            holdings.add(new DayTradingResult.HoldingView(symbol, h.available, h.reserved));
        }
        r.holdings = holdings;
        r.pendingBuys = t.buys.stream().map(this::pendingView).toList();
        r.pendingSells = t.sells.stream().map(this::pendingView).toList();
        List<DayTradingResult.TriggerView> triggers = new ArrayList<>();
        t.buyTriggers.values().forEach(x -> triggers.add(triggerView(x, Side.BUY)));
        t.sellTriggers.values().forEach(x -> triggers.add(triggerView(x, Side.SELL)));
        r.triggers = triggers;
        r.transactions = t.recent.stream().map(x -> new DayTradingResult.TransactionView(x.transactionNum(), x.command(),
                x.action(), money(x.funds()), x.symbol(), x.shares(), x.atMillis())).toList();
        r.triggersFilled = t.triggersFilled;
        r.triggersEndedPartlyFilled = t.triggersEndedPartlyFilled;
        r.commandsLogged = t.commandsLogged;
        return null;
    }

    // ---- automatic buys and sells

    private DayTrader.Trigger newTrigger(SymbolState s, DayTradingCommand c) {
        DayTrader.Trigger trigger = new DayTrader.Trigger();
        trigger.symbol = s.symbol();
        trigger.stockSymbol = c.stockSymbol();
        trigger.amount = c.amount();
        trigger.transactionNum = c.transactionNum();
        return trigger;
    }

    /** Places the trigger's GTC limit order: a buy's reservation moves from the trigger to the order. */
    private void arm(DayTrader t, DayTrader.Trigger trigger, SymbolState s, Side side, long shares, DayTradingCommand c) {
        String clientOrderId = OrderLifecycle.TRIGGER_PREFIX + c.transactionNum() + "-" + nextSeq();
        NewOrder n = new NewOrder(OrderIds.orderId(t.customerId, clientOrderId), t.customerId, clientOrderId, s.info,
                currency, side, OrderType.LIMIT, TimeInForce.GTC, false, shares, c.price(), null, region, region);
        OrderState o = orders.openResting(s, n);
        if (o.status == OrderStatus.REJECTED) {
            // checked above: the cash or shares were there
            throw new IllegalStateException("an armed day-trading order was refused: " + o.rejectReason);
        }
        trigger.orderId = o.id;
        trigger.price = c.price();
        trigger.transactionNum = c.transactionNum();
        t.symbols.add(s.symbol());
    }

    /**
     * Gives back what a trigger holds: its armed order is cancelled (its reservation released), or
     * a buy's reserved cash released. The trigger itself stays as it is (the caller drops or re-arms it).
     * An armed order that had fills is counted: its fills stay logged under the trigger's transaction
     * number, which no longer names a live trigger.
     */
    private void endTrigger(DayTrader t, DayTrader.Trigger trigger, Side side) {
        if (trigger.armed()) {
            OrderState o = orders.find(trigger.orderId);
            if (o != null && o.filledQuantity > 0) {
                t.triggersEndedPartlyFilled++;
            }
            orders.cancelLive(trigger.orderId);
            trigger.orderId = null;
            trigger.price = null;
        } else if (side == Side.BUY && trigger.reserved > 0) {
            CashAccount account = accounts.cash(t.customerId, currency);
            account.reserved -= trigger.reserved;
            account.available += trigger.reserved;
            group.cash.add(account);
        }
        trigger.reserved = 0;
    }

    /** What a live order still reserves (0 when it is no longer live). */
    private long liveReservation(java.util.UUID orderId) {
        OrderState o = orders.find(orderId);
        return o != null && o.isLive() ? o.reserved : 0;
    }

    /** A fill of an automatic buy or sell's order (from a ticker): logged with the trigger's transaction number. */
    private void onTriggerFill(OrderState o, long quantity, long price) {
        DayTrader t = trader(o.customerId);
        DayTrader.Trigger trigger = t.triggerOf(o.id);
        if (trigger == null) {
            return;
        }
        DtCommand command = o.side == Side.BUY ? DtCommand.SET_BUY_TRIGGER : DtCommand.SET_SELL_TRIGGER;
        long notional = quantity * price;
        event(t.customerId, trigger.transactionNum, "systemEvent", command, trigger.stockSymbol, null, notional, null,
                null, null, null, null);
        transaction(t, trigger.transactionNum, command, o.side == Side.BUY ? "remove" : "add", notional, o.symbol,
                o.side == Side.BUY ? quantity : -quantity);
        sharesEvent(t.customerId, trigger.transactionNum, command, trigger.stockSymbol,
                o.side == Side.BUY ? quantity : -quantity, o.symbol);
        if (o.status == OrderStatus.FILLED) {
            (o.side == Side.BUY ? t.buyTriggers : t.sellTriggers).values().remove(trigger);
            t.triggersFilled++;
        }
        changed(t);
    }

    /**
     * An automatic buy's or sell's order cancelled by the customer outside day trading (REST, FIX,
     * the web page) ends the trigger, as CANCEL_SET_BUY or CANCEL_SET_SELL would: the order's
     * cancellation has already given back what it reserved, and fills it had are counted as ended.
     */
    private void onTriggerOrderCancelled(OrderState o) {
        DayTrader t = trader(o.customerId);
        DayTrader.Trigger trigger = t.triggerOf(o.id);
        if (trigger == null) {
            return;
        }
        (o.side == Side.BUY ? t.buyTriggers : t.sellTriggers).values().remove(trigger);
        if (o.filledQuantity > 0) {
            t.triggersEndedPartlyFilled++;
        }
        event(t.customerId, trigger.transactionNum, "debugEvent",
                o.side == Side.BUY ? DtCommand.CANCEL_SET_BUY : DtCommand.CANCEL_SET_SELL, trigger.stockSymbol, null,
                null, null, null, null, null, "automatic " + (o.side == Side.BUY ? "buy" : "sell") + " of "
                        + trigger.stockSymbol + " ended: its order " + o.id + " was cancelled outside day trading");
        changed(t);
    }

    /** The user's stored state is written once per group, with its final value, when the group commits. */
    private void changed(DayTrader t) {
        group.latest.putIfAbsent(t, () -> store.user(t));
    }

    // ---- pending BUYs and SELLs

    /** Drops the user's pending BUYs and SELLs older than 60 s, giving back what they reserve. */
    private void expirePending(DayTrader t, long transactionNum) {
        long oldest = clock.millis() - PENDING_MILLIS;
        expire(t, t.buys, Side.BUY, oldest, transactionNum);
        expire(t, t.sells, Side.SELL, oldest, transactionNum);
    }

    private void expire(DayTrader t, List<DayTrader.Pending> stack, Side side, long oldest, long transactionNum) {
        for (Iterator<DayTrader.Pending> it = stack.iterator(); it.hasNext(); ) {
            DayTrader.Pending p = it.next();
            if (p.quotedAtMillis() <= oldest) {
                it.remove();
                release(t, p, side);
                event(t.customerId, transactionNum, "debugEvent", side == Side.BUY ? DtCommand.BUY : DtCommand.SELL,
                        p.stockSymbol(), null, null, null, null, null, null,
                        "pending " + side + " of transaction " + p.transactionNum() + " expired 60 s after its quote");
            }
        }
    }

    private void release(DayTrader t, DayTrader.Pending p, Side side) {
        if (side == Side.BUY) {
            CashAccount account = accounts.cash(t.customerId, currency);
            account.reserved -= p.reserved();
            account.available += p.reserved();
            group.cash.add(account);
        } else {
            Holding h = accounts.holding(t.customerId, p.symbol());
            h.reserved -= p.reserved();
            h.available += p.reserved();
            group.holdings.add(h);
        }
    }

    // ---- quotes

    private record Quote(long price, long atMillis) {
    }

    /** The symbol's latest ticker price, signed and logged; null when the symbol has had no ticker yet. */
    private Quote quote(DayTrader t, DayTradingCommand c, SymbolState s, DayTradingResult.Builder r) {
        if (s.quoteSequence < 0 || s.quotePrice <= 0) {
            return null;
        }
        long at = clock.millis();
        long quoteServerTime = s.quoteExchangeTimeMicros / 1_000;
        String key = sign(s.quotePrice + "," + c.stockSymbol() + "," + t.customerId + "," + quoteServerTime);
        event(t.customerId, c.transactionNum(), "quoteServer", null, c.stockSymbol(), null, null, s.quotePrice,
                quoteServerTime, key, null, null);
        r.price = money(s.quotePrice);
        return new Quote(s.quotePrice, at);
    }

    private static String noQuote(SymbolState s) {
        return "no price for " + s.symbol() + " yet: it has had no ticker";
    }

    private String sign(String text) {
        byte[] mac = signer.doFinal(text.getBytes(StandardCharsets.UTF_8));
        return Base64.getUrlEncoder().withoutPadding().encodeToString(mac);
    }

    /** Quotes are signed with a key of this process (HMAC-SHA256): it proves a quote came from this broker. */
    private static Mac newSigner() {
        byte[] key = new byte[32];
        new SecureRandom().nextBytes(key);
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(key, "HmacSHA256"));
            return mac;
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HmacSHA256 is not available", e);
        }
    }

    // ---- the audit log

    /** A movement of the user's total cash: logged as an accountTransaction and kept among its latest. */
    private void transaction(DayTrader t, long transactionNum, DtCommand command, String action, long funds,
                             String symbol, Long shares) {
        accountEvent(t.customerId, transactionNum, action, funds);
        t.remember(new DayTrader.Transaction(transactionNum, command.name(), action, funds, symbol, shares, clock.millis()));
    }

    private void accountEvent(String user, long transactionNum, String action, long funds) {
        event(user, transactionNum, "accountTransaction", null, null, null, funds, null, null, null, action, null);
    }

    private void sharesEvent(String user, long transactionNum, DtCommand command, String stockSymbol, long shares,
                             String symbol) {
        event(user, transactionNum, "debugEvent", command, stockSymbol, null, null, null, null, null, null,
                "shares " + (shares >= 0 ? "+" : "") + shares + " " + symbol);
    }

    private void event(String user, long transactionNum, String kind, DtCommand command, String stockSymbol,
                       String filename, Long funds, Long price, Long quoteServerTime, String cryptokey, String action,
                       String message) {
        String customer = user == null ? "" : user;
        long at = clock.millis();
        long hour = at / 3_600_000;
        if (hour != indexedHour) {
            indexed.clear();
            indexedHour = hour;
        }
        if (indexed.add(customer)) {
            group.transactions.add(store.hour(customer, hour));
            group.transactions.add(store.userHour(customer, hour));
            group.transactions.add(store.day(Math.floorDiv(hour, 24)));
        }
        DayTradingStore.Chunk chunk = (DayTradingStore.Chunk) group.latest.computeIfAbsent(
                "log\u0000" + customer + '\u0000' + hour, k -> store.new Chunk(customer, hour, nextSeq()));
        chunk.events.add(new LogEvent(kind, at, transactionNum, command == null ? null : command.name(), stockSymbol,
                filename, funds, price, quoteServerTime, cryptokey, action, message));
    }

    /** The region's log sequence: increasing and unique across restarts (at least the time in microseconds). */
    private long nextSeq() {
        lastSeq = Math.max(lastSeq + 1, clock.millis() * 1_000);
        return lastSeq;
    }

    // ---- state

    private DayTrader trader(String customerId) {
        return traders.computeIfAbsent(customerId, id -> new DayTrader(id,
                retry.untilAnswered("reading a day-trading user", null, () -> store.user(id))));
    }

    private DayTradingResult.Cash cashView(DayTrader t) {
        CashAccount a = accounts.cash(t.customerId, currency);
        return new DayTradingResult.Cash(currency, money(a.available), money(a.reserved));
    }

    private DayTradingResult.PendingView pendingView(DayTrader.Pending p) {
        return new DayTradingResult.PendingView(p.symbol(), p.stockSymbol(), p.quantity(), money(p.price()),
                p.quotedAtMillis());
    }

    private DayTradingResult.TriggerView triggerView(DayTrader.Trigger x, Side side) {
        OrderState o = x.orderId == null ? null : orders.find(x.orderId);
        String status = x.orderId == null ? "AMOUNT_SET" : o == null ? "ARMED" : o.status.name();
        return new DayTradingResult.TriggerView(side.name(), x.symbol, x.stockSymbol, money(x.amount),
                x.price == null ? null : money(x.price), x.orderId == null ? null : x.orderId.toString(), status);
    }

    private String money(long minorUnits) {
        return Dollars.format(minorUnits, digits);
    }

    private Instant now() {
        return clock.instant().truncatedTo(ChronoUnit.MILLIS);
    }
}
