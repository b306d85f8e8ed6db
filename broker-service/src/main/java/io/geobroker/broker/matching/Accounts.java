package io.geobroker.broker.matching;

import io.geobroker.domain.Side;
import io.micrometer.core.instrument.Counter;

import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

/**
 * Customers' cash and holdings as the engine holds them: each read from Cassandra the first time a
 * command needs it and authoritative in memory from then on. Reserving for an order and giving a
 * reservation back are done here; every account changed is added to the group being built.
 */
final class Accounts {

    /** Where an account not in memory yet comes from. */
    interface Loader {
        CashAccount cash(String customerId, String currency);

        /** Every stored holding of the customer, by symbol (one partition: one read for all its symbols). */
        Map<String, Holding> holdings(String customerId);
    }

    /** Why an order could not be reserved for: the metric's reason and the text the customer reads. */
    record Shortfall(String reason, String text) {
    }

    private final Loader loader;
    private final Map<String, CashAccount> cash = new HashMap<>();
    private final Map<String, Holding> holdings = new HashMap<>();
    /** Customers whose stored holdings have all been read (a symbol with no row then holds nothing). */
    private final Set<String> holdingsRead = new HashSet<>();

    Accounts(Loader loader) {
        this.loader = loader;
    }

    /**
     * Accounts read from the store. A read Cassandra does not answer is made again until it is: the
     * command waits, as a group's batch does, instead of stopping the engine halfway through it.
     */
    static Accounts readFrom(EngineStore store, Retry retry, Counter rereads) {
        return new Accounts(new Loader() {
            @Override
            public CashAccount cash(String customerId, String currency) {
                return retry.untilAnswered("reading a cash account", rereads, () -> store.cash(customerId, currency));
            }

            @Override
            public Map<String, Holding> holdings(String customerId) {
                return retry.untilAnswered("reading holdings", rereads, () -> store.holdings(customerId));
            }
        });
    }

    /** A customer's cash in a currency. */
    CashAccount cash(String customerId, String currency) {
        return cash.computeIfAbsent(customerId + '\u0000' + currency, k -> loader.cash(customerId, currency));
    }

    /**
     * A customer's holding of a symbol. The first time one of the customer's holdings is needed, all
     * of them are read at once (they share a partition): a customer trading many symbols costs one
     * read, not one per symbol. What is in memory is authoritative and stays as it is.
     */
    Holding holding(String customerId, String symbol) {
        String key = customerId + '\u0000' + symbol;
        Holding h = holdings.get(key);
        if (h != null) {
            return h;
        }
        if (holdingsRead.add(customerId)) {
            loader.holdings(customerId).forEach((s, stored) -> holdings.putIfAbsent(customerId + '\u0000' + s, stored));
            h = holdings.get(key);
            if (h != null) {
                return h;
            }
        }
        h = new Holding(customerId, symbol, 0, 0);
        holdings.put(key, h);
        return h;
    }

    /**
     * Reserves what a new order needs (a buy its quantity at its book limit in cash, a sell its
     * shares); null when reserved, otherwise the shortfall, with nothing changed.
     */
    Shortfall reserve(OrderState o, Group group) {
        if (o.side == Side.BUY) {
            CashAccount account = cash(o.customerId, o.currency);
            long needed = Math.multiplyExact(o.quantity, o.bookLimit);
            if (account.available < needed) {
                return new Shortfall(Outcomes.INSUFFICIENT_CASH, "insufficient cash: the order needs " + needed + " "
                        + o.currency + " minor units, " + account.available + " available");
            }
            account.available -= needed;
            account.reserved += needed;
            o.reserved = needed;
            group.cash.add(account);
        } else {
            Holding h = holding(o.customerId, o.symbol);
            if (h.available < o.quantity) {
                return new Shortfall(Outcomes.INSUFFICIENT_SHARES, "insufficient shares: the order sells " + o.quantity
                        + " " + o.symbol + ", " + h.available + " available");
            }
            h.available -= o.quantity;
            h.reserved += o.quantity;
            o.reserved = o.quantity;
            group.holdings.add(h);
        }
        return null;
    }

    /** Gives back what an order still reserves. */
    void release(OrderState o, Group group) {
        if (o.reserved == 0) {
            return;
        }
        if (o.side == Side.BUY) {
            CashAccount account = cash(o.customerId, o.currency);
            account.reserved -= o.reserved;
            account.available += o.reserved;
            group.cash.add(account);
        } else {
            Holding h = holding(o.customerId, o.symbol);
            h.reserved -= o.reserved;
            h.available += o.reserved;
            group.holdings.add(h);
        }
        o.reserved = 0;
    }
}
