package io.geobroker.broker.order;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

class KnownOrderIdsTest {

    private static final long SECOND = TimeUnit.SECONDS.toNanos(1);

    /** A region's DC as the decision sees it: placing regions and order rows per customer, requests counted. */
    private static final class Dc implements KnownOrderIds.Store {
        final Map<String, Set<String>> regions = new HashMap<>();
        final Map<String, List<UUID>> rows = new HashMap<>();
        int regionReads;
        int regionWrites;
        int idReads;

        @Override
        public Set<String> placingRegions(String customerId) {
            regionReads++;
            return Set.copyOf(regions.getOrDefault(customerId, Set.of()));
        }

        @Override
        public void addPlacingRegion(String customerId, String region) {
            regionWrites++;
            regions.computeIfAbsent(customerId, k -> new HashSet<>()).add(region);
        }

        @Override
        public Optional<List<UUID>> orderIds(String customerId, int limit) {
            idReads++;
            List<UUID> ids = rows.getOrDefault(customerId, List.of());
            return ids.size() > limit ? Optional.empty() : Optional.of(List.copyOf(ids));
        }

        void row(String customerId, UUID orderId) {
            rows.computeIfAbsent(customerId, k -> new ArrayList<>()).add(orderId);
        }
    }

    private final Dc dc = new Dc();
    private long now = 1_000 * SECOND;

    private KnownOrderIds known(long refreshNanos, int maxIds) {
        return new KnownOrderIds(dc, "sydney", refreshNanos, maxIds, () -> now, new SimpleMeterRegistry());
    }

    private static UUID id(String customer, String clientOrderId) {
        return OrderIds.orderId(customer, clientOrderId);
    }

    @Test
    void a_customer_placing_only_here_is_read_once_then_known() {
        dc.row("ann", id("ann", "old-1"));
        KnownOrderIds known = known(SECOND, 1_000);

        assertThat(known.mayExist("ann", id("ann", "new-1"), "new-1")).as("a new id").isFalse();
        assertThat(dc.regions.get("ann")).as("this region registered before the first placement").containsExactly("sydney");
        assertThat(known.mayExist("ann", id("ann", "old-1"), "old-1")).as("an id this DC has a row of").isTrue();
        assertThat(known.mayExist("ann", id("ann", "new-1"), "new-1")).as("a repeat of a placement taken here").isTrue();
        assertThat(known.mayExist("ann", id("ann", "new-2"), "new-2")).isFalse();
        assertThat(dc.idReads).as("the customer's ids read once").isEqualTo(1);
        assertThat(dc.regionReads).as("placing regions read once within the refresh").isEqualTo(1);
        assertThat(dc.regionWrites).isEqualTo(1);
        assertThat(known.heldIds()).isEqualTo(3);
    }

    @Test
    void a_customer_that_placed_through_another_region_is_read_at_every_placement() {
        dc.regions.put("bob", new HashSet<>(Set.of("nvirginia")));
        KnownOrderIds known = known(SECOND, 1_000);

        assertThat(known.mayExist("bob", id("bob", "a"), "a")).isTrue();
        assertThat(known.mayExist("bob", id("bob", "b"), "b")).isTrue();
        assertThat(dc.regions.get("bob")).containsExactlyInAnyOrder("nvirginia", "sydney");
        assertThat(dc.idReads).as("no ids held for a customer of several regions").isZero();
        assertThat(known.heldIds()).isZero();
        now += 5 * SECOND;
        assertThat(known.mayExist("bob", id("bob", "c"), "c")).isTrue();
        assertThat(dc.regionReads).as("placing regions only grow: not read again").isEqualTo(1);
    }

    @Test
    void another_region_is_noticed_at_the_next_refresh_and_the_ids_are_let_go() {
        KnownOrderIds known = known(SECOND, 1_000);
        assertThat(known.mayExist("cy", id("cy", "a"), "a")).isFalse();
        dc.regions.get("cy").add("nvirginia");
        dc.row("cy", id("cy", "placed-there"));

        now += SECOND / 2;
        assertThat(known.mayExist("cy", id("cy", "placed-there"), "placed-there"))
                .as("within the refresh the other region is not known yet").isFalse();
        now += SECOND;
        assertThat(known.mayExist("cy", id("cy", "placed-there"), "placed-there")).as("after it").isTrue();
        assertThat(known.mayExist("cy", id("cy", "b"), "b")).isTrue();
        assertThat(known.heldIds()).isZero();
    }

    @Test
    void a_refresh_of_zero_reads_every_placement_and_touches_nothing() {
        KnownOrderIds known = known(0, 1_000);
        assertThat(known.mayExist("dee", id("dee", "a"), "a")).isTrue();
        assertThat(known.mayExist("dee", id("dee", "a"), "a")).isTrue();
        assertThat(dc.regionReads + dc.regionWrites + dc.idReads).isZero();
    }

    @Test
    void day_trading_client_order_ids_are_always_read() {
        KnownOrderIds known = known(SECOND, 1_000);
        assertThat(known.mayExist("eve", id("eve", "dt-t-1-1"), "dt-t-1-1")).isTrue();
        assertThat(known.mayExist("eve", id("eve", "x"), "x")).isFalse();
        assertThat(known.mayExist("eve", id("eve", "dt-c-2-2"), "dt-c-2-2")).isTrue();
    }

    @Test
    void a_customer_with_more_ids_than_a_quarter_of_the_bound_is_always_read() {
        for (int i = 0; i < 26; i++) {
            dc.row("fay", id("fay", "o" + i));
        }
        KnownOrderIds known = known(SECOND, 100);
        assertThat(known.mayExist("fay", id("fay", "new"), "new")).isTrue();
        assertThat(known.mayExist("fay", id("fay", "newer"), "newer")).isTrue();
        assertThat(dc.idReads).as("not read again").isEqualTo(1);
        assertThat(known.heldIds()).isZero();
    }

    @Test
    void a_customer_whose_ids_grow_past_a_quarter_of_the_bound_is_read_from_then_on() {
        KnownOrderIds known = known(SECOND, 12);
        for (int i = 0; i < 3; i++) {
            assertThat(known.mayExist("joe", id("joe", "j" + i), "j" + i)).isFalse();
        }
        assertThat(known.mayExist("joe", id("joe", "j3"), "j3")).as("the fourth of a bound of 12").isFalse();
        assertThat(known.heldIds()).as("let go").isZero();
        assertThat(known.mayExist("joe", id("joe", "j4"), "j4")).isTrue();
    }

    @Test
    void over_the_bound_the_least_recent_customers_ids_are_dropped_and_read_again() {
        KnownOrderIds known = known(SECOND, 12);
        for (String customer : List.of("gus", "hal", "ivy", "jay")) {
            for (int i = 0; i < 3; i++) {
                String clientOrderId = customer + i;
                assertThat(known.mayExist(customer, id(customer, clientOrderId), clientOrderId)).isFalse();
                dc.row(customer, id(customer, clientOrderId));
            }
        }
        assertThat(known.heldIds()).isEqualTo(12);
        assertThat(known.mayExist("kim", id("kim", "k0"), "k0")).isFalse();
        assertThat(known.heldIds()).as("gus's three ids dropped, the least recent").isEqualTo(10);

        int reads = dc.idReads;
        assertThat(known.mayExist("gus", id("gus", "gus2"), "gus2")).as("read again, still found").isTrue();
        assertThat(dc.idReads).isEqualTo(reads + 1);
        assertThat(known.heldIds()).as("hal's dropped in turn").isEqualTo(10);
        assertThat(known.mayExist("ivy", id("ivy", "ivy1"), "ivy1")).as("ivy's still held").isTrue();
        assertThat(dc.idReads).isEqualTo(reads + 1);
    }

    @Test
    void a_market_order_forwarded_here_is_read_only_when_its_id_is_held() {
        dc.regions.put("lou", new HashSet<>(Set.of("nvirginia")));
        dc.row("lou", id("lou", "before-start"));
        KnownOrderIds known = known(SECOND, 1_000);

        assertThat(known.forwardedMayExist("lou", id("lou", "m1"), "m1")).as("a new id").isFalse();
        dc.row("lou", id("lou", "m1"));
        assertThat(known.forwardedMayExist("lou", id("lou", "m1"), "m1")).as("forwarded again").isTrue();
        assertThat(known.forwardedMayExist("lou", id("lou", "before-start"), "before-start"))
                .as("an id this DC has a row of").isTrue();
        assertThat(known.forwardedMayExist("lou", id("lou", "m2"), "m2")).isFalse();
        assertThat(dc.idReads).as("the customer's ids read once").isEqualTo(1);
        assertThat(dc.regionReads + dc.regionWrites).as("this region does not become a placing region").isZero();
        assertThat(known.heldIds()).isEqualTo(3);

        assertThat(known.mayExist("lou", id("lou", "here"), "here"))
                .as("a placement here of a customer of another region is read").isTrue();
        assertThat(known.heldIds()).as("let go with the placing regions learnt").isZero();
        assertThat(known.forwardedMayExist("lou", id("lou", "m1"), "m1")).as("read again, still found").isTrue();
        assertThat(known.forwardedMayExist("lou", id("lou", "m3"), "m3")).isFalse();
        assertThat(dc.idReads).isEqualTo(2);
    }

    @Test
    void forwarded_ids_and_ids_placed_here_are_one_set() {
        KnownOrderIds known = known(SECOND, 1_000);
        assertThat(known.mayExist("max", id("max", "local"), "local")).isFalse();
        assertThat(known.forwardedMayExist("max", id("max", "local"), "local")).as("placed here before").isTrue();
        assertThat(known.forwardedMayExist("max", id("max", "fwd"), "fwd")).isFalse();
        assertThat(known.mayExist("max", id("max", "fwd"), "fwd")).as("forwarded here before").isTrue();
        assertThat(dc.idReads).isEqualTo(1);
    }

    @Test
    void forwarded_market_orders_are_always_read_when_the_check_is_off_or_the_customer_has_too_many() {
        assertThat(known(0, 1_000).forwardedMayExist("ned", id("ned", "a"), "a")).as("a refresh of zero").isTrue();
        assertThat(known(SECOND, 0).forwardedMayExist("ned", id("ned", "a"), "a")).as("no ids held").isTrue();
        assertThat(dc.idReads).isZero();
        KnownOrderIds known = known(SECOND, 1_000);
        assertThat(known.forwardedMayExist("ned", id("ned", "dt-t-1-1"), "dt-t-1-1")).as("day trading's own").isTrue();

        for (int i = 0; i < 26; i++) {
            dc.row("oli", id("oli", "o" + i));
        }
        KnownOrderIds bounded = known(SECOND, 100);
        assertThat(bounded.forwardedMayExist("oli", id("oli", "new"), "new")).isTrue();
        assertThat(bounded.forwardedMayExist("oli", id("oli", "newer"), "newer")).isTrue();
        assertThat(dc.idReads).as("not read again").isEqualTo(1);
        assertThat(bounded.heldIds()).isZero();
    }

    @Test
    void forwarded_ids_count_towards_the_bound() {
        KnownOrderIds known = known(SECOND, 12);
        for (String customer : List.of("pat", "quin", "rae", "sam")) {
            for (int i = 0; i < 3; i++) {
                assertThat(known.forwardedMayExist(customer, id(customer, "f" + i), "f" + i)).isFalse();
                dc.row(customer, id(customer, "f" + i));
            }
        }
        assertThat(known.heldIds()).isEqualTo(12);
        assertThat(known.forwardedMayExist("tom", id("tom", "f0"), "f0")).isFalse();
        assertThat(known.heldIds()).as("pat's three ids dropped, the least recent").isEqualTo(10);
        assertThat(known.forwardedMayExist("pat", id("pat", "f1"), "f1")).as("read again, still found").isTrue();
    }
}
