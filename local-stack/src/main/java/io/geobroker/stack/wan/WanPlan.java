package io.geobroker.stack.wan;

import io.geobroker.stack.wan.WanEmulator.WanRegion;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The names and {@code ip} commands of one emulated WAN, shared by the owner ({@link WanEmulator})
 * and the {@link WanForwarder} so that both build and remove exactly the same things.
 *
 * <p>Layout, for a region with CIDR {@code 127.P.I.0/24} in namespace {@code NS}:
 * <ul>
 *   <li>the CIDR lives on the namespace's {@code lo}; {@code 127.0.0.1/8} is narrowed to
 *       {@code /32} so that the other regions' 127.x addresses are no longer local there;
 *   <li>TUN {@code gbPwI} (opened by the forwarder, moved into {@code NS}) carries the routes to
 *       every other region: region-to-region traffic has no other path, and the forwarder delays
 *       it;
 *   <li>veth {@code gbPhI} (root) / {@code gbPnI} (in {@code NS}) gives the root namespace
 *       undelayed access: a route for the CIDR in the root's {@code local} table (more specific
 *       than {@code 127.0.0.0/8}) with source {@code 127.P.0.1}, and in {@code NS} a route back to
 *       {@code 127.P.0.0/24}. The root namespace does not forward between veths
 *       ({@code ip_forward} is left alone), so the veths are no bypass between regions.
 * </ul>
 */
final class WanPlan {

    /** Linux limits interface names to 15 characters (IFNAMSIZ - 1). */
    static final int MAX_INTERFACE_NAME = 15;

    /** TUN MTU: large packets mean fewer copies through the forwarder (lo uses 65536). */
    static final int TUN_MTU = 65535;

    private static final Pattern NAME = Pattern.compile("[a-z0-9][a-z0-9-]*");
    private static final Pattern CIDR = Pattern.compile("127\\.(\\d{1,3})\\.(\\d{1,3})\\.0/24");

    /**
     * The longest wait between TCP retransmissions in the regions' namespaces
     * ({@code net.ipv4.tcp_rto_max_ms}, Linux 6.15 and later; 120 s by default). After a cut link
     * heals, a connection that sent into the cut retransmits only when its backed-off timer fires,
     * up to this long later: Cassandra's nodes saw the other DC again 5-9 s after a 20 s cut.
     * 0 leaves the kernel's value. {@code GEOBROKER_WAN_TCP_RTO_MAX_MS} overrides it.
     */
    static final int TCP_RTO_MAX_MILLIS = 1_000;

    private final List<WanRegion> regions;
    private final int tcpRtoMaxMillis = tcpRtoMaxMillis(System.getenv("GEOBROKER_WAN_TCP_RTO_MAX_MS"));
    private final int[] prefixOctet;
    private final int[] regionOctet;

    WanPlan(List<WanRegion> regions) {
        if (regions.size() < 2) {
            throw new IllegalArgumentException("a WAN needs at least two regions, got " + regions.size());
        }
        this.regions = List.copyOf(regions);
        prefixOctet = new int[regions.size()];
        regionOctet = new int[regions.size()];
        Set<String> names = new HashSet<>();
        Set<String> namespaces = new HashSet<>();
        Set<Integer> octets = new HashSet<>();
        for (int i = 0; i < regions.size(); i++) {
            WanRegion r = regions.get(i);
            requireName("region name", r.name());
            requireName("namespace", r.namespace());
            var m = CIDR.matcher(r.cidr());
            if (!m.matches()) {
                throw new IllegalArgumentException(
                        "region " + r.name() + ": CIDR must look like 127.P.I.0/24, got " + r.cidr());
            }
            prefixOctet[i] = octet(m.group(1), r);
            regionOctet[i] = octet(m.group(2), r);
            if (regionOctet[i] == 0) {
                throw new IllegalArgumentException(
                        "region " + r.name() + ": 127.P.0.0/24 is reserved for the root namespace");
            }
            if (prefixOctet[i] != prefixOctet[0]) {
                throw new IllegalArgumentException("all regions must share one address prefix: " + regions);
            }
            if (!names.add(r.name()) || !namespaces.add(r.namespace()) || !octets.add(regionOctet[i])) {
                throw new IllegalArgumentException("duplicate region name, namespace or CIDR: " + regions);
            }
        }
    }

    private static void requireName(String what, String value) {
        if (value == null || !NAME.matcher(value).matches()) {
            throw new IllegalArgumentException(what + " must be lower-case letters, digits and '-', got " + value);
        }
    }

    private static int octet(String text, WanRegion r) {
        int v = Integer.parseInt(text);
        if (v > 255) {
            throw new IllegalArgumentException("region " + r.name() + ": bad CIDR " + r.cidr());
        }
        return v;
    }

    List<WanRegion> regions() {
        return regions;
    }

    int size() {
        return regions.size();
    }

    int indexOf(String regionName) {
        for (int i = 0; i < regions.size(); i++) {
            if (regions.get(i).name().equals(regionName)) {
                return i;
            }
        }
        throw new IllegalArgumentException("unknown region '" + regionName + "', known: "
                + regions.stream().map(WanRegion::name).toList());
    }

    /**
     * The region owning an IPv4 destination address (network byte order, as in a packet header),
     * or -1.
     */
    int regionOf(int address) {
        if ((address >>> 24) != 127 || ((address >>> 16) & 0xff) != prefixOctet[0]) {
            return -1;
        }
        int third = (address >>> 8) & 0xff;
        for (int i = 0; i < regionOctet.length; i++) {
            if (regionOctet[i] == third) {
                return i;
            }
        }
        return -1;
    }

    String tunName(int i) {
        return "gb" + prefixOctet[i] + "w" + regionOctet[i];
    }

    String hostVeth(int i) {
        return "gb" + prefixOctet[i] + "h" + regionOctet[i];
    }

    String namespaceVeth(int i) {
        return "gb" + prefixOctet[i] + "n" + regionOctet[i];
    }

    /** The region's first address, the source of its traffic to other regions and to the root. */
    String firstAddress(int i) {
        return "127." + prefixOctet[i] + "." + regionOctet[i] + ".1";
    }

    /**
     * The address root-namespace clients use towards the regions. With prefix 127.0 it cannot be
     * 127.0.0.1: that address stays local inside every namespace, so replies would never leave it.
     */
    String rootAddress() {
        return "127." + prefixOctet[0] + (prefixOctet[0] == 0 ? ".0.2" : ".0.1");
    }

    String rootCidr() {
        return "127." + prefixOctet[0] + ".0.0/24";
    }

    /** Commands that build region {@code i}'s namespace and its undelayed path to the root. */
    List<List<String>> setupCommands(int i) {
        WanRegion r = regions.get(i);
        String ns = r.namespace();
        String host = hostVeth(i);
        List<List<String>> c = new ArrayList<>();
        c.add(List.of("ip", "netns", "add", ns));
        c.add(List.of("ip", "-n", ns, "link", "set", "lo", "up"));
        c.add(List.of("ip", "-n", ns, "addr", "del", "127.0.0.1/8", "dev", "lo"));
        c.add(List.of("ip", "-n", ns, "addr", "add", "127.0.0.1/32", "dev", "lo"));
        c.add(List.of("ip", "-n", ns, "addr", "add", firstAddress(i) + "/24", "dev", "lo"));
        c.add(List.of("ip", "netns", "exec", ns, "sh", "-c", sysctl(
                "ipv4/conf/all/route_localnet=1", "ipv4/conf/default/route_localnet=1",
                "ipv4/conf/all/rp_filter=0", "ipv4/conf/default/rp_filter=0",
                "ipv6/conf/all/disable_ipv6=1", "ipv6/conf/default/disable_ipv6=1")));
        if (tcpRtoMaxMillis > 0) {
            c.add(List.of("ip", "netns", "exec", ns, "sh", "-c", optionalSysctl("ipv4/tcp_rto_max_ms=" + tcpRtoMaxMillis)));
        }
        c.add(List.of("ip", "link", "add", host, "type", "veth", "peer", "name", namespaceVeth(i), "netns", ns));
        c.add(List.of("sh", "-c", sysctl("ipv4/conf/" + host + "/route_localnet=1",
                "ipv4/conf/" + host + "/rp_filter=0", "ipv6/conf/" + host + "/disable_ipv6=1")));
        c.add(List.of("ip", "link", "set", host, "up"));
        c.add(List.of("ip", "-n", ns, "link", "set", namespaceVeth(i), "up"));
        c.add(List.of("ip", "route", "add", r.cidr(), "dev", host, "table", "local", "src", rootAddress()));
        c.add(List.of("ip", "-n", ns, "route", "add", rootCidr(), "dev", namespaceVeth(i), "src", firstAddress(i)));
        return c;
    }

    static int tcpRtoMaxMillis(String configured) {
        return configured == null || configured.isBlank() ? TCP_RTO_MAX_MILLIS : Integer.parseInt(configured.strip());
    }

    /**
     * A shell line setting {@code net.*} sysctls of the namespace it runs in, through /proc (no
     * dependency on procps' {@code sysctl}).
     */
    static String sysctl(String... settings) {
        List<String> writes = new ArrayList<>();
        for (String setting : settings) {
            int eq = setting.indexOf('=');
            writes.add("echo " + setting.substring(eq + 1) + " > /proc/sys/net/" + setting.substring(0, eq));
        }
        return String.join(" && ", writes);
    }

    /** A shell line setting one {@code net.*} sysctl if this kernel has it, and nothing otherwise. */
    static String optionalSysctl(String setting) {
        String file = "/proc/sys/net/" + setting.substring(0, setting.indexOf('='));
        return "if [ -e " + file + " ]; then " + sysctl(setting) + "; fi";
    }

    /** Commands run once region {@code i}'s TUN exists in the root namespace. */
    List<List<String>> tunCommands(int i) {
        String ns = regions.get(i).namespace();
        String tun = tunName(i);
        List<List<String>> c = new ArrayList<>();
        c.add(List.of("ip", "link", "set", tun, "netns", ns));
        c.add(List.of("ip", "-n", ns, "link", "set", tun, "mtu", Integer.toString(TUN_MTU), "up"));
        for (int j = 0; j < regions.size(); j++) {
            if (j != i) {
                c.add(List.of("ip", "-n", ns, "route", "add", regions.get(j).cidr(), "dev", tun, "src", firstAddress(i)));
            }
        }
        return c;
    }

    /**
     * Commands that remove everything of region {@code i}; each may fail harmlessly when its object
     * is already gone. The veth is deleted explicitly because a namespace outlives {@code ip netns
     * del} while a process still runs in it.
     */
    List<List<String>> teardownCommands(int i) {
        WanRegion r = regions.get(i);
        return List.of(
                List.of("ip", "link", "del", hostVeth(i)),
                List.of("ip", "route", "del", r.cidr(), "table", "local"),
                List.of("ip", "netns", "del", r.namespace()));
    }
}
