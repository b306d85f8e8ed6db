package io.geobroker.loadgen.chaos;

import io.geobroker.domain.Fill;
import io.geobroker.domain.OrderStatus;
import io.geobroker.domain.SymbolDirectory;
import io.geobroker.domain.SymbolInfo;
import io.geobroker.loadgen.driver.Driver;
import io.geobroker.loadgen.driver.FillLedger;
import io.geobroker.loadgen.driver.Target;
import io.geobroker.loadgen.driver.Workload;
import io.geobroker.loadgen.metrics.Metrics;
import io.geobroker.loadgen.report.ChaosReport;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;

/**
 * The chaos scenario around one load run: makes the measured phase long enough for the fault
 * schedule, runs the schedule from the measured phase's start in a thread of its own, and after the
 * run's drain reads the fills topics and every region's REST API until the invariants hold or the
 * convergence bound has passed.
 */
public final class ChaosRun {

    /** Time given between a served-again and the last error it explains (an order's answer timeout, and a second). */
    static final long GRACE_MILLIS = Driver.REQUEST_TIMEOUT.toMillis() + 1_000;
    private static final Duration POLL = Duration.ofSeconds(1);
    /** How often the wait for the cut's orders to agree says which are still apart. */
    private static final Duration NOTE_EVERY = Duration.ofSeconds(1);
    /** At most this many orders of a cut still apart are read again by their ids, not by listing. */
    static final int READ_BY_ID = 200;

    private final FaultTarget deployment;
    private final ChaosPlan plan;
    private FaultRunner runner;
    private Thread thread;
    private long originEpochMillis;

    public ChaosRun(FaultTarget deployment, ChaosPlan plan) {
        this.deployment = deployment;
        this.plan = plan;
    }

    /** The workload with a measured phase at least as long as the schedule is expected to take. */
    public Workload adjust(Workload w) {
        Duration needed = plan.estimatedLength(deployment.regions().size(), deployment.wanOn());
        return needed.compareTo(w.duration()) > 0 ? w.withDurations(w.warmup(), needed) : w;
    }

    /**
     * Starts the schedule so that it begins as the measured phase does: call just before
     * {@link Driver#run}, which starts the warm-up {@code leadMillis} later.
     */
    public void start(List<Driver.Customer> customers, Duration warmup, long leadMillis) {
        long originNanos = System.nanoTime() + leadMillis * 1_000_000 + warmup.toNanos();
        originEpochMillis = System.currentTimeMillis() + leadMillis + warmup.toMillis();
        DeploymentReader reader = reader(customers);
        runner = new FaultRunner(deployment, plan, originNanos, FaultRunner.readiness(deployment).and(reader::servesReads),
                (from, to, timeout) -> agreement(reader, from, to, timeout));
        thread = new Thread(runner::run, "chaos-faults");
        thread.setDaemon(true);
        thread.start();
    }

    /**
     * Waits for the schedule to end, then for the invariants to hold (at most the convergence bound),
     * and returns the faults' time lines and the invariants table.
     */
    public ChaosReport finish(Metrics metrics, Target target, List<Driver.Customer> customers, List<SymbolInfo> symbols)
            throws InterruptedException {
        thread.join(plan.serveTimeout().multipliedBy(4).toMillis());
        List<String> notes = new ArrayList<>(runner.problems());
        if (thread.isAlive()) {
            thread.interrupt();
            thread.join(plan.serveTimeout().toMillis());
            notes.add("the fault schedule outlasted the run and was stopped");
        }
        List<ChaosReport.Fault> faults = runner.lines();
        SymbolDirectory directory = SymbolDirectory.standard();
        ChaosInvariants.Funding funding = new ChaosInvariants.Funding(Driver.FUNDED_CASH_PER_CURRENCY,
                symbols.stream().map(directory::currencyOf).collect(Collectors.toSet()), Driver.FUNDED_SHARES_PER_SYMBOL,
                symbols.stream().map(SymbolInfo::symbol).collect(Collectors.toSet()));
        Set<String> customerIds = customers.stream().map(Driver.Customer::id).collect(Collectors.toCollection(TreeSet::new));
        String prefix = customers.get(0).id().substring(0, customers.get(0).id().indexOf('-') + 1);
        DeploymentReader reader = reader(customers);
        ChaosReport.Invariant answered = ChaosInvariants.ordersAnswered(metrics.counters(), metrics.counterTimeline(),
                faults, GRACE_MILLIS);
        long t0 = System.nanoTime();
        long bound = plan.convergeTimeout().toNanos();
        System.err.println("chaos: checking the invariants (up to " + plan.convergeTimeout().toSeconds() + " s for the regions to agree)");
        try (FillLedger ledger = new FillLedger(target, prefix)) {
            while (true) {
                List<String> behind = ledger.readToEnd(Duration.ofSeconds(15));
                DeploymentReader.Snapshot snapshot = reader.snapshot();
                long elapsed = System.nanoTime() - t0;
                List<ChaosReport.Invariant> table = table(answered, ledger.records(), snapshot, customerIds, funding,
                        -1, plan.convergeTimeout().toMillis());
                boolean complete = behind.isEmpty() && snapshot.unreadable().isEmpty();
                if (complete && table.stream().allMatch(ChaosReport.Invariant::holds)) {
                    long converged = elapsed / 1_000_000;
                    return new ChaosReport(faults, table(answered, ledger.records(), snapshot, customerIds, funding,
                            converged, plan.convergeTimeout().toMillis()), converged, plan.convergeTimeout().toMillis(), notes);
                }
                if (elapsed > bound) {
                    behind.forEach(r -> notes.add("the fills topic of " + r + " could not be read to its end"));
                    notes.addAll(snapshot.unreadable().stream().map(u -> "not readable: " + u).toList());
                    return new ChaosReport(faults, table, -1, plan.convergeTimeout().toMillis(), notes);
                }
                Thread.sleep(POLL.toMillis());
            }
        }
    }

    private static List<ChaosReport.Invariant> table(ChaosReport.Invariant answered, List<Fill> fills,
                                                     DeploymentReader.Snapshot snapshot, Set<String> customers,
                                                     ChaosInvariants.Funding funding, long converged, long bound) {
        Map<String, OrderView> home = ChaosInvariants.homeViews(snapshot.orders());
        return List.of(answered,
                ChaosInvariants.noDuplicate(fills, home),
                ChaosInvariants.noneMissing(fills, home),
                ChaosInvariants.booksBalanced(fills, customers, funding, snapshot.cash(), snapshot.shares()),
                ChaosInvariants.statusEqual(snapshot.orders(), converged, bound));
    }

    /**
     * Waits until every order placed during the cut has reached every region, by either of two
     * readings of one pass: every region shows it in the same state (status and filled quantity, not
     * PENDING), or each region shows it (not PENDING) at least as far along as its home region showed
     * it one read before. Under load the cut's resting orders go on filling after the heal, and a
     * region's orders are read seconds after the other's, so equal states in one pass alone would ask
     * for a pause in the fills; a region's later read that has every change its home had made by the
     * earlier read has caught up. Equal states count from the first read on: with the earlier read
     * alone, every order the home had not listed yet in it (the cut's inbox orders) was apart for one
     * more read, and a read takes seconds at three nodes per DC after a heal.
     * An order that has caught up stays so (a region loses no write), so after the first read only the
     * customers with orders still apart are listed again, and once few orders are left
     * ({@link #READ_BY_ID}) only they are read again, each by its id, instead of every order since the
     * cut in both regions (11 s a read at three nodes per DC): the wait then ends within seconds of the
     * last one catching up. The time is that of the agreeing read's end.
     */
    private long agreement(DeploymentReader reader, long fromMillis, long toMillis, Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        long restored = System.nanoTime();
        long nextNote = restored + NOTE_EVERY.toNanos();
        Map<String, Map<String, OrderView>> before = null;
        Map<String, String> left = null;
        while (System.nanoTime() < deadline) {
            try {
                long readStart = System.nanoTime();
                Map<String, Map<String, OrderView>> now;
                boolean byId = left != null && left.size() <= READ_BY_ID;
                Set<String> customers = left == null ? null : new TreeSet<>(left.values());
                if (!byId) {
                    now = new LinkedHashMap<>();
                    for (Map.Entry<String, Map<String, OrderView>> region
                            : reader.ordersSince(originEpochMillis + fromMillis, customers).entrySet()) {
                        now.put(region.getKey(), region.getValue().values().stream()
                                .filter(o -> o.placedAtMillis() <= originEpochMillis + toMillis)
                                .collect(Collectors.toMap(OrderView::orderId, o -> o)));
                    }
                } else {
                    now = reader.ordersByIds(left);
                }
                double readSeconds = (System.nanoTime() - readStart) / 1e9;
                Map<String, String> behind = behind(byId ? only(before, left.keySet())
                        : customers == null ? before : ofCustomers(before, customers), now);
                if (behind.isEmpty()) {
                    return toMillis + (System.nanoTime() - restored) / 1_000_000;
                }
                left = customersOf(behind.keySet(), before, now);
                if (System.nanoTime() >= nextNote) {
                    nextNote = System.nanoTime() + NOTE_EVERY.toNanos();
                    List<String> examples = behind.values().stream().limit(3).toList();
                    System.err.printf(Locale.ROOT, "chaos: %.0f s after the heal (the last read: %.1f s), "
                                    + "%d order(s) of the cut not yet everywhere as their home had them, e.g. %s%n",
                            (System.nanoTime() - restored) / 1e9, readSeconds, behind.size(), String.join("; ", examples));
                }
                before = now;
            } catch (IOException e) {
                // a region not answering yet: try again
            }
            Thread.sleep(250);
        }
        return -1;
    }

    /** Each region's orders of {@code orders} with one of the {@code ids}. */
    static Map<String, Map<String, OrderView>> only(Map<String, Map<String, OrderView>> orders, Set<String> ids) {
        return only(orders, o -> ids.contains(o.orderId()));
    }

    /** Each region's orders of {@code orders} placed by one of the {@code customers}. */
    static Map<String, Map<String, OrderView>> ofCustomers(Map<String, Map<String, OrderView>> orders, Set<String> customers) {
        return only(orders, o -> customers.contains(o.customerId()));
    }

    private static Map<String, Map<String, OrderView>> only(Map<String, Map<String, OrderView>> orders,
                                                            java.util.function.Predicate<OrderView> kept) {
        Map<String, Map<String, OrderView>> result = new LinkedHashMap<>();
        orders.forEach((region, m) -> result.put(region, m.values().stream().filter(kept)
                .collect(Collectors.toMap(OrderView::orderId, o -> o))));
        return result;
    }

    /** The customer of each order id, as any region showed the order in either read ({@code before} may be null). */
    static Map<String, String> customersOf(Set<String> ids, Map<String, Map<String, OrderView>> before,
                                           Map<String, Map<String, OrderView>> now) {
        Map<String, String> customers = new LinkedHashMap<>();
        for (Map<String, Map<String, OrderView>> read : before == null ? List.of(now) : List.of(now, before)) {
            read.values().forEach(m -> m.values().forEach(o -> {
                if (ids.contains(o.orderId())) {
                    customers.putIfAbsent(o.orderId(), o.customerId());
                }
            }));
        }
        return customers;
    }

    /**
     * The orders of {@code before} or {@code now} that have not reached every region, by order id,
     * each as "id: home state, then region state, ...". An order has reached every region when each
     * region in {@code now} shows it in the same state, not PENDING ({@link #sameEverywhere}), or as
     * far along as its home region showed it in {@code before} (absent there, PENDING, fewer shares
     * filled, an earlier status, or another end are behind; an order its home did not show yet, or
     * showed PENDING, is behind by this reading). {@code before} is null at the first read.
     */
    static Map<String, String> behind(Map<String, Map<String, OrderView>> before, Map<String, Map<String, OrderView>> now) {
        Set<String> all = new TreeSet<>();
        if (before != null) {
            before.values().forEach(m -> all.addAll(m.keySet()));
        }
        now.values().forEach(m -> all.addAll(m.keySet()));
        Map<String, String> behind = new LinkedHashMap<>();
        for (String id : all) {
            OrderView home = before == null ? null : homeView(before, id);
            boolean caughtUp = home != null && !home.status().equals("PENDING");
            StringBuilder line = new StringBuilder(id).append(": home ").append(home == null ? "none" : home.state())
                    .append(", then");
            for (Map.Entry<String, Map<String, OrderView>> region : now.entrySet()) {
                OrderView o = region.getValue().get(id);
                caughtUp &= o != null && home != null && atLeast(o, home);
                line.append(' ').append(region.getKey()).append(' ').append(o == null ? "none" : o.state());
            }
            if (!caughtUp && !sameEverywhere(now, id)) {
                behind.put(id, line.toString());
            }
        }
        return behind;
    }

    /**
     * Whether every region of one read shows the order, in a status this load generator knows other
     * than PENDING (its home has taken it), with the same status and filled quantity.
     */
    static boolean sameEverywhere(Map<String, Map<String, OrderView>> read, String id) {
        String state = null;
        for (Map<String, OrderView> region : read.values()) {
            OrderView o = region.get(id);
            OrderStatus status = o == null ? null : status(o);
            if (status == null || status == OrderStatus.PENDING || (state != null && !state.equals(o.state()))) {
                return false;
            }
            state = o.state();
        }
        return state != null;
    }

    private static OrderView homeView(Map<String, Map<String, OrderView>> orders, String id) {
        for (Map<String, OrderView> m : orders.values()) {
            OrderView o = m.get(id);
            if (o != null && !o.homeRegion().isEmpty()) {
                Map<String, OrderView> home = orders.get(o.homeRegion());
                return home == null ? null : home.get(id);
            }
        }
        return null;
    }

    /**
     * Whether {@code o} has every change {@code home} has: not PENDING, as many shares filled, and the
     * same end or a state as far along ({@link OrderStatus} lists the live states in the order an
     * order passes through them). A status this load generator does not know is behind.
     */
    static boolean atLeast(OrderView o, OrderView home) {
        OrderStatus status = status(o);
        OrderStatus homeStatus = status(home);
        if (status == null || homeStatus == null || status == OrderStatus.PENDING
                || o.filledQuantity() < home.filledQuantity()) {
            return false;
        }
        if (homeStatus.isTerminal()) {
            return status == homeStatus && o.filledQuantity() == home.filledQuantity();
        }
        return status.isTerminal() || status.ordinal() >= homeStatus.ordinal();
    }

    private static OrderStatus status(OrderView o) {
        try {
            return OrderStatus.valueOf(o.status());
        } catch (IllegalArgumentException e) {
            return null;
        }
    }

    private DeploymentReader reader(List<Driver.Customer> customers) {
        Map<String, String> urls = new LinkedHashMap<>();
        deployment.regions().forEach(r -> urls.put(r, deployment.brokerUrl(r)));
        return new DeploymentReader(urls, customers);
    }

    /** One line for the report's conditions: the schedule as asked, each fault with its settings. */
    public String describe() {
        List<String> faults = new ArrayList<>();
        if (plan.has(ChaosPlan.Kind.CASSANDRA)) {
            faults.add("a Cassandra node per DC down " + plan.cassandraDown().toSeconds() + " s, DC by DC");
        }
        if (plan.has(ChaosPlan.Kind.KAFKA)) {
            faults.add("Kafka down " + plan.kafkaDown().toSeconds() + " s");
        }
        if (plan.has(ChaosPlan.Kind.BROKER)) {
            faults.add(plan.brokerKills() + " broker SIGKILLs");
        }
        if (plan.has(ChaosPlan.Kind.WAN)) {
            faults.add("the WAN cut " + plan.wanCut().toSeconds() + " s");
        }
        return String.format(Locale.ROOT, "%s, in this order, in %s; %d s recovery gap; serve timeout %d s, convergence "
                        + "bound %d s", String.join(", ", faults), plan.regions().isEmpty() ? "every region"
                        : String.join(", ", plan.regions()), plan.gap().toSeconds(), plan.serveTimeout().toSeconds(),
                plan.convergeTimeout().toSeconds());
    }
}
