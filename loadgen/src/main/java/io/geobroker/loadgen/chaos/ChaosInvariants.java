package io.geobroker.loadgen.chaos;

import io.geobroker.domain.Fill;
import io.geobroker.loadgen.report.ChaosReport;
import io.geobroker.loadgen.report.RunReport;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * The chaos scenario's invariants, computed from what the load generator counted, the fill records
 * on the regions' fills topics and what each region's REST API shows. Pure: no I/O, so each check is
 * unit-tested with made-up inputs that break it.
 */
public final class ChaosInvariants {

    /** How the run's customers were funded: cash per currency and shares per symbol, each the same for every customer. */
    public record Funding(long cashPerCurrency, Set<String> currencies, long sharesPerSymbol, Set<String> symbols) {
        public Funding {
            currencies = Set.copyOf(currencies);
            symbols = Set.copyOf(symbols);
        }
    }

    /** At most this many examples of a broken invariant in its figures. */
    static final int EXAMPLES = 5;

    private ChaosInvariants() {
    }

    /**
     * Orders placed against answered: every order of the measured phase answered (accepted or
     * rejected), or failed within a fault's window — from its start to {@code graceMillis} after the
     * system served again (a request sent before then may time out that much later).
     *
     * @param counters the run's counters over the measured phase
     * @param timeline the counters' per-second increases, {@code [start ms, delta]}, the drain last
     */
    public static ChaosReport.Invariant ordersAnswered(Map<String, Long> counters, Map<String, List<long[]>> timeline,
                                                       List<ChaosReport.Fault> faults, long graceMillis) {
        long sent = sum(counters, RunReport.ORDERS_SENT + "/");
        long accepted = sum(counters, RunReport.ORDERS_ACCEPTED + "/");
        long rejected = sum(counters, RunReport.ORDERS_REJECTED + "/");
        long errors = sum(counters, RunReport.ORDERS_ERRORS + "/");
        Map<String, Long> byKind = new TreeMap<>();
        Map<String, Long> outside = new TreeMap<>();
        for (Map.Entry<String, List<long[]>> e : timeline.entrySet()) {
            if (!e.getKey().startsWith(RunReport.ORDER_ERROR_CAUSE)) {
                continue;
            }
            String kind = e.getKey().substring(RunReport.ORDER_ERROR_CAUSE.length());
            for (long[] point : e.getValue()) {
                byKind.merge(kind, point[1], Long::sum);
                if (point[1] > 0 && !duringFault(point[0], faults, graceMillis)) {
                    outside.merge(kind, point[1], Long::sum);
                }
            }
        }
        long outsideTotal = outside.values().stream().mapToLong(Long::longValue).sum();
        // Unanswered orders are errors too (no-answer, not-sent: counted as the run drains), so every
        // order is in one of the three counts; which errors a fault explains is what can fail.
        boolean holds = outsideTotal == 0;
        return new ChaosReport.Invariant("orders placed vs answered", holds,
                "every order of the measured phase accepted, rejected (4xx) or failed (an order never answered or never sent "
                        + "is an error of kind no-answer or not-sent, counted at the drain) during a fault (from its start "
                        + "to " + graceMillis / 1000 + " s after the system served again: 503 with Retry-After while a DC is "
                        + "down, connections refused while a broker is down); none failed outside one",
                String.format(Locale.ROOT, "sent %d, accepted %d, rejected %d, errors %d (%s); during faults %d, outside %d%s",
                        sent, accepted, rejected, errors, byKind.isEmpty() ? "none" : kinds(byKind), errors - outsideTotal,
                        outsideTotal, outside.isEmpty() ? "" : " (" + kinds(outside) + ")"));
    }

    static boolean duringFault(long intervalStartMillis, List<ChaosReport.Fault> faults, long graceMillis) {
        for (ChaosReport.Fault f : faults) {
            long until = (f.servedAgain() ? f.servedAgainMillis() : Long.MAX_VALUE - graceMillis) + graceMillis;
            if (intervalStartMillis + 1_000 > f.startMillis() && intervalStartMillis < until) {
                return true;
            }
        }
        return false;
    }

    /**
     * No fill twice: every copy of a fill id on the topics carries the same order, ticker, price and
     * quantity; no order has two fill ids from one ticker; no order has fills for more shares than it
     * asked for.
     *
     * @param orders the orders as their home region shows them
     */
    public static ChaosReport.Invariant noDuplicate(List<Fill> records, Map<String, OrderView> orders) {
        Map<String, Fill> first = new HashMap<>();
        List<String> conflicting = new ArrayList<>();
        for (Fill f : records) {
            Fill seen = first.putIfAbsent(f.fillId(), f);
            if (seen != null && !sameFill(seen, f)) {
                conflicting.add(f.fillId());
            }
        }
        Map<String, List<Fill>> perOrder = first.values().stream().collect(Collectors.groupingBy(Fill::orderId));
        List<String> twiceFromOneTicker = new ArrayList<>();
        List<String> overfilled = new ArrayList<>();
        perOrder.forEach((orderId, fills) -> {
            long tickers = fills.stream().map(Fill::tickerSequence).distinct().count();
            if (tickers < fills.size()) {
                twiceFromOneTicker.add(orderId);
            }
            OrderView order = orders.get(orderId);
            long quantity = fills.stream().mapToLong(Fill::quantity).sum();
            if (order != null && quantity > order.quantity()) {
                overfilled.add(orderId + " (" + quantity + " of " + order.quantity() + ")");
            }
        });
        boolean holds = conflicting.isEmpty() && twiceFromOneTicker.isEmpty() && overfilled.isEmpty();
        return new ChaosReport.Invariant("no fill duplicated", holds,
                "on the regions' fills topics, every copy of a fill id has the same order, ticker, price and quantity; "
                        + "no order has two fill ids from one ticker; no order's fills exceed its quantity",
                String.format(Locale.ROOT, "%d records, %d distinct fill ids (%d copies sent again, identical) of %d orders; "
                                + "conflicting ids %d%s, two fills from one ticker %d%s, overfilled %d%s",
                        records.size(), first.size(), records.size() - first.size() - conflicting.size(), perOrder.size(),
                        conflicting.size(), examples(conflicting), twiceFromOneTicker.size(), examples(twiceFromOneTicker),
                        overfilled.size(), examples(overfilled)));
    }

    private static boolean sameFill(Fill a, Fill b) {
        return a.orderId().equals(b.orderId()) && a.tickerSequence() == b.tickerSequence() && a.price() == b.price()
                && a.quantity() == b.quantity() && Objects.equals(a.customerId(), b.customerId());
    }

    /**
     * No fill missing: for every order its home region shows with shares filled, the distinct fills
     * on the topics add up to its filled quantity and include every fill the order lists; every fill
     * on the topics belongs to an order the brokers show.
     */
    public static ChaosReport.Invariant noneMissing(List<Fill> records, Map<String, OrderView> orders) {
        Map<String, Map<String, Fill>> perOrder = new HashMap<>();
        for (Fill f : records) {
            perOrder.computeIfAbsent(f.orderId(), k -> new HashMap<>()).putIfAbsent(f.fillId(), f);
        }
        List<String> short_ = new ArrayList<>();
        long filledOrders = 0;
        for (OrderView o : orders.values()) {
            if (o.filledQuantity() == 0 && o.fillIds().isEmpty()) {
                continue;
            }
            filledOrders++;
            Map<String, Fill> fills = perOrder.getOrDefault(o.orderId(), Map.of());
            long quantity = fills.values().stream().mapToLong(Fill::quantity).sum();
            if (quantity != o.filledQuantity() || !fills.keySet().containsAll(o.fillIds())) {
                short_.add(o.orderId() + " (" + o.status() + ", filled " + o.filledQuantity() + ", on the topics "
                        + quantity + " in " + fills.size() + " fills)");
            }
        }
        List<String> orphans = perOrder.keySet().stream().filter(id -> !orders.containsKey(id)).sorted().toList();
        boolean holds = short_.isEmpty() && orphans.isEmpty();
        return new ChaosReport.Invariant("no fill missing", holds,
                "every order its home region shows FILLED or PARTIALLY_FILLED has fills on the topics whose quantities "
                        + "add up to its filled quantity, including every fill the order lists; every fill on the topics "
                        + "belongs to an order the brokers show",
                String.format(Locale.ROOT, "%d orders with fills, %d of them short or different%s; fills of unknown orders %d%s",
                        filledOrders, short_.size(), examples(short_), orphans.size(), examples(orphans)));
    }

    /**
     * Books balanced: in every region, each customer's cash per currency (available + reserved) is
     * the deposit plus sales minus purchases, and shares per symbol the seeded holding plus purchases
     * minus sales, over the distinct fills on the topics.
     */
    public static ChaosReport.Invariant booksBalanced(List<Fill> records, Set<String> customers, Funding funding,
                                                      Map<String, Map<String, Map<String, Long>>> cash,
                                                      Map<String, Map<String, Map<String, Long>>> shares) {
        Map<String, Map<String, Long>> expectedCash = new HashMap<>();
        Map<String, Map<String, Long>> expectedShares = new HashMap<>();
        for (String c : customers) {
            Map<String, Long> money = new TreeMap<>();
            funding.currencies().forEach(k -> money.put(k, funding.cashPerCurrency()));
            expectedCash.put(c, money);
            Map<String, Long> held = new TreeMap<>();
            funding.symbols().forEach(s -> held.put(s, funding.sharesPerSymbol()));
            expectedShares.put(c, held);
        }
        Map<String, Fill> distinct = new LinkedHashMap<>();
        records.forEach(f -> distinct.putIfAbsent(f.fillId(), f));
        for (Fill f : distinct.values()) {
            if (!customers.contains(f.customerId())) {
                continue;
            }
            long sign = "BUY".equals(f.side().name()) ? 1 : -1;
            expectedCash.get(f.customerId()).merge(f.currency(), -sign * Math.multiplyExact(f.price(), f.quantity()), Long::sum);
            expectedShares.get(f.customerId()).merge(f.symbol(), sign * f.quantity(), Long::sum);
        }
        List<String> off = new ArrayList<>();
        int checked = 0;
        for (String region : cash.keySet()) {
            for (String c : customers) {
                checked++;
                compare(region, c, "cash", expectedCash.get(c), cash.get(region).getOrDefault(c, Map.of()), off);
                compare(region, c, "shares", expectedShares.get(c), shares.getOrDefault(region, Map.of()).getOrDefault(c, Map.of()), off);
            }
        }
        return new ChaosReport.Invariant("books balanced", off.isEmpty() && checked > 0,
                "in every region, each customer's cash per currency (available + reserved, as GET /api/v1/account/balances "
                        + "shows it) = deposit + sales - purchases, and shares per symbol (GET .../holdings) = seeded + "
                        + "purchases - sales, over the distinct fills on the topics",
                String.format(Locale.ROOT, "%d customers x %d regions, %d currencies and %d symbols each; %d amounts off%s",
                        customers.size(), cash.size(), funding.currencies().size(), funding.symbols().size(), off.size(),
                        examples(off)));
    }

    private static void compare(String region, String customer, String what, Map<String, Long> expected,
                                Map<String, Long> actual, List<String> off) {
        Set<String> keys = new java.util.TreeSet<>(expected.keySet());
        keys.addAll(actual.keySet());
        for (String k : keys) {
            long want = expected.getOrDefault(k, 0L);
            long have = actual.getOrDefault(k, 0L);
            if (want != have) {
                off.add(region + " " + customer + " " + what + " " + k + ": " + have + ", expected " + want);
            }
        }
    }

    /** Every order the same (status, filled quantity) in every region, and known to every region. */
    public static ChaosReport.Invariant statusEqual(Map<String, Map<String, OrderView>> orders, long convergedMillis,
                                                    long boundMillis) {
        Set<String> all = new java.util.TreeSet<>();
        orders.values().forEach(m -> all.addAll(m.keySet()));
        List<String> different = new ArrayList<>();
        for (String id : all) {
            Map<String, String> states = new TreeMap<>();
            orders.forEach((region, m) -> states.put(region, m.containsKey(id) ? m.get(id).state() : "absent"));
            if (states.values().stream().distinct().count() > 1) {
                different.add(id + " " + states);
            }
        }
        String agreed = convergedMillis >= 0
                ? String.format(Locale.ROOT, "; every invariant held %.1f s after the drain", convergedMillis / 1000.0)
                : String.format(Locale.ROOT, "; not every invariant held within %d s after the drain", boundMillis / 1000);
        return new ChaosReport.Invariant("order status equal in every region", different.isEmpty() && !all.isEmpty(),
                "each order read through every region's REST API (GET /api/v1/orders with its customer's token) once the "
                        + "run had drained, retried until they agree or the bound: same status and filled quantity everywhere",
                String.format(Locale.ROOT, "%d orders in %d regions, %d different%s%s", all.size(), orders.size(),
                        different.size(), examples(different), agreed));
    }

    /** The orders as their home region shows them (the placing region's view where the home's is absent). */
    public static Map<String, OrderView> homeViews(Map<String, Map<String, OrderView>> orders) {
        Map<String, OrderView> home = new HashMap<>();
        orders.forEach((region, m) -> m.values().forEach(o -> {
            if (region.equals(o.homeRegion()) || !home.containsKey(o.orderId())) {
                home.put(o.orderId(), o);
            }
        }));
        return home;
    }

    private static long sum(Map<String, Long> counters, String prefix) {
        return counters.entrySet().stream().filter(e -> e.getKey().startsWith(prefix)).mapToLong(Map.Entry::getValue).sum();
    }

    private static String kinds(Map<String, Long> byKind) {
        Map<String, Long> merged = new TreeMap<>();
        byKind.forEach((k, v) -> merged.merge(k.substring(0, k.indexOf('/') < 0 ? k.length() : k.indexOf('/')), v, Long::sum));
        return merged.entrySet().stream().map(e -> e.getKey() + " " + e.getValue()).collect(Collectors.joining(", "));
    }

    private static String examples(List<String> items) {
        if (items.isEmpty()) {
            return "";
        }
        return " (e.g. " + String.join("; ", items.subList(0, Math.min(EXAMPLES, items.size()))) + ")";
    }
}
