package io.geobroker.loadgen.ackbench;

import io.geobroker.domain.Exchange;
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
        List<SymbolInfo> symbols = Driver.symbols(List.of(region.region()), Integer.MAX_VALUE);
        if (symbols.isEmpty()) {
            throw new IllegalArgumentException("region " + region.name() + " trades no symbols of its own");
        }
        SymbolDirectory directory = SymbolDirectory.standard();
        Set<String> currencies = symbols.stream().map(directory::currencyOf).collect(Collectors.toCollection(TreeSet::new));
        if (currencies.size() != 1) {
            throw new IllegalArgumentException("region " + region.name() + " trades in " + currencies + "; the benchmark funds one currency");
        }
        String currency = currencies.iterator().next();
        long maxPrice = symbols.stream().mapToLong(BenchOrder::restingBuyPrice).max().orElseThrow();
        long cash = Math.multiplyExact(Math.multiplyExact(s.ordersPerCustomer(), maxPrice), BenchOrder.QUANTITY);

        String runId = "ab" + Long.toString(System.currentTimeMillis(), 36);
        Instant started = Instant.now().truncatedTo(ChronoUnit.SECONDS);
        Map<String, String> conditions = conditions(target, region, s, symbols, currency, cash, extraConditions);
        List<ProcessCpu.Group> measured = new ArrayList<>(processes);
        measured.add(ProcessCpu.loadGenerator());
        List<RoundResult> rounds = new ArrayList<>();
        ProgressBar progress = new ProgressBar(System.err, s.progress());
        try (Driver driver = new Driver(target, progress, runId, Driver.Tickers.fromDeployment())) {
            System.err.println("Checking the deployment: " + target);
            driver.awaitReady(s.readyTimeout());
            System.err.printf(Locale.ROOT, "Creating %d customers in %s, each with %s %s ...%n", s.maxClients(), region.name(),
                    DecimalPrice.toDecimal(cash, minorDigits(directory, symbols.get(0))).toPlainString(), currency);
            List<Driver.Customer> customers = driver.createCustomersIn(region, s.maxClients(), currency, cash, s.setupTimeout());
            try (Entries entries = Entries.open(s, region, customers)) {
                conditions.put("order entry", entries.description());
                if (s.warmupOrders() > 0) {
                    int warmupClients = s.clients().stream().mapToInt(Integer::intValue).min().orElseThrow();
                    System.err.printf(Locale.ROOT, "Warm-up: %d clients x %d orders (not reported) ...%n", warmupClients,
                            s.warmupOrders());
                    RoundResult warmup = ClosedLoop.run(entries.list().subList(0, warmupClients), s.warmupOrders(),
                            ordersOf(runId + "-w", symbols, directory), s.roundTimeout(), s.ackTimeout(), entries::fills, measured);
                    System.err.println("Warm-up: " + summary(warmup));
                    conditions.put("warm-up", warmupClients + " clients x " + s.warmupOrders() + " orders before the rounds: "
                            + summary(warmup));
                }
                for (int clients : s.clients()) {
                    System.err.printf(Locale.ROOT, "Round: %d clients x %,d orders ...%n", clients, s.ordersPerClient());
                    RoundResult round = ClosedLoop.run(entries.list().subList(0, clients), s.ordersPerClient(),
                            ordersOf(runId + "-" + clients + "c", symbols, directory), s.roundTimeout(), s.ackTimeout(),
                            entries::fills, measured);
                    System.err.println("Round: " + summary(round));
                    rounds.add(round);
                }
            }
        }
        conditions.put("machine load average (1 min) at end", loadAverage());
        AckBenchReport report = new AckBenchReport(started.toString(), s.protocol().name().toLowerCase(Locale.ROOT),
                region.name(), s.ordersPerClient(), conditions, rounds);
        System.out.print(report.console());
        AckBenchReport.Written files = report.write(s.out());
        System.out.println("Report: " + files.json().toAbsolutePath() + " (also " + files.markdown().getFileName() + ")");
        return report;
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
                FixSessions sessions = FixSessions.logOn(broker.getHost(), s.fixPort(), customers, s.ackTimeout(), s.readyTimeout());
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
    }

    private static Map<String, String> conditions(Target target, Target.RegionTarget region, Settings s, List<SymbolInfo> symbols,
                                                  String currency, long cash, Map<String, String> extra) {
        Map<String, String> c = new LinkedHashMap<>();
        Runtime rt = Runtime.getRuntime();
        long ramGiB = ManagementFactory.getOperatingSystemMXBean() instanceof com.sun.management.OperatingSystemMXBean os
                ? Math.round(os.getTotalMemorySize() / (1024.0 * 1024 * 1024)) : 0;
        c.put("machine", rt.availableProcessors() + " cores, " + ramGiB + " GiB RAM, " + System.getProperty("os.name") + " "
                + System.getProperty("os.version") + " " + System.getProperty("os.arch"));
        c.put("load generator JVM", System.getProperty("java.vm.name") + " " + System.getProperty("java.version")
                + ", max heap " + rt.maxMemory() / (1024 * 1024) + " MB");
        c.put("target", target.description());
        c.put("broker", region.name() + " at " + region.brokerUrl());
        c.put("orders", "LIMIT BUY of " + BenchOrder.QUANTITY + " share, DAY, at half the symbol's start price on its tick grid "
                + "(resting, never filled); client i trades symbol i of the region's " + symbols.size() + " (round robin); "
                + "one customer per client, funded with " + cash + " minor units of " + currency);
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
