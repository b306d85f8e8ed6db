package io.geobroker.loadgen.driver;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.geobroker.domain.OrderType;
import io.geobroker.loadgen.metrics.Metrics;
import io.geobroker.loadgen.metrics.RampedSchedule;
import io.geobroker.loadgen.metrics.SeriesKey;
import io.geobroker.loadgen.report.RunReport;

import java.io.IOException;
import java.net.ConnectException;
import java.net.http.HttpTimeoutException;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Supplier;

/**
 * Places one run's orders over REST, open loop: each at its intended time on the ramped schedule,
 * through its region's {@link ConcurrencyGate} of at most {@code --max-in-flight} orders, timed from
 * the intended time so that waiting at the gate counts as latency. At the end of the run it counts
 * the measured phase's orders that were never sent or never answered as errors.
 */
final class OrderPlacer {

    /** An order waiting for a free slot towards its region's broker. */
    private record OrderTask(boolean measured, Supplier<CompletableFuture<?>> send) implements ConcurrencyGate.Task {
        @Override
        public CompletableFuture<?> start() {
            return send.get();
        }
    }

    private final Target target;
    private final Map<String, BrokerClient> brokers;
    /** Prefix of the client order ids this placer sends: {@code <prefix>-<order number>}. */
    private final String clientOrderIdPrefix;
    private final RampedSchedule schedule;
    private final Workload workload;
    private final MarketModel market;
    private final List<Driver.Customer> customers;
    private final Metrics metrics;
    private final Phases phases;
    private final LongAdder liveErrors;
    private final Map<String, ConcurrencyGate<OrderTask>> gates = new LinkedHashMap<>();
    private final Map<String, LongAdder> measuredInFlight = new HashMap<>();
    private final AtomicLong liveSent = new AtomicLong();
    private final AtomicLong nextOrder = new AtomicLong();
    /** Guards {@link #settled}: a measured order's answer is counted, or it is counted unanswered, never both. */
    private final Object settling = new Object();
    private boolean settled;

    OrderPlacer(Target target, Map<String, BrokerClient> brokers, String clientOrderIdPrefix, RampedSchedule schedule,
                Workload workload, MarketModel market, List<Driver.Customer> customers, Metrics metrics, Phases phases,
                LongAdder liveErrors) {
        this.target = target;
        this.brokers = brokers;
        this.clientOrderIdPrefix = clientOrderIdPrefix;
        this.schedule = schedule;
        this.workload = workload;
        this.market = market;
        this.customers = customers;
        this.metrics = metrics;
        this.phases = phases;
        this.liveErrors = liveErrors;
        for (Target.RegionTarget r : target.regions()) {
            gates.put(r.name(), new ConcurrencyGate<>(workload.maxInFlight()));
            measuredInFlight.put(r.name(), new LongAdder());
        }
    }

    /**
     * Places the schedule's orders, in turn across the customers, until it is done or {@code stop} is
     * set. Once stopped it still sends the measured phase's orders already due (this thread may be
     * behind its schedule when the phase ends: their latency counts from their intended time like
     * any other's), and nothing after them.
     */
    void place(AtomicBoolean stop, SplittableRandom random) {
        int n = market.symbols().size();
        for (long i = 0; i < schedule.operations(); i++, nextOrder.set(i)) {
            long intended = schedule.intendedNanos(i);
            if (stop.get() && (!phases.measured(intended) || intended > System.nanoTime())) {
                break;
            }
            Threads.waitUntil(intended, stop);
            Driver.Customer c = customers.get((int) (i % customers.size()));
            int symbolIndex = random.nextInt(n);
            int roll = random.nextInt(100);
            OrderType type = roll < workload.limitPercent() ? OrderType.LIMIT
                    : roll < workload.limitPercent() + workload.stopPercent() ? OrderType.STOP : OrderType.MARKET;
            MarketModel.OrderIntent order = market.nextOrder(symbolIndex, type, workload.marketablePercent(), random);
            String placed = c.placesIn().name();
            String home = target.homeOf(order.symbol().exchange()).orElseThrow().name();
            SeriesKey key = type == OrderType.MARKET && !home.equals(placed)
                    ? new SeriesKey(SeriesKey.Kind.CROSS_REGION_MARKET, placed, type.name())
                    : new SeriesKey(SeriesKey.Kind.PLACEMENT, placed, type.name());
            boolean measured = phases.measured(intended);
            ObjectNode body = BrokerClient.JSON.createObjectNode()
                    .put("clientOrderId", clientOrderIdPrefix + "-" + i).put("symbol", order.symbol().symbol())
                    .put("side", order.side().name()).put("type", type.name()).put("quantity", order.quantity())
                    .put("timeInForce", "GTC").put("allOrNone", false);
            if (order.limitPrice() > 0) {
                body.put("limitPrice", order.limitPrice());
            }
            if (order.stopPrice() > 0) {
                body.put("stopPrice", order.stopPrice());
            }
            byte[] json = BrokerClient.encode(body);
            BrokerClient broker = brokers.get(placed);
            LongAdder pending = measuredInFlight.get(placed);
            gates.get(placed).submit(new OrderTask(measured, () -> {
                liveSent.incrementAndGet();
                if (measured) {
                    metrics.countMeasured(RunReport.ORDERS_SENT + "/" + placed, 1);
                    pending.increment();
                }
                CompletableFuture<BrokerClient.Answer> answer;
                try {
                    answer = broker.placeOrder(c.token(), json);
                } catch (RuntimeException e) {
                    answer = CompletableFuture.failedFuture(e);
                }
                return answer.whenComplete((a, e) -> answered(a, e, measured, pending, intended, key, placed));
            }));
        }
    }

    /** Orders sent so far, warm-up included. */
    long sent() {
        return liveSent.get();
    }

    /** Orders sent and not yet answered, and orders waiting at the gates. */
    int outstanding() {
        return gates.values().stream().mapToInt(g -> g.running() + g.waiting()).sum();
    }

    /**
     * Closes the gates and counts the orders of the measured phase that were never sent (still queued
     * behind --max-in-flight answers outstanding, or not even due when the sender stopped) or never
     * answered: failures, not omissions.
     */
    void countUnfinished() {
        synchronized (settling) {
            settled = true;
            countNeverAnswered();
        }
    }

    private void countNeverAnswered() {
        gates.forEach((region, gate) -> {
            for (OrderTask never : gate.close()) {
                if (never.measured()) {
                    metrics.countMeasured(RunReport.ORDERS_ERRORS + "/" + region, 1);
                    metrics.countMeasured(RunReport.ORDER_ERROR_CAUSE + "not-sent/" + region, 1);
                }
            }
        });
        for (long i = nextOrder.get(); i < schedule.operations(); i++) {
            long intended = schedule.intendedNanos(i);
            if (phases.measured(intended)) {
                String region = customers.get((int) (i % customers.size())).placesIn().name();
                metrics.countMeasured(RunReport.ORDERS_ERRORS + "/" + region, 1);
                metrics.countMeasured(RunReport.ORDER_ERROR_CAUSE + "not-sent/" + region, 1);
            }
        }
        measuredInFlight.forEach((region, count) -> {
            long unanswered = count.sum();
            if (unanswered > 0) {
                metrics.countMeasured(RunReport.ORDERS_ERRORS + "/" + region, unanswered);
                metrics.countMeasured(RunReport.ORDER_ERROR_CAUSE + "no-answer/" + region, unanswered);
            }
        });
    }

    /**
     * Counts an answer. A measured order's answer is counted whatever the metrics' switch says (the
     * order belongs to the phase by its intended time), unless the run has already counted it as
     * unanswered ({@link #countUnfinished}).
     */
    private void answered(BrokerClient.Answer a, Throwable e, boolean measured, LongAdder pending, long intended,
                          SeriesKey key, String placed) {
        long micros = (System.nanoTime() - intended) / 1_000;
        boolean failed = e != null || a.status() >= 500;
        if (failed) {
            liveErrors.increment();
        }
        if (!measured) {
            return;
        }
        synchronized (settling) {
            if (settled) {
                return;
            }
            pending.decrement();
            if (failed) {
                metrics.recordMeasuredError(key);
                metrics.countMeasured(RunReport.ORDERS_ERRORS + "/" + placed, 1);
                metrics.countMeasured(RunReport.ORDER_ERROR_CAUSE + errorCause(e, a) + "/" + placed, 1);
                return;
            }
            metrics.recordMeasured(key, micros);
            boolean rejected = !a.ok() || (a.body() != null && "REJECTED".equals(a.body().path("status").asText()));
            metrics.countMeasured((rejected ? RunReport.ORDERS_REJECTED : RunReport.ORDERS_ACCEPTED) + "/" + placed, 1);
            if (rejected) {
                metrics.countMeasured(RunReport.ORDER_REJECT_REASON + rejectReason(a) + "/" + placed, 1);
            }
        }
    }

    /**
     * Why the broker refused an order, in a few words: the order's {@code rejectReason} (a REJECTED
     * order), or for a 4xx its status, the problem's title and the rejected order's reason if the
     * problem carries the order (422). Digits become {@code #} so that reasons naming amounts count
     * together, and commas semicolons (the reason is part of a counter's name, a column of the CSV
     * time line); at most 60 characters are kept.
     */
    static String rejectReason(BrokerClient.Answer answer) {
        String text = "";
        if (answer.body() != null) {
            if (answer.ok()) {
                text = answer.body().path("rejectReason").asText("");
            } else {
                String title = answer.body().path("title").asText("");
                String orderReason = answer.body().path("order").path("rejectReason").asText("");
                text = orderReason.isEmpty() || title.isEmpty() ? title + orderReason : title + ": " + orderReason;
            }
        }
        String reason = (answer.ok() ? "" : "http-" + answer.status() + (text.isEmpty() ? "" : " "))
                + text.replaceAll("[0-9]+", "#").replace('/', ' ').replace(',', ';').strip();
        if (reason.isEmpty()) {
            reason = "no reason given";
        }
        return reason.length() > 60 ? reason.substring(0, 60).strip() : reason;
    }

    /** A short name for why an order failed: {@code timeout}, {@code connect}, {@code io} or {@code http-<status>}. */
    static String errorCause(Throwable e, BrokerClient.Answer answer) {
        if (e == null) {
            return "http-" + answer.status();
        }
        Throwable cause = e instanceof CompletionException && e.getCause() != null ? e.getCause() : e;
        if (cause instanceof HttpTimeoutException) {
            return "timeout";
        }
        if (cause instanceof ConnectException) {
            return "connect";
        }
        return cause instanceof IOException ? "io" : cause.getClass().getSimpleName();
    }
}
