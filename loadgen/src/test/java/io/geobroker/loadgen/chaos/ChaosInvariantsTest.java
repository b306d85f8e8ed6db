package io.geobroker.loadgen.chaos;

import io.geobroker.domain.Fill;
import io.geobroker.domain.OrderType;
import io.geobroker.domain.Side;
import io.geobroker.loadgen.report.ChaosReport;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

import static org.assertj.core.api.Assertions.assertThat;

class ChaosInvariantsTest {

    private static final long CASH = 1_000_000;
    private static final long SHARES = 1_000;
    private static final ChaosInvariants.Funding FUNDING = new ChaosInvariants.Funding(CASH, Set.of("USD"), SHARES, Set.of("JPM"));

    private static Fill fill(String fillId, String orderId, String side, long price, long quantity, long ticker) {
        return new Fill(fillId, orderId, "run-c1", "JPM", "NYSE", Side.valueOf(side), OrderType.LIMIT, price, quantity, "USD",
                ticker, 1, 2, "nvirginia");
    }

    private static OrderView order(String id, String side, String status, long quantity, long filled, String... fillIds) {
        return new OrderView(id, "run-c1", "JPM", side, "LIMIT", status, quantity, filled, 0, "nvirginia", Set.of(fillIds));
    }

    private static ChaosReport.Fault fault(long start, long served) {
        return new ChaosReport.Fault("broker", "sydney", "SIGKILL", start, start, served, "ready");
    }

    private static Map<String, List<long[]>> errors(String kind, long... startsWithOne) {
        List<long[]> points = new ArrayList<>();
        for (long s : startsWithOne) {
            points.add(new long[] {s, 1});
        }
        return Map.of("orders.error." + kind + "/sydney", points);
    }

    @Test
    void orders_failing_inside_a_faults_window_are_refused_not_lost() {
        Map<String, Long> counters = Map.of("orders.sent/sydney", 10L, "orders.accepted/sydney", 8L, "orders.errors/sydney", 2L);
        ChaosReport.Invariant row = ChaosInvariants.ordersAnswered(counters, errors("http-503", 5_000, 20_000),
                List.of(fault(4_000, 12_000)), 11_000);
        assertThat(row.holds()).as(row.figures()).isTrue();
        assertThat(row.figures()).contains("errors 2 (http-503 2); during faults 2, outside 0");
    }

    @Test
    void an_order_failing_outside_every_fault_breaks_the_invariant() {
        Map<String, Long> counters = Map.of("orders.sent/sydney", 10L, "orders.accepted/sydney", 8L, "orders.errors/sydney", 2L);
        ChaosReport.Invariant row = ChaosInvariants.ordersAnswered(counters, errors("timeout", 5_000, 40_000),
                List.of(fault(4_000, 12_000)), 11_000);
        assertThat(row.holds()).isFalse();
        assertThat(row.figures()).contains("outside 1 (timeout 1)");
    }

    @Test
    void an_order_never_answered_after_the_last_fault_breaks_the_invariant() {
        Map<String, Long> counters = Map.of("orders.sent/sydney", 10L, "orders.accepted/sydney", 9L, "orders.errors/sydney", 1L);
        ChaosReport.Invariant row = ChaosInvariants.ordersAnswered(counters, errors("no-answer", 60_000),
                List.of(fault(4_000, 12_000)), 11_000);
        assertThat(row.holds()).isFalse();
        assertThat(row.figures()).contains("outside 1 (no-answer 1)");
    }

    @Test
    void a_fill_sent_again_with_the_same_content_is_no_duplicate() {
        List<Fill> records = List.of(fill("f1", "o1", "BUY", 100, 5, 7), fill("f1", "o1", "BUY", 100, 5, 7));
        ChaosReport.Invariant row = ChaosInvariants.noDuplicate(records, Map.of("o1", order("o1", "BUY", "FILLED", 5, 5, "f1")));
        assertThat(row.holds()).as(row.figures()).isTrue();
        assertThat(row.figures()).startsWith("2 records, 1 distinct fill ids (1 copies sent again, identical)");
    }

    @Test
    void two_fills_of_one_order_from_one_ticker_are_a_duplicate() {
        List<Fill> records = List.of(fill("f1", "o1", "BUY", 100, 5, 7), fill("f2", "o1", "BUY", 100, 5, 7));
        ChaosReport.Invariant row = ChaosInvariants.noDuplicate(records, Map.of("o1", order("o1", "BUY", "FILLED", 10, 10)));
        assertThat(row.holds()).isFalse();
        assertThat(row.figures()).contains("two fills from one ticker 1");
    }

    @Test
    void one_fill_id_with_two_contents_and_an_overfilled_order_are_duplicates() {
        List<Fill> conflicting = List.of(fill("f1", "o1", "BUY", 100, 5, 7), fill("f1", "o1", "BUY", 100, 4, 7));
        assertThat(ChaosInvariants.noDuplicate(conflicting, Map.of()).holds()).isFalse();
        List<Fill> overfilled = List.of(fill("f1", "o1", "BUY", 100, 5, 7), fill("f2", "o1", "BUY", 100, 5, 8));
        ChaosReport.Invariant row = ChaosInvariants.noDuplicate(overfilled, Map.of("o1", order("o1", "BUY", "FILLED", 5, 5)));
        assertThat(row.holds()).isFalse();
        assertThat(row.figures()).contains("overfilled 1 (e.g. o1 (10 of 5))");
    }

    @Test
    void a_filled_order_without_its_fills_on_the_topics_is_a_missing_fill() {
        Map<String, OrderView> orders = Map.of("o1", order("o1", "BUY", "FILLED", 5, 5, "f1"),
                "o2", order("o2", "BUY", "PARTIALLY_FILLED", 5, 3, "f2"));
        List<Fill> records = List.of(fill("f1", "o1", "BUY", 100, 5, 7));
        ChaosReport.Invariant row = ChaosInvariants.noneMissing(records, orders);
        assertThat(row.holds()).isFalse();
        assertThat(row.figures()).contains("2 orders with fills, 1 of them short or different (e.g. o2 (PARTIALLY_FILLED, filled 3");
        assertThat(ChaosInvariants.noneMissing(List.of(fill("f1", "o1", "BUY", 100, 5, 7), fill("f2", "o2", "BUY", 100, 3, 8)),
                orders).holds()).isTrue();
    }

    @Test
    void a_fill_of_an_order_no_broker_shows_is_reported() {
        ChaosReport.Invariant row = ChaosInvariants.noneMissing(List.of(fill("f9", "o9", "SELL", 100, 1, 7)), Map.of());
        assertThat(row.holds()).isFalse();
        assertThat(row.figures()).contains("fills of unknown orders 1");
    }

    @Test
    void books_balance_when_cash_and_shares_follow_the_distinct_fills_in_every_region() {
        List<Fill> records = List.of(fill("f1", "o1", "BUY", 100, 5, 7), fill("f1", "o1", "BUY", 100, 5, 7),
                fill("f2", "o2", "SELL", 120, 2, 8));
        Map<String, Map<String, Map<String, Long>>> cash = regions(Map.of("USD", CASH - 500 + 240));
        Map<String, Map<String, Map<String, Long>>> shares = regions(Map.of("JPM", SHARES + 5 - 2));
        ChaosReport.Invariant row = ChaosInvariants.booksBalanced(records, Set.of("run-c1"), FUNDING, cash, shares);
        assertThat(row.holds()).as(row.figures()).isTrue();

        cash.get("nvirginia").put("run-c1", Map.of("USD", CASH - 1_000 + 240));
        ChaosReport.Invariant off = ChaosInvariants.booksBalanced(records, Set.of("run-c1"), FUNDING, cash, shares);
        assertThat(off.holds()).isFalse();
        assertThat(off.figures()).contains("1 amounts off (e.g. nvirginia run-c1 cash USD: 999240, expected 999740)");
    }

    private static Map<String, Map<String, Map<String, Long>>> regions(Map<String, Long> books) {
        Map<String, Map<String, Map<String, Long>>> all = new LinkedHashMap<>();
        for (String region : List.of("sydney", "nvirginia")) {
            Map<String, Map<String, Long>> customers = new TreeMap<>();
            customers.put("run-c1", books);
            all.put(region, customers);
        }
        return all;
    }

    @Test
    void an_order_in_another_state_or_absent_in_one_region_breaks_status_equality() {
        Map<String, Map<String, OrderView>> same = new LinkedHashMap<>();
        same.put("sydney", Map.of("o1", order("o1", "BUY", "FILLED", 5, 5)));
        same.put("nvirginia", Map.of("o1", order("o1", "BUY", "FILLED", 5, 5)));
        assertThat(ChaosInvariants.statusEqual(same, 1_500, 60_000).figures()).contains("held 1.5 s after the drain");
        assertThat(ChaosInvariants.statusEqual(same, 1_500, 60_000).holds()).isTrue();

        Map<String, Map<String, OrderView>> behind = new LinkedHashMap<>(same);
        behind.put("sydney", Map.of("o1", order("o1", "BUY", "OPEN", 5, 0)));
        assertThat(ChaosInvariants.statusEqual(behind, -1, 60_000).holds()).isFalse();
        Map<String, Map<String, OrderView>> absent = new LinkedHashMap<>(same);
        absent.put("sydney", Map.of());
        ChaosReport.Invariant row = ChaosInvariants.statusEqual(absent, -1, 60_000);
        assertThat(row.holds()).isFalse();
        assertThat(row.figures()).contains("absent").contains("not every invariant held within 60 s");
    }

    @Test
    void after_a_cut_every_region_must_show_each_order_as_far_along_as_its_home_did_a_read_before() {
        Map<String, Map<String, OrderView>> before = new LinkedHashMap<>();
        before.put("sydney", Map.of("o1", order("o1", "BUY", "PENDING", 5, 0)));
        before.put("nvirginia", Map.of());
        assertThat(ChaosRun.behind(before, before)).as("the home has not taken it")
                .containsExactlyEntriesOf(Map.of("o1", "o1: home none, then sydney PENDING 0/5 nvirginia none"));

        before.put("sydney", Map.of("o1", order("o1", "BUY", "OPEN", 5, 0)));
        before.put("nvirginia", Map.of("o1", order("o1", "BUY", "PARTIALLY_FILLED", 5, 2)));
        Map<String, Map<String, OrderView>> now = new LinkedHashMap<>();
        now.put("sydney", Map.of("o1", order("o1", "BUY", "OPEN", 5, 0)));
        now.put("nvirginia", Map.of("o1", order("o1", "BUY", "FILLED", 5, 5)));
        assertThat(ChaosRun.behind(before, now)).as("Sydney lacks the fill its home had made")
                .containsExactlyEntriesOf(Map.of("o1", "o1: home PARTIALLY_FILLED 2/5, then sydney OPEN 0/5 nvirginia FILLED 5/5"));

        now.put("sydney", Map.of("o1", order("o1", "BUY", "PARTIALLY_FILLED", 5, 2)));
        assertThat(ChaosRun.behind(before, now)).as("the home filled it further meanwhile: Sydney has caught up")
                .isEmpty();

        before.put("nvirginia", Map.of("o1", order("o1", "BUY", "CANCELLED", 5, 2)));
        now.put("nvirginia", Map.of("o1", order("o1", "BUY", "CANCELLED", 5, 2)));
        now.put("sydney", Map.of("o1", order("o1", "BUY", "FILLED", 5, 2)));
        assertThat(ChaosRun.behind(before, now)).as("an ended order must end the same everywhere").hasSize(1);
        now.put("sydney", Map.of("o1", order("o1", "BUY", "CANCELLED", 5, 2)));
        assertThat(ChaosRun.behind(before, now)).isEmpty();
        now.put("sydney", Map.of("o1", order("o1", "BUY", "", 5, 2)));
        assertThat(ChaosRun.behind(before, now)).as("a status not read is behind, not an error").hasSize(1);
    }

    @Test
    void an_order_every_region_shows_in_the_same_state_in_one_read_has_reached_them_from_the_first_read_on() {
        Map<String, Map<String, OrderView>> first = new LinkedHashMap<>();
        first.put("sydney", Map.of("o1", order("o1", "BUY", "OPEN", 5, 0), "o2", order("o2", "BUY", "PENDING", 5, 0),
                "o3", order("o3", "BUY", "OPEN", 5, 0), "o4", order("o4", "BUY", "PENDING", 5, 0),
                "o5", order("o5", "BUY", "", 5, 0)));
        first.put("nvirginia", Map.of("o1", order("o1", "BUY", "OPEN", 5, 0), "o3", order("o3", "BUY", "FILLED", 5, 5),
                "o4", order("o4", "BUY", "PENDING", 5, 0), "o5", order("o5", "BUY", "", 5, 0)));
        Map<String, String> apart = ChaosRun.behind(null, first);
        assertThat(apart).as("o1 is the same everywhere; o2 is not at its home yet, o3 filled at home only, "
                        + "o4 not taken by its home, o5 in a status not read")
                .containsOnlyKeys("o2", "o3", "o4", "o5");
        assertThat(apart.get("o3")).isEqualTo("o3: home none, then sydney OPEN 0/5 nvirginia FILLED 5/5");
        assertThat(ChaosRun.customersOf(apart.keySet(), null, first)).containsOnlyKeys("o2", "o3", "o4", "o5");
        assertThat(ChaosRun.ofCustomers(first, Set.of("run-c1")).get("nvirginia")).hasSize(4);
        assertThat(ChaosRun.ofCustomers(first, Set.of("run-c2")).get("sydney")).as("only the customers listed again")
                .isEmpty();

        Map<String, Map<String, OrderView>> next = new LinkedHashMap<>();
        next.put("sydney", Map.of("o1", order("o1", "BUY", "OPEN", 5, 0), "o2", order("o2", "BUY", "PARTIALLY_FILLED", 5, 2)));
        next.put("nvirginia", Map.of("o1", order("o1", "BUY", "PARTIALLY_FILLED", 5, 3),
                "o2", order("o2", "BUY", "PARTIALLY_FILLED", 5, 2)));
        assertThat(ChaosRun.behind(null, next)).as("a fill between two regions' reads parts them")
                .containsOnlyKeys("o1");
        Map<String, Map<String, OrderView>> earlier = new LinkedHashMap<>();
        earlier.put("sydney", Map.of("o1", order("o1", "BUY", "OPEN", 5, 0)));
        earlier.put("nvirginia", Map.of("o1", order("o1", "BUY", "OPEN", 5, 0)));
        assertThat(ChaosRun.behind(earlier, next)).as("but Sydney has what its home had a read before")
                .isEmpty();
    }

    @Test
    void once_few_orders_are_apart_only_they_are_compared_again_and_each_is_read_by_its_customer() {
        Map<String, Map<String, OrderView>> before = new LinkedHashMap<>();
        before.put("sydney", Map.of("o1", order("o1", "BUY", "OPEN", 5, 0), "o2", order("o2", "BUY", "OPEN", 5, 0)));
        before.put("nvirginia", Map.of("o1", order("o1", "BUY", "FILLED", 5, 5), "o2", order("o2", "BUY", "OPEN", 5, 0)));
        Map<String, String> apart = ChaosRun.behind(before, before);
        assertThat(apart).as("o1 is filled at home only").containsOnlyKeys("o1");
        Map<String, String> left = ChaosRun.customersOf(apart.keySet(), before, Map.of());
        assertThat(left).containsExactly(Map.entry("o1", "run-c1"));

        Map<String, Map<String, OrderView>> reread = new LinkedHashMap<>();
        reread.put("sydney", Map.of());
        reread.put("nvirginia", Map.of("o1", order("o1", "BUY", "FILLED", 5, 5)));
        Map<String, Map<String, OrderView>> earlier = ChaosRun.only(before, left.keySet());
        assertThat(earlier.get("sydney")).containsOnlyKeys("o1");
        assertThat(ChaosRun.behind(earlier, reread)).as("a region that no longer finds it is behind, not done")
                .containsOnlyKeys("o1");
        reread.put("sydney", Map.of("o1", order("o1", "BUY", "FILLED", 5, 5)));
        assertThat(ChaosRun.behind(earlier, reread)).as("o2, not read again, stays as it was: caught up")
                .isEmpty();
    }

    @Test
    void the_home_regions_view_of_an_order_wins() {
        OrderView placed = new OrderView("o1", "c", "JPM", "BUY", "LIMIT", "PENDING", 5, 0, 0, "nvirginia", Set.of());
        OrderView home = new OrderView("o1", "c", "JPM", "BUY", "LIMIT", "FILLED", 5, 5, 0, "nvirginia", Set.of("f1"));
        Map<String, Map<String, OrderView>> orders = new LinkedHashMap<>();
        orders.put("nvirginia", Map.of("o1", home));
        orders.put("sydney", Map.of("o1", placed));
        assertThat(ChaosInvariants.homeViews(orders).get("o1").status()).isEqualTo("FILLED");
    }
}
