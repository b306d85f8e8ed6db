package io.geobroker.broker.it;

import io.geobroker.domain.Fill;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A buyer and a seller with as many resting limit orders on one symbol at one price, all of which a
 * single ticker offering their whole quantity fills in one group; and the checks that it did so
 * exactly once with the books balanced. Shared by the tests of large groups.
 */
final class CrossingOrders {

    static final long PRICE = 10_000;
    static final long QTY = 10;
    static final long DEPOSIT = 100_000_000;

    final String symbol;
    final String buyer;
    final String seller;
    /** Order id → its owner's token. */
    final Map<String, String> owners = new HashMap<>();
    private final BrokerApi api;
    private final int perSide;
    private final long sharesInAccounts;

    /**
     * Creates the two customers (USD {@link #DEPOSIT} each), gives them {@code sellerShares} and
     * {@code buyerShares} of the symbol, then places {@code perSide} orders on each side.
     */
    CrossingOrders(BrokerApi api, String prefix, String symbol, int perSide, long sellerShares, long buyerShares) {
        this.api = api;
        this.symbol = symbol;
        this.perSide = perSide;
        this.sharesInAccounts = sellerShares + buyerShares;
        buyer = api.customer(prefix + "-buyer", DEPOSIT);
        seller = api.customer(prefix + "-seller", DEPOSIT);
        assertThat(api.seedShares(prefix + "-seller", symbol, sellerShares).status()).isEqualTo(201);
        if (buyerShares > 0) {
            assertThat(api.seedShares(prefix + "-buyer", symbol, buyerShares).status()).isEqualTo(201);
        }
        for (int i = 0; i < perSide; i++) {
            owners.put(place(buyer, "b" + i, "BUY"), buyer);
            owners.put(place(seller, "s" + i, "SELL"), seller);
        }
    }

    /** The quantity a ticker must offer to fill every order. */
    long totalQuantity() {
        return owners.size() * QTY;
    }

    /**
     * Every order has exactly one fill among {@code fills} (however often published) and is FILLED,
     * the ledgers hold one entry per fill, and cash and shares are conserved between the customers
     * and the exchange side.
     */
    void assertFilledOnceWithBooksBalanced(List<Fill> fills) {
        Map<String, Set<String>> idsPerOrder = Books.idsPerOrder(fills);
        assertThat(idsPerOrder.keySet()).containsExactlyInAnyOrderElementsOf(owners.keySet());
        assertThat(idsPerOrder.values()).as("one fill per order").allSatisfy(ids -> assertThat(ids).hasSize(1));
        for (Map.Entry<String, String> e : owners.entrySet()) {
            BrokerApi.Response order = api.order(e.getValue(), e.getKey());
            assertThat(order.text("status")).isEqualTo("FILLED");
            assertThat(order.number("filledQuantity")).isEqualTo(QTY);
        }
        assertThat(Books.ledger(api, buyer, "BUY")).isEqualTo(perSide);
        assertThat(Books.ledger(api, seller, "SELL")).isEqualTo(perSide);
        List<Fill> unique = Books.unique(fills);
        assertThat(Books.total(api.cash(buyer, "USD")) + Books.total(api.cash(seller, "USD")) + Books.exchangeCash(unique))
                .as("cash is conserved").isEqualTo(2 * DEPOSIT);
        assertThat(Books.total(api.shares(buyer, symbol)) + Books.total(api.shares(seller, symbol))
                + Books.exchangeShares(unique, symbol)).as("shares are conserved").isEqualTo(sharesInAccounts);
    }

    private String place(String token, String client, String side) {
        BrokerApi.Response r = api.place(token, client, symbol, side, "LIMIT", QTY, "limitPrice", PRICE,
                "timeInForce", "GTC");
        assertThat(r.status()).as("%s", r.body()).isEqualTo(201);
        return r.text("orderId");
    }
}
