package io.geobroker.loadgen.chaos;

import io.geobroker.loadgen.report.ChaosReport;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Predicate;

/**
 * Runs a {@link ChaosPlan} against a {@link FaultTarget} while the load runs, one fault after the
 * other: each is done, undone, then the region is probed until it serves again, then the recovery
 * gap passes. Times are kept from {@code originNanos} (the measured phase's start). Every wait is
 * bounded by the plan's serve timeout.
 */
public final class FaultRunner {

    /** Whether, some time after a WAN cut was restored, both regions show the same state for the orders placed during it. */
    public interface SameState {
        /** Waits until the orders placed in {@code [fromMillis, toMillis]} agree in every region; the time it agreed, or -1. */
        long awaitAgreement(long fromMillis, long toMillis, Duration timeout) throws InterruptedException;
    }

    static final String READY = "/actuator/health/readiness";
    /** What the probe checks: the serving predicate of {@link ChaosRun}. */
    static final String SERVING = "the region's broker ready (" + READY + " 200) and a customer's balances read there (200)";

    private final FaultTarget target;
    private final ChaosPlan plan;
    private final long originNanos;
    private final Predicate<String> serving;
    private final SameState sameState;
    private final List<ChaosReport.Fault> lines = new CopyOnWriteArrayList<>();
    private final List<String> problems = new CopyOnWriteArrayList<>();

    public FaultRunner(FaultTarget target, ChaosPlan plan, long originNanos, Predicate<String> serving, SameState sameState) {
        this.target = target;
        this.plan = plan;
        this.originNanos = originNanos;
        this.serving = serving;
        this.sameState = sameState;
    }

    /** A probe that a region's broker answers its readiness check with 200. */
    public static Predicate<String> readiness(FaultTarget target) {
        HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(1)).build();
        return region -> {
            try {
                HttpRequest request = HttpRequest.newBuilder(URI.create(target.brokerUrl(region) + READY))
                        .timeout(Duration.ofSeconds(2)).GET().build();
                return http.send(request, HttpResponse.BodyHandlers.discarding()).statusCode() == 200;
            } catch (IOException e) {
                return false;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return false;
            }
        };
    }

    /** The faults done so far, in order. */
    public List<ChaosReport.Fault> lines() {
        return List.copyOf(lines);
    }

    /** What went wrong in the schedule itself (a process that would not restart), if anything. */
    public List<String> problems() {
        return List.copyOf(problems);
    }

    /** Runs the whole schedule, starting at the origin; stops early only when interrupted. */
    public void run() {
        SplittableRandom random = new SplittableRandom(plan.seed());
        List<String> regions = plan.regions().isEmpty() ? target.regions() : plan.regions();
        try {
            sleepUntil(0);
            if (plan.has(ChaosPlan.Kind.CASSANDRA)) {
                for (String region : regions) {
                    cassandra(region);
                    pause(plan.gap());
                }
            }
            if (plan.has(ChaosPlan.Kind.KAFKA)) {
                kafka(regions.get(0));
                pause(plan.gap());
            }
            if (plan.has(ChaosPlan.Kind.BROKER)) {
                for (int i = 0; i < plan.brokerKills(); i++) {
                    broker(regions.get(random.nextInt(regions.size())));
                    long gapMillis = plan.gap().toMillis();
                    pause(Duration.ofMillis(gapMillis / 2 + (gapMillis == 0 ? 0 : random.nextLong(gapMillis + 1))));
                }
            }
            if (plan.has(ChaosPlan.Kind.WAN)) {
                List<String> all = target.regions();
                if (!target.wanOn()) {
                    problems.add("the WAN cut was not done: the emulated WAN is off (it needs Linux, root and network "
                            + "namespaces; --wan on)");
                } else if (all.size() < 2) {
                    problems.add("the WAN cut was not done: one region only");
                } else {
                    wan(all.get(0), all.get(1));
                    pause(plan.gap());
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            problems.add("the fault schedule was interrupted");
        } catch (RuntimeException | IOException e) {
            problems.add("the fault schedule stopped: " + e.getMessage());
        }
    }

    private void cassandra(String region) throws InterruptedException {
        stackProcess("cassandra", region, lastNodeOf(region), plan.cassandraDown(), "accepting CQL",
                SERVING);
    }

    private void kafka(String region) throws InterruptedException {
        stackProcess("kafka", region, "kafka-" + region, plan.kafkaDown(), "answering",
                "Kafka answering, " + SERVING);
    }

    /** SIGKILL to a stack process, started again after {@code down}; served again when the region's broker is ready. */
    private void stackProcess(String fault, String region, String name, Duration down, String serving, String servedAs)
            throws InterruptedException {
        long start = now();
        target.killStackProcess(name);
        pause(down);
        long end = now();
        target.restartStackProcess(name, plan.serveTimeout());
        long back = now();
        long served = awaitServing(region, end);
        add(fault, region, String.format(Locale.ROOT, "SIGKILL %s, started again after %.1f s, %s %.1f s later",
                name, (end - start) / 1000.0, serving, (back - end) / 1000.0), start, end, served, servedAs);
    }

    private void broker(String region) throws InterruptedException, IOException {
        long start = now();
        target.killBroker(region);
        target.restartBroker(region);
        long end = now();
        long served = awaitServing(region, end);
        add("broker", region, "SIGKILL broker " + region + ", started again at once", start, end, served,
                SERVING);
    }

    private void wan(String a, String b) throws InterruptedException {
        long start = now();
        target.cutLink(a, b);
        pause(plan.wanCut());
        long end = now();
        target.restoreLink(a, b);
        long agreed = sameState.awaitAgreement(start, end, plan.serveTimeout());
        add("wan", a + "-" + b, String.format(Locale.ROOT, "link %s-%s cut for %.1f s, then restored", a, b,
                (end - start) / 1000.0), start, end, agreed,
                "every order placed during the cut taken by its home and, in one read, in the same state (status, filled quantity) "
                        + "in every region or as far along as its home had it a read before");
    }

    private String lastNodeOf(String region) {
        List<String> nodes = new ArrayList<>(target.stackProcesses().stream()
                .filter(n -> n.startsWith("cassandra-" + region + "-")).sorted().toList());
        if (nodes.isEmpty()) {
            throw new IllegalStateException("no Cassandra node of region " + region + " in " + target.stackProcesses());
        }
        return nodes.get(nodes.size() - 1);
    }

    /** Polls the region's readiness every 100 ms; the first time it answers, or -1 after the serve timeout. */
    private long awaitServing(String region, long fromMillis) throws InterruptedException {
        long deadline = fromMillis + plan.serveTimeout().toMillis();
        while (now() < deadline) {
            if (serving.test(region)) {
                return now();
            }
            Thread.sleep(100);
        }
        return -1;
    }

    private void add(String fault, String region, String what, long start, long end, long served, String servedAs) {
        ChaosReport.Fault line = new ChaosReport.Fault(fault, region, what, start, end, served, servedAs);
        lines.add(line);
        System.err.printf(Locale.ROOT, "chaos: %s at %.1f s; %s%n", what, start / 1000.0,
                line.servedAgain() ? String.format(Locale.ROOT, "served again %.1f s after", line.recoverySeconds())
                        : "not served again within " + plan.serveTimeout().toSeconds() + " s");
    }

    private void sleepUntil(long millis) throws InterruptedException {
        long wait = millis - now();
        if (wait > 0) {
            Thread.sleep(wait);
        }
    }

    private static void pause(Duration d) throws InterruptedException {
        if (!d.isZero()) {
            Thread.sleep(d.toMillis());
        }
    }

    private long now() {
        return (System.nanoTime() - originNanos) / 1_000_000;
    }
}
