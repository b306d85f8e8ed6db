package io.geobroker.loadgen.ackbench;

import io.geobroker.domain.Exchange;
import io.geobroker.domain.Region;
import io.geobroker.domain.SymbolDirectory;
import io.geobroker.domain.SymbolInfo;
import io.geobroker.loadgen.driver.Driver;
import io.geobroker.loadgen.driver.Http1Client;
import io.geobroker.loadgen.driver.ProcessCpu;
import io.geobroker.loadgen.driver.ProgressBar;
import io.geobroker.loadgen.driver.Target;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;

/**
 * The order-acknowledgement benchmark of issue 28 against one region's broker: creates one funded
 * customer per client, then for each number of clients runs a closed-loop round ({@link ClosedLoop})
 * over REST or FIX, and reports orders per second, ack latency, rejects, errors, fills and CPU.
 */
public final class AckBench {

    /** The order-entry protocol. */
    public enum Protocol { REST, FIX }

    /**
     * @param clients         the rounds: how many clients at once, in order
     * @param warmupOrders    orders per client of an unreported first round with the fewest clients (0: none)
     * @param roundTimeout    bound on one round; what is not sent by then counts as errors
     */
    public record Settings(Protocol protocol, String region, List<Integer> clients, int ordersPerClient, int warmupOrders,
                           int fixPort, Duration ackTimeout, Duration roundTimeout, Duration setupTimeout,
                           Duration readyTimeout, Path out, boolean progress) {
        public Settings {
            clients = List.copyOf(clients);
        }

        /** The largest number of clients of any round: the customers to create. */
        public int maxClients() {
            return clients.stream().mapToInt(Integer::intValue).max().orElse(0);
        }

        /** Orders one customer may send over the whole run, warm-up included. */
        public long ordersPerCustomer() {
            return (long) warmupOrders + (long) ordersPerClient * clients.size();
        }
    }

    private AckBench() {
    }

    /**
     * Runs the benchmark against {@code target}, prints the report and writes it under
     * {@link Settings#out}. {@code processes} are the deployment's processes on this machine whose CPU
     * each round's line gives besides the load generator's (none for a deployment elsewhere).
     */
    public static AckBenchReport run(Target target, Settings s, List<ProcessCpu.Group> processes,
                                     Map<String, String> extraConditions) throws InterruptedException, IOException {
        Target.RegionTarget region = target.regions().stream().filter(r -> r.name().equals(s.region())).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("--region " + s.region() + " is not a region of the target ("
                        + target.regions().stream().map(Target.RegionTarget::name).collect(Collectors.joining(", ")) + ")"));
        Orders orders = Orders.of(region.region(), s);
        String runId = "ab" + Long.toString(System.currentTimeMillis(), 36);
        Instant started = Instant.now().truncatedTo(ChronoUnit.SECONDS);
        Map<String, String> conditions = conditions(target.description(), region.name() + " at " + region.brokerUrl(), s,
                orders, "one customer per client, funded with " + orders.cash + " minor units of " + orders.currency,
                extraConditions);
        List<RoundResult> rounds;
        ProgressBar progress = new ProgressBar(System.err, s.progress());
        try (Driver driver = new Driver(target, progress, runId, Driver.Tickers.fromDeployment())) {
            System.err.println("Checking the deployment: " + target);
            driver.awaitReady(s.readyTimeout());
            System.err.printf(Locale.ROOT, "Creating %d customers in %s, each with %s %s ...%n", s.maxClients(), region.name(),
                    DecimalPrice.toDecimal(orders.cash, orders.minorDigits()).toPlainString(), orders.currency);
            List<Driver.Customer> customers = driver.createCustomersIn(region, s.maxClients(), orders.currency, orders.cash,
                    s.setupTimeout());
            try (Entries entries = Entries.open(s, region, customers)) {
                rounds = rounds(s, entries, orders, runId, processes, conditions);
            }
        }
        return report(s, region.name(), started, conditions, rounds);
    }

    /**
     * The FIX rounds against the FIX floor at {@code host:port} ({@code FixFloor} in the broker's jar:
     * the broker's acceptor answering each order at once, nothing behind it): no deployment and no
     * customers to create, each client logs on as a customer id of its own. {@code processes} are the
     * floor's process, whose CPU each round's line gives besides the load generator's.
     */
    public static AckBenchReport runFloor(String host, int port, Settings s, List<ProcessCpu.Group> processes,
                                          Map<String, String> extraConditions) throws InterruptedException, IOException {
        if (s.protocol() != Protocol.FIX) {
            throw new IllegalArgumentException("the floor is the FIX acceptor alone: use it with the FIX protocol");
        }
        Region region = SymbolDirectory.standard().region(s.region())
                .orElseThrow(() -> new IllegalArgumentException("--region " + s.region() + " is not a region of the directory"));
        Orders orders = Orders.of(region, s);
        String runId = "ab" + Long.toString(System.currentTimeMillis(), 36);
        Instant started = Instant.now().truncatedTo(ChronoUnit.SECONDS);
        Map<String, String> conditions = conditions("the FIX floor at " + host + ":" + port + ": the broker's FIX "
                + "acceptor (its QuickFIX/J settings, file store and log) answering each order at once, with nothing "
                + "matched, reserved, written to Cassandra or published", "none (the floor)", s, orders,
                "one customer id per client, made up for the run (the floor keeps no accounts)", extraConditions);
        List<Driver.Customer> customers = new ArrayList<>();
        for (int i = 0; i < s.maxClients(); i++) {
            customers.add(new Driver.Customer(runId + "-floor-" + i, "floor", null));
        }
        List<RoundResult> rounds;
        try (Entries entries = Entries.fix(host, port, s, customers)) {
            rounds = rounds(s, entries, orders, runId, processes, conditions);
        }
        return report(s, region.name() + " (floor)", started, conditions, rounds);
    }

    /** The warm-up round, if any, then the measured rounds; the warm-up's summary goes into {@code conditions}. */
    private static List<RoundResult> rounds(Settings s, Entries entries, Orders orders, String runId,
                                            List<ProcessCpu.Group> processes, Map<String, String> conditions)
            throws InterruptedException {
        List<ProcessCpu.Group> measured = new ArrayList<>(processes);
        measured.add(ProcessCpu.loadGenerator());
        conditions.put("order entry", entries.description());
        if (s.warmupOrders() > 0) {
            int warmupClients = s.clients().stream().mapToInt(Integer::intValue).min().orElseThrow();
            System.err.printf(Locale.ROOT, "Warm-up: %d clients x %d orders (not reported) ...%n", warmupClients,
                    s.warmupOrders());
            RoundResult warmup = ClosedLoop.run(entries.list().subList(0, warmupClients), s.warmupOrders(),
                    ordersOf(runId + "-w", orders.symbols, orders.directory), s.roundTimeout(), s.ackTimeout(),
                    entries::fills, measured);
            System.err.println("Warm-up: " + summary(warmup));
            conditions.put("warm-up", warmupClients + " clients x " + s.warmupOrders() + " orders before the rounds: "
                    + summary(warmup));
        }
        List<RoundResult> rounds = new ArrayList<>();
        for (int clients : s.clients()) {
            System.err.printf(Locale.ROOT, "Round: %d clients x %,d orders ...%n", clients, s.ordersPerClient());
            RoundResult round = ClosedLoop.run(entries.list().subList(0, clients), s.ordersPerClient(),
                    ordersOf(runId + "-" + clients + "c", orders.symbols, orders.directory), s.roundTimeout(),
                    s.ackTimeout(), entries::fills, measured);
            System.err.println("Round: " + summary(round));
            rounds.add(round);
        }
        return rounds;
    }

    private static AckBenchReport report(Settings s, String region, Instant started, Map<String, String> conditions,
                                         List<RoundResult> rounds) throws IOException {
        conditions.put("machine load average (1 min) at end", loadAverage());
        AckBenchReport report = new AckBenchReport(started.toString(), s.protocol().name().toLowerCase(Locale.ROOT),
                region, s.ordersPerClient(), conditions, rounds);
        System.out.print(report.console());
        AckBenchReport.Written files = report.write(s.out());
        System.out.println("Report: " + files.json().toAbsolutePath() + " (also " + files.markdown().getFileName() + ")");
        return report;
    }

    /**
     * What the clients trade: the region's own symbols (one currency), and the cash that covers every
     * order one customer may send over the run.
     */
    private record Orders(SymbolDirectory directory, List<SymbolInfo> symbols, String currency, long cash) {

        static Orders of(Region region, Settings s) {
            List<SymbolInfo> symbols = Driver.symbols(List.of(region), Integer.MAX_VALUE);
            if (symbols.isEmpty()) {
                throw new IllegalArgumentException("region " + region.name() + " trades no symbols of its own");
            }
            SymbolDirectory directory = SymbolDirectory.standard();
            Set<String> currencies = symbols.stream().map(directory::currencyOf).collect(Collectors.toCollection(TreeSet::new));
            if (currencies.size() != 1) {
                throw new IllegalArgumentException("region " + region.name() + " trades in " + currencies
                        + "; the benchmark funds one currency");
            }
            long maxPrice = symbols.stream().mapToLong(BenchOrder::restingBuyPrice).max().orElseThrow();
            long cash = Math.multiplyExact(Math.multiplyExact(s.ordersPerCustomer(), maxPrice), BenchOrder.QUANTITY);
            return new Orders(directory, symbols, currencies.iterator().next(), cash);
        }

        int minorDigits() {
            return AckBench.minorDigits(directory, symbols.get(0));
        }
    }

    /**
     * The orders of a round: client {@code c}'s {@code i}-th order has clientOrderId
     * {@code <run id>-<round>-<c>-<i>} (new in every run, so a second run against the same broker
     * repeats none) and trades the region's {@code c}-th symbol (round robin).
     */
    static ClosedLoop.Orders ordersOf(String prefix, List<SymbolInfo> symbols, SymbolDirectory directory) {
        List<BenchOrder> templates = symbols.stream()
                .map(sym -> new BenchOrder("", sym.symbol(), BenchOrder.restingBuyPrice(sym), minorDigits(directory, sym)))
                .toList();
        return (client, i) -> {
            BenchOrder t = templates.get(client % templates.size());
            return new BenchOrder(prefix + "-" + client + "-" + i, t.symbol(), t.limitPrice(), t.minorDigits());
        };
    }

    private static int minorDigits(SymbolDirectory directory, SymbolInfo symbol) {
        return directory.exchange(symbol.exchange()).map(Exchange::currencyMinorDigits).orElseThrow();
    }

    private static String summary(RoundResult r) {
        return String.format(Locale.ROOT, "%,d accepted, %,d rejected, %,d errors in %.3f s: %,.0f orders/s, ack p50 %s ms, "
                        + "p99 %s ms", r.accepted(), r.rejected(), r.errors(), r.wallNanos() / 1e9, r.ordersPerSecond(),
                AckBenchReport.millis(r.latency().p50()), AckBenchReport.millis(r.latency().p99()));
    }

    /** The clients' order entries over the chosen protocol, and what closes them. */
    private interface Entries extends AutoCloseable {
        List<? extends OrderEntry> list();

        long fills();

        String description();

        @Override
        void close();

        static Entries open(Settings s, Target.RegionTarget region, List<Driver.Customer> customers) throws InterruptedException {
            URI broker = URI.create(region.brokerUrl());
            if (s.protocol() == Protocol.FIX) {
                return fix(broker.getHost(), s.fixPort(), s, customers);
            }
            if (!"http".equalsIgnoreCase(broker.getScheme())) {
                throw new IllegalArgumentException("the REST benchmark speaks plain http; " + region.name() + "'s broker is at "
                        + region.brokerUrl());
            }
            Http1Client http = new Http1Client(broker, Duration.ofSeconds(3), s.ackTimeout(), "ackbench-rest");
            List<RestOrderEntry> list = customers.stream().map(c -> new RestOrderEntry(http, c.token())).toList();
            return new Entries() {
                public List<? extends OrderEntry> list() {
                    return list;
                }

                public long fills() {
                    return -1;
                }

                public String description() {
                    return "REST, POST " + region.brokerUrl() + "/api/v1/orders, one kept-alive HTTP/1.1 connection per client; "
                            + "ack = the HTTP answer";
                }

                public void close() {
                    http.close();
                }
            };
        }

        /** One FIX session per customer to {@code host:port}, logged on. */
        static Entries fix(String host, int port, Settings s, List<Driver.Customer> customers) throws InterruptedException {
            FixSessions sessions = FixSessions.logOn(host, port, customers, s.ackTimeout(), s.readyTimeout());
            return new Entries() {
                public List<? extends OrderEntry> list() {
                    return sessions.entries();
                }

                public long fills() {
                    return sessions.fills();
                }

                public String description() {
                    return "FIX 4.4 (QuickFIX/J initiator), one session per client to " + sessions.address()
                            + ", TargetCompID " + FixSessions.TARGET_COMP_ID + "; ack = the first ExecutionReport of the "
                            + "ClOrdID; fills = ExecutionReports with ExecType F";
                }

                public void close() {
                    sessions.close();
                }
            };
        }
    }

    private static Map<String, String> conditions(String target, String broker, Settings s, Orders orders,
                                                  String customers, Map<String, String> extra) {
        Map<String, String> c = new LinkedHashMap<>();
        Runtime rt = Runtime.getRuntime();
        long ramGiB = ManagementFactory.getOperatingSystemMXBean() instanceof com.sun.management.OperatingSystemMXBean os
                ? Math.round(os.getTotalMemorySize() / (1024.0 * 1024 * 1024)) : 0;
        c.put("machine", rt.availableProcessors() + " cores, " + ramGiB + " GiB RAM, " + System.getProperty("os.name") + " "
                + System.getProperty("os.version") + " " + System.getProperty("os.arch"));
        c.put("load generator JVM", System.getProperty("java.vm.name") + " " + System.getProperty("java.version")
                + ", max heap " + rt.maxMemory() / (1024 * 1024) + " MB");
        c.put("target", target);
        c.put("broker", broker);
        c.put("orders", "LIMIT BUY of " + BenchOrder.QUANTITY + " share, DAY, at half the symbol's start price on its tick grid "
                + "(resting, never filled); client i trades symbol i of the region's " + orders.symbols.size() + " (round robin); "
                + customers);
        c.put("rounds", s.clients().stream().map(String::valueOf).collect(Collectors.joining(", ")) + " clients, "
                + s.ordersPerClient() + " orders each; ack timeout " + s.ackTimeout().toMillis() + " ms");
        c.putAll(extra);
        c.put("machine load average (1 min) at start", loadAverage());
        return c;
    }

    private static String loadAverage() {
        double load = ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage();
        return load < 0 ? "unknown" : String.format(Locale.ROOT, "%.1f", load);
    }
}
