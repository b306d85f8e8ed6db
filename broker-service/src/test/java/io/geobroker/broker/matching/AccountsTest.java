package io.geobroker.broker.matching;

import io.geobroker.domain.Side;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class AccountsTest {

    private final List<String> reads = new ArrayList<>();
    private final Group group = new Group(new WriteClock());
    private final Accounts accounts = new Accounts(new Accounts.Loader() {
        @Override
        public CashAccount cash(String customerId, String currency) {
            reads.add("cash " + customerId + " " + currency);
            return new CashAccount(customerId, currency, 10_000, 0);
        }

        @Override
        public Map<String, Holding> holdings(String customerId) {
            reads.add("holdings " + customerId);
            return Map.of("AAPL", new Holding(customerId, "AAPL", 50, 0));
        }
    });

    @Test
    void an_account_is_read_once_and_then_kept_in_memory() {
        CashAccount first = accounts.cash("c1", "USD");
        first.available = 1;

        assertThat(accounts.cash("c1", "USD")).isSameAs(first);
        accounts.cash("c1", "EUR");
        accounts.holding("c1", "AAPL");
        accounts.holding("c1", "AAPL");
        accounts.holding("c1", "MSFT");
        assertThat(reads).containsExactly("cash c1 USD", "cash c1 EUR", "holdings c1");
        assertThat(accounts.holding("c1", "AAPL").available).isEqualTo(50);
        assertThat(accounts.holding("c1", "MSFT").available).as("no stored row: nothing held").isZero();
    }

    @Test
    void a_buy_reserves_its_quantity_at_its_book_limit_in_cash() {
        OrderState buy = TestOrders.order("AAPL", Side.BUY, 10, 300);

        assertThat(accounts.reserve(buy, group)).isNull();

        CashAccount usd = accounts.cash("c1", "USD");
        assertThat(usd.available).isEqualTo(7_000);
        assertThat(usd.reserved).isEqualTo(3_000);
        assertThat(buy.reserved).isEqualTo(3_000);
        assertThat(group.cash).containsExactly(usd);
    }

    @Test
    void rejects_a_buy_without_enough_cash_and_changes_nothing() {
        OrderState buy = TestOrders.order("AAPL", Side.BUY, 10, 1_001);

        Accounts.Shortfall shortfall = accounts.reserve(buy, group);

        assertThat(shortfall.reason()).isEqualTo(Outcomes.INSUFFICIENT_CASH);
        assertThat(shortfall.text()).isEqualTo("insufficient cash: the order needs 10010 USD minor units, 10000 available");
        assertThat(accounts.cash("c1", "USD").available).isEqualTo(10_000);
        assertThat(buy.reserved).isZero();
        assertThat(group.cash).isEmpty();
    }

    @Test
    void a_sell_reserves_its_shares() {
        OrderState sell = TestOrders.order("AAPL", Side.SELL, 20, 100);

        assertThat(accounts.reserve(sell, group)).isNull();

        Holding aapl = accounts.holding("c1", "AAPL");
        assertThat(aapl.available).isEqualTo(30);
        assertThat(aapl.reserved).isEqualTo(20);
        assertThat(sell.reserved).isEqualTo(20);
        assertThat(group.holdings).containsExactly(aapl);
        assertThat(group.cash).isEmpty();
    }

    @Test
    void rejects_sell_without_holdings() {
        OrderState sell = TestOrders.order("AAPL", Side.SELL, 51, 100);

        Accounts.Shortfall shortfall = accounts.reserve(sell, group);

        assertThat(shortfall.reason()).isEqualTo(Outcomes.INSUFFICIENT_SHARES);
        assertThat(shortfall.text()).isEqualTo("insufficient shares: the order sells 51 AAPL, 50 available");
        assertThat(accounts.holding("c1", "AAPL").available).isEqualTo(50);
        assertThat(group.holdings).isEmpty();
    }

    @Test
    void release_gives_back_what_is_still_reserved_once() {
        OrderState buy = TestOrders.order("AAPL", Side.BUY, 10, 300);
        accounts.reserve(buy, group);
        buy.reserved -= 900;
        accounts.cash("c1", "USD").reserved -= 900;
        group.clear();

        accounts.release(buy, group);
        accounts.release(buy, group);

        CashAccount usd = accounts.cash("c1", "USD");
        assertThat(usd.reserved).isZero();
        assertThat(usd.available).isEqualTo(7_000 + 2_100);
        assertThat(buy.reserved).isZero();
        assertThat(group.cash).containsExactly(usd);
    }

    @Test
    void releasing_an_order_that_reserves_nothing_touches_no_account() {
        OrderState sell = TestOrders.order("AAPL", Side.SELL, 5, 100);

        accounts.release(sell, group);

        assertThat(reads).isEmpty();
        assertThat(group.holdings).isEmpty();
    }
}
