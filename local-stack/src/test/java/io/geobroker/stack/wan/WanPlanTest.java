package io.geobroker.stack.wan;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.geobroker.stack.wan.WanEmulator.WanRegion;
import java.util.List;
import org.junit.jupiter.api.Test;

class WanPlanTest {

    private static final List<WanRegion> REGIONS = List.of(
            WanRegion.of("127.60", 1, "sydney"), WanRegion.of("127.60", 2, "nvirginia"));

    private static int address(int a, int b, int c, int d) {
        return a << 24 | b << 16 | c << 8 | d;
    }

    @Test
    void region_of_a_prefix_gets_its_namespace_and_cidr() {
        assertThat(WanRegion.of("127.60", 2, "nvirginia"))
                .isEqualTo(new WanRegion("nvirginia", "gb60-nvirginia", "127.60.2.0/24"));
        assertThat(WanRegion.of("127.0", 1, "sydney").namespace()).isEqualTo("gb0-sydney");
    }

    @Test
    void rejects_a_prefix_outside_loopback() {
        assertThatThrownBy(() -> WanRegion.of("10.1", 1, "sydney")).hasMessageContaining("127.P");
        assertThatThrownBy(() -> WanRegion.of("127.300", 1, "sydney")).hasMessageContaining("127.P");
    }

    @Test
    void interface_names_carry_prefix_and_region_and_fit_the_kernel_limit() {
        WanPlan plan = new WanPlan(List.of(WanRegion.of("127.255", 254, "a"), WanRegion.of("127.255", 255, "b")));

        for (int i = 0; i < plan.size(); i++) {
            for (String name : List.of(plan.tunName(i), plan.hostVeth(i), plan.namespaceVeth(i))) {
                assertThat(name).hasSizeLessThanOrEqualTo(WanPlan.MAX_INTERFACE_NAME).startsWith("gb255");
            }
        }
        WanPlan sixty = new WanPlan(REGIONS);
        assertThat(List.of(sixty.tunName(0), sixty.hostVeth(0), sixty.namespaceVeth(0)))
                .containsExactly("gb60w1", "gb60h1", "gb60n1");
    }

    @Test
    void maps_destination_addresses_to_their_region() {
        WanPlan plan = new WanPlan(REGIONS);

        assertThat(plan.regionOf(address(127, 60, 1, 1))).isZero();
        assertThat(plan.regionOf(address(127, 60, 2, 200))).isEqualTo(1);
        assertThat(plan.regionOf(address(127, 60, 3, 1))).isEqualTo(-1);
        assertThat(plan.regionOf(address(127, 61, 1, 1))).isEqualTo(-1);
        assertThat(plan.regionOf(address(127, 60, 0, 1))).isEqualTo(-1);
        assertThat(plan.regionOf(address(10, 60, 1, 1))).isEqualTo(-1);
    }

    @Test
    void routes_every_other_region_through_the_tun_and_the_root_through_the_veth() {
        WanPlan plan = new WanPlan(List.of(WanRegion.of("127.60", 1, "a"), WanRegion.of("127.60", 2, "b"),
                WanRegion.of("127.60", 3, "c")));

        assertThat(plan.tunCommands(0)).contains(
                List.of("ip", "-n", "gb60-a", "route", "add", "127.60.2.0/24", "dev", "gb60w1", "src", "127.60.1.1"),
                List.of("ip", "-n", "gb60-a", "route", "add", "127.60.3.0/24", "dev", "gb60w1", "src", "127.60.1.1"));
        assertThat(plan.setupCommands(0)).contains(
                List.of("ip", "route", "add", "127.60.1.0/24", "dev", "gb60h1", "table", "local", "src", "127.60.0.1"),
                List.of("ip", "-n", "gb60-a", "route", "add", "127.60.0.0/24", "dev", "gb60n1", "src", "127.60.1.1"));
    }

    @Test
    void with_prefix_127_0_the_root_side_avoids_127_0_0_1_which_stays_local_in_each_namespace() {
        WanPlan plan = new WanPlan(List.of(WanRegion.of("127.0", 1, "a"), WanRegion.of("127.0", 2, "b")));

        assertThat(plan.setupCommands(0)).contains(
                List.of("ip", "route", "add", "127.0.1.0/24", "dev", "gb0h1", "table", "local", "src", "127.0.0.2"));
    }

    @Test
    void sets_sysctls_through_proc() {
        assertThat(WanPlan.sysctl("ipv4/conf/all/rp_filter=0", "ipv4/conf/gb60h1/route_localnet=1")).isEqualTo(
                "echo 0 > /proc/sys/net/ipv4/conf/all/rp_filter && echo 1 > /proc/sys/net/ipv4/conf/gb60h1/route_localnet");
    }

    @Test
    void caps_the_namespaces_tcp_retransmission_back_off_where_the_kernel_has_the_setting() {
        assertThat(WanPlan.optionalSysctl("ipv4/tcp_rto_max_ms=1000")).isEqualTo(
                "if [ -e /proc/sys/net/ipv4/tcp_rto_max_ms ]; then echo 1000 > /proc/sys/net/ipv4/tcp_rto_max_ms; fi");
        assertThat(WanPlan.tcpRtoMaxMillis(null)).isEqualTo(WanPlan.TCP_RTO_MAX_MILLIS);
        assertThat(WanPlan.tcpRtoMaxMillis(" 0 ")).isZero();
        assertThat(new WanPlan(REGIONS).setupCommands(1)).contains(List.of("ip", "netns", "exec", "gb60-nvirginia", "sh", "-c",
                WanPlan.optionalSysctl("ipv4/tcp_rto_max_ms=" + WanPlan.tcpRtoMaxMillis(System.getenv("GEOBROKER_WAN_TCP_RTO_MAX_MS")))));
    }

    @Test
    void teardown_touches_only_the_regions_own_names() {
        WanPlan plan = new WanPlan(REGIONS);

        assertThat(plan.teardownCommands(1)).containsExactly(
                List.of("ip", "link", "del", "gb60h2"),
                List.of("ip", "route", "del", "127.60.2.0/24", "table", "local"),
                List.of("ip", "netns", "del", "gb60-nvirginia"));
    }

    @Test
    void rejects_bad_region_sets() {
        assertThatThrownBy(() -> new WanPlan(REGIONS.subList(0, 1))).hasMessageContaining("at least two");
        assertThatThrownBy(() -> new WanPlan(List.of(REGIONS.get(0), REGIONS.get(0))))
                .hasMessageContaining("duplicate");
        assertThatThrownBy(() -> new WanPlan(List.of(REGIONS.get(0), WanRegion.of("127.61", 2, "x"))))
                .hasMessageContaining("one address prefix");
        assertThatThrownBy(() -> new WanPlan(List.of(REGIONS.get(0), new WanRegion("x", "gb60-x", "127.60.0.0/24"))))
                .hasMessageContaining("reserved");
        assertThatThrownBy(() -> new WanPlan(List.of(REGIONS.get(0), new WanRegion("x", "gb60 x", "127.60.5.0/24"))))
                .hasMessageContaining("namespace");
    }

    @Test
    void names_an_unknown_region_with_the_known_ones() {
        assertThatThrownBy(() -> new WanPlan(REGIONS).indexOf("tokyo"))
                .hasMessageContaining("tokyo").hasMessageContaining("sydney");
    }
}
