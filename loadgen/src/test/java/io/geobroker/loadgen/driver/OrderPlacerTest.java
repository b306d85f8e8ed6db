package io.geobroker.loadgen.driver;

import com.sun.net.httpserver.HttpServer;
import io.geobroker.domain.Region;
import io.geobroker.domain.SymbolDirectory;
import io.geobroker.domain.Topics;
import io.geobroker.loadgen.metrics.Metrics;
import io.geobroker.loadgen.metrics.RampedSchedule;
import io.geobroker.loadgen.metrics.SeriesKey;
import io.geobroker.loadgen.report.RunReport;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.OutputStream;
import java.net.ConnectException;
import java.net.InetSocketAddress;
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

class OrderPlacerTest {

    @Test
    void names_why_an_order_failed_by_the_cause_inside_the_completion() {
        assertThat(OrderPlacer.errorCause(new CompletionException(new HttpTimeoutException("no answer")), null))
                .isEqualTo("timeout");
        assertThat(OrderPlacer.errorCause(new CompletionException(new ConnectException("refused")), null))
                .isEqualTo("connect");
        assertThat(OrderPlacer.errorCause(new IOException("reset"), null)).isEqualTo("io");
        assertThat(OrderPlacer.errorCause(new IllegalStateException("closed"), null)).isEqualTo("IllegalStateException");
    }

    @Test
    void names_a_refusal_by_the_orders_reject_reason_or_the_problems_title_with_amounts_folded() throws Exception {
        com.fasterxml.jackson.databind.ObjectMapper json = new com.fasterxml.jackson.databind.ObjectMapper();
        assertThat(OrderPlacer.rejectReason(new BrokerClient.Answer(201,
                json.readTree("{\"status\":\"REJECTED\",\"rejectReason\":\"insufficient USD: 1250 needed, 99 available\"}"))))
                .isEqualTo("insufficient USD: # needed; # available");
        assertThat(OrderPlacer.rejectReason(new BrokerClient.Answer(422,
                json.readTree("{\"title\":\"Price off tick\",\"status\":422}")))).isEqualTo("http-422 Price off tick");
        assertThat(OrderPlacer.rejectReason(new BrokerClient.Answer(422, json.readTree(
                "{\"title\":\"Order rejected\",\"order\":{\"status\":\"REJECTED\",\"rejectReason\":\"no quote for 15 s\"}}"))))
                .isEqualTo("http-422 Order rejected: no quote for # s");
        assertThat(OrderPlacer.rejectReason(new BrokerClient.Answer(422, json.readTree(
                "{\"title\":\"Order rejected\",\"order\":{\"rejectReason\":\"the latest quote has 120 shares left for the order\"}}"))))
                .as("cut at 60 characters, without the space the cut left")
                .isEqualTo("http-422 Order rejected: the latest quote has # shares left");
        assertThat(OrderPlacer.rejectReason(new BrokerClient.Answer(409, null))).isEqualTo("http-409");
        assertThat(OrderPlacer.rejectReason(new BrokerClient.Answer(201, json.readTree("{\"status\":\"REJECTED\"}"))))
                .isEqualTo("no reason given");
        assertThat(OrderPlacer.rejectReason(new BrokerClient.Answer(201,
                json.readTree("{\"rejectReason\":\"" + "x".repeat(100) + "\"}")))).hasSize(60);
    }

    @Test
    void an_answer_without_an_exception_is_named_by_its_status() {
        assertThat(OrderPlacer.errorCause(null, new BrokerClient.Answer(503, null))).isEqualTo("http-503");
    }

    /**
     * The metrics' switch is flipped by the driver's progress loop a moment after the measured
     * phase begins; orders due in that moment were sent (and could be answered) before it. Here
     * the switch is never flipped: every order intended inside the phase must still be counted
     * sent and answered, and none outside it.
     */
    @Test
    void counts_the_measured_phases_orders_by_their_intended_time_not_by_the_metrics_switch() throws Exception {
        AtomicInteger received = new AtomicInteger();
        Workload workload = new Workload(500, 1, 60, 20, 20, 50, 1, 1, Duration.ofMillis(200), Duration.ZERO,
                Duration.ofMillis(400), 1, 64);
        long start = System.nanoTime() + 50_000_000L;
        RampedSchedule schedule = RampedSchedule.of(start, 500, 0, 1.0, 800_000_000L);
        Phases phases = Phases.of(start, System.currentTimeMillis() * 1_000, workload.warmup(), workload.duration());
        long measured = 0;
        for (long i = 0; i < schedule.operations(); i++) {
            measured += phases.measured(schedule.intendedNanos(i)) ? 1 : 0;
        }

        Metrics metrics = placeAgainstAStandIn(workload, schedule, phases, new AtomicBoolean(), received);

        assertThat(measured).isBetween(150L, 250L);
        assertThat(received.get()).isEqualTo(400);
        assertThat(metrics.counter(RunReport.ORDERS_SENT + "/nvirginia")).isEqualTo(measured);
        assertThat(metrics.counter(RunReport.ORDERS_ACCEPTED + "/nvirginia")).isEqualTo(measured);
        assertThat(metrics.counter(RunReport.ORDERS_ERRORS + "/nvirginia")).isZero();
        long recorded = 0;
        for (String type : List.of("LIMIT", "STOP", "MARKET")) {
            recorded += metrics.series(new SeriesKey(SeriesKey.Kind.PLACEMENT, "nvirginia", type)).total().getTotalCount();
        }
        assertThat(recorded).isEqualTo(measured);
    }

    /**
     * The sending thread may be behind its schedule when the measured phase ends (descheduled on a
     * busy machine): the phase's orders already due are still sent, their latency counted from their
     * intended time, and the orders after the phase are not.
     */
    @Test
    void once_stopped_sends_the_measured_phases_orders_already_due_and_nothing_after_them() throws Exception {
        AtomicInteger received = new AtomicInteger();
        Workload workload = new Workload(500, 1, 60, 20, 20, 50, 1, 1, Duration.ZERO, Duration.ZERO,
                Duration.ofMillis(400), 1, 64);
        // every order is due: the schedule began a second ago; the phase holds its first 0.4 s (200 orders)
        long start = System.nanoTime() - 1_000_000_000L;
        RampedSchedule schedule = RampedSchedule.of(start, 500, 0, 1.0, 800_000_000L);
        Phases phases = Phases.of(start, System.currentTimeMillis() * 1_000 - 1_000_000, workload.warmup(), workload.duration());

        Metrics metrics = placeAgainstAStandIn(workload, schedule, phases, new AtomicBoolean(true), received);

        assertThat(received.get()).isEqualTo(200);
        assertThat(metrics.counter(RunReport.ORDERS_SENT + "/nvirginia")).isEqualTo(200);
        assertThat(metrics.counter(RunReport.ORDERS_ACCEPTED + "/nvirginia")).isEqualTo(200);
        assertThat(metrics.counter(RunReport.ORDERS_ERRORS + "/nvirginia")).isZero();
    }

    /** Places the schedule's orders for one customer against a broker stand-in that accepts them all; counts what is left. */
    private static Metrics placeAgainstAStandIn(Workload workload, RampedSchedule schedule, Phases phases, AtomicBoolean stop,
                                                AtomicInteger received) throws IOException {
        HttpServer server = standIn(received);
        ExecutorService clientThreads = Executors.newFixedThreadPool(2);
        String url = "http://127.0.0.1:" + server.getAddress().getPort();
        Region region = new Region("nvirginia", "NorthVirginiaDC", List.of("NYSE", "NASDAQ"), "us-east-1");
        Target.RegionTarget regionTarget = new Target.RegionTarget(region, url, "127.0.0.1:1");
        Target target = new Target(List.of(regionTarget), "admin", Topics.standard(), "a stand-in broker");
        Metrics metrics = new Metrics();
        try (BrokerClient broker = new BrokerClient("nvirginia", url, Duration.ofSeconds(2), Duration.ofSeconds(5),
                clientThreads)) {
            OrderPlacer placer = new OrderPlacer(target, Map.of("nvirginia", broker), "t", schedule, workload,
                    new MarketModel(List.of(SymbolDirectory.standard().symbol("AAPL").orElseThrow()), 1_000),
                    List.of(new Driver.Customer("c1", "token", regionTarget)), metrics, phases, new LongAdder());
            placer.place(stop, new SplittableRandom(7));
            await().atMost(Duration.ofSeconds(10)).until(() -> placer.outstanding() == 0);
            placer.countUnfinished();
        } finally {
            server.stop(0);
            ((ExecutorService) server.getExecutor()).shutdownNow();
            clientThreads.shutdownNow();
        }
        return metrics;
    }

    /** A broker stand-in that accepts every order. */
    private static HttpServer standIn(AtomicInteger received) throws IOException {
        HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.setExecutor(Executors.newFixedThreadPool(2));
        server.createContext("/api/v1/orders", ex -> {
            ex.getRequestBody().readAllBytes();
            received.incrementAndGet();
            byte[] body = "{\"orderId\":\"o\",\"status\":\"NEW\"}".getBytes(StandardCharsets.UTF_8);
            ex.getResponseHeaders().set("Content-Type", "application/json");
            ex.sendResponseHeaders(201, body.length);
            try (OutputStream o = ex.getResponseBody()) {
                o.write(body);
            }
        });
        server.start();
        return server;
    }
}
