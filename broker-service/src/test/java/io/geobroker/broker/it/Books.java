package io.geobroker.broker.it;

import io.geobroker.domain.Fill;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;

/** Checks on a customer's books and on the fills the exchange side saw, shared by the exactly-once tests. */
final class Books {

    private Books() {
    }

    static Set<String> distinctIds(List<Fill> fills) {
        Set<String> ids = new HashSet<>();
        fills.forEach(f -> ids.add(f.fillId()));
        return ids;
    }

    /** Fill ids per order id, however often each fill was published. */
    static Map<String, Set<String>> idsPerOrder(List<Fill> fills) {
        return fills.stream().collect(Collectors.groupingBy(Fill::orderId,
                Collectors.mapping(Fill::fillId, Collectors.toSet())));
    }

    /** One fill per distinct id. */
    static List<Fill> unique(List<Fill> fills) {
        Map<String, Fill> unique = new HashMap<>();
        fills.forEach(f -> unique.putIfAbsent(f.fillId(), f));
        return List.copyOf(unique.values());
    }

    /** Cash the exchange side received (+) or paid (−) over the given distinct fills. */
    static long exchangeCash(List<Fill> unique) {
        long cash = 0;
        for (Fill f : unique) {
            long notional = f.price() * f.quantity();
            cash += f.side().name().equals("BUY") ? notional : -notional;
        }
        return cash;
    }

    /** Shares of a symbol the exchange side received (+) or delivered (−) over the given distinct fills. */
    static long exchangeShares(List<Fill> unique, String symbol) {
        long shares = 0;
        for (Fill f : unique) {
            if (f.symbol().equals(symbol)) {
                shares += f.side().name().equals("BUY") ? -f.quantity() : f.quantity();
            }
        }
        return shares;
    }

    static long total(long[] availableAndReserved) {
        return availableAndReserved[0] + availableAndReserved[1];
    }

    /** Number of ledger entries of a kind, paging through the whole ledger; no entry appears twice. */
    static long ledger(BrokerApi api, String token, String kind) {
        long count = 0;
        String pageToken = null;
        List<String> seen = new ArrayList<>();
        do {
            BrokerApi.Response page = api.get(token, "/api/v1/account/transactions?pageSize=100"
                    + (pageToken == null ? "" : "&pageToken=" + pageToken));
            for (var txn : page.body().path("items")) {
                seen.add(txn.path("transactionId").asText());
                if (txn.path("kind").asText().equals(kind)) {
                    count++;
                }
            }
            pageToken = page.body().hasNonNull("nextPageToken") ? page.text("nextPageToken") : null;
        } while (pageToken != null);
        assertThat(seen).doesNotHaveDuplicates();
        return count;
    }
}
