package io.geobroker.loadgen.daytrading;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.geobroker.domain.Region;
import io.geobroker.domain.Topics;
import io.geobroker.loadgen.driver.Target;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.math.BigDecimal;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The replayer end to end against a small in-process stand-in for the broker's day-trading
 * endpoints (ADD, QUOTE, DISPLAY_SUMMARY and DUMPLOG; every other command answers an error): what
 * it sends, the DUMPLOG's download and validation, the invariants and the report.
 */
class ReplayerTest {

    private static final String TOKEN = "test-admin-token";
    private static final String TS = "<timestamp>1764115200000</timestamp><server>nvirginia</server>";
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;
    private HttpServer server;
    private final Map<String, BigDecimal> cash = new ConcurrentHashMap<>();
    private final Map<String, List<Long>> received = new ConcurrentHashMap<>();
    private final StringBuffer log = new StringBuffer();
    private volatile boolean corruptLog;
    private volatile boolean failEveryBatch;
    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private PrintStream originalOut;
    private PrintStream originalErr;

    @BeforeEach
    void start() throws IOException {
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.setExecutor(Executors.newFixedThreadPool(4));
        server.createContext("/actuator/health", ex -> answer(ex, 200, "application/json", "{\"status\":\"UP\"}"));
        server.createContext("/admin/v1/day-trading/batch", this::batch);
        server.createContext("/admin/v1/day-trading/log", ex -> {
            if (!("Bearer " + TOKEN).equals(ex.getRequestHeaders().getFirst("Authorization"))) {
                answer(ex, 401, "application/problem+json", "{\"title\":\"Unauthorized\"}");
                return;
            }
            String body = "<?xml version=\"1.0\"?>\n<log>\n" + log + "</log>\n";
            answer(ex, 200, "application/xml", corruptLog ? body.replace("<action>add</action>", "") : body);
        });
        server.start();
        originalOut = System.out;
        originalErr = System.err;
        System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
        System.setErr(new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8));
    }

    @AfterEach
    void stop() {
        System.setOut(originalOut);
        System.setErr(originalErr);
        server.stop(0);
        ((java.util.concurrent.ExecutorService) server.getExecutor()).shutdownNow();
    }

    private void batch(HttpExchange ex) throws IOException {
        if (!("Bearer " + TOKEN).equals(ex.getRequestHeaders().getFirst("Authorization"))
                || !ex.getRequestHeaders().getFirst("Content-Type").startsWith("text/plain")) {
            answer(ex, 401, "application/problem+json", "{\"title\":\"Unauthorized\"}");
            return;
        }
        String body = new String(ex.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
        if (failEveryBatch) {
            answer(ex, 503, "application/problem+json", "{\"title\":\"Unavailable\",\"detail\":\"engine stopped\"}");
            return;
        }
        ObjectNode root = JSON.createObjectNode().put("region", "nvirginia");
        ArrayNode results = root.putArray("results");
        for (String raw : body.split("\n")) {
            WorkloadLine line = WorkloadLine.parse(raw);
            if (line == null) {
                continue;
            }
            String[] f = line.text().substring(line.text().indexOf(' ') + 1).split(",");
            ObjectNode r = results.addObject().put("transactionNum", line.transactionNum()).put("command", line.command())
                    .put("user", line.user()).put("ok", true).putNull("error").put("engineMicros", 7);
            if (line.user() != null) {
                received.computeIfAbsent(line.user(), u -> new ArrayList<>()).add(line.transactionNum());
            }
            switch (line.command()) {
                case "ADD" -> {
                    cash.merge(line.user(), new BigDecimal(f[2]), BigDecimal::add);
                    log.append("<accountTransaction>" + TS + "<transactionNum>" + line.transactionNum()
                            + "</transactionNum><action>add</action><username>" + line.user() + "</username><funds>" + f[2]
                            + "</funds></accountTransaction>\n");
                    r.putObject("cash").put("currency", "USD").put("available", cash.get(line.user()).toPlainString())
                            .put("reserved", "0.00");
                }
                case "QUOTE" -> r.put("stockSymbol", f[2]).put("symbol", "AAPL").put("price", "190.00");
                case "DISPLAY_SUMMARY" -> {
                    r.putObject("cash").put("currency", "USD")
                            .put("available", cash.getOrDefault(line.user(), BigDecimal.ZERO).toPlainString()).put("reserved", "0.00");
                    r.putArray("holdings");
                    r.put("triggersFilled", 0).put("commandsLogged", 1);
                }
                case "DUMPLOG" -> r.putObject("log").put("path", "/admin/v1/day-trading/log").put("user", line.user())
                        .put("filename", f[f.length - 1]);
                default -> r.put("ok", false).put("error", "not supported here");
            }
        }
        answer(ex, 200, "application/json", JSON.writeValueAsString(root));
    }

    private static void answer(HttpExchange ex, int status, String type, String body) throws IOException {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        ex.getResponseHeaders().set("Content-Type", type);
        ex.sendResponseHeaders(status, bytes.length);
        try (OutputStream o = ex.getResponseBody()) {
            o.write(bytes);
        }
    }

    private WorkloadReport replay(Path file, boolean finalDumplog) throws Exception {
        Region region = new Region("nvirginia", "NorthVirginiaDC", List.of("NYSE", "NASDAQ"), "us-east-1");
        Target target = new Target(List.of(new Target.RegionTarget(region,
                "http://127.0.0.1:" + server.getAddress().getPort(), "127.0.0.1:1")), TOKEN, Topics.standard(), "fake broker");
        Replayer.Settings s = new Replayer.Settings(file, "nvirginia", "t1-", 3, 2, 10, Duration.ofSeconds(10),
                Duration.ofSeconds(10), Duration.ofSeconds(5), Duration.ZERO, finalDumplog, dir.resolve("out"), false);
        return Replayer.run(target, s, List.of(), Map.of("case", "unit test"), () -> { });
    }

    private Path workload() throws IOException {
        return Files.writeString(dir.resolve("wl.txt"), "[1] ADD,alice,100.00 \n[2] ADD,bob,50.25 \n[3] QUOTE,alice,ZUL \n"
                + "[4] COMMIT_BUY,bob \n[5] ADD,alice,0.75 \n[6] DUMPLOG,./testLOG \n[7] QUOTE,bob,XY \n[8] ADD,bob,1.00 \n"
                + "[9] DISPLAY_SUMMARY,alice \n[10] DUMPLOG,./testLOG");
    }

    @Test
    void replays_downloads_validates_and_checks_the_invariants() throws Exception {
        WorkloadReport report = replay(workload(), true);

        assertThat(report.succeeded()).as(out.toString(StandardCharsets.UTF_8)).isTrue();
        assertThat(report.replay().sent()).isEqualTo(10);
        assertThat(report.replay().answered()).isEqualTo(10);
        assertThat(report.replay().errors()).isEqualTo(1);
        assertThat(report.replay().errorsByCommand()).containsEntry("COMMIT_BUY", Map.of("not supported here", 1L));
        assertThat(report.replay().symbols()).containsEntry("ZUL", "AAPL").containsEntry("XY", "AAPL");
        assertThat(report.users()).isEqualTo(2);
        assertThat(received).containsEntry("t1-alice", List.of(1L, 3L, 5L, 9L, 11L))
                .containsEntry("t1-bob", List.of(2L, 4L, 7L, 8L, 12L));
        assertThat(report.end().sent()).as("a summary per user and the final DUMPLOG").isEqualTo(3);
        assertThat(report.logs()).hasSize(3).allMatch(WorkloadReport.LogOutcome::ok);
        assertThat(report.logs().get(2).role()).isEqualTo("final DUMPLOG");
        assertThat(dir.resolve("out/testLOG")).exists();
        assertThat(dir.resolve("out").resolve(Replayer.FINAL_LOG)).exists();
        assertThat(report.invariants()).hasSize(3).allMatch(Invariants.Check::holds).allMatch(c -> c.users() == 2);

        JsonNode json = JSON.readTree(dir.resolve("out/workload.json").toFile());
        assertThat(json.path("schema").asText()).isEqualTo(WorkloadReport.SCHEMA);
        assertThat(json.path("userPrefix").asText()).isEqualTo("t1-");
        assertThat(json.path("answered").asLong()).isEqualTo(10);
        assertThat(json.path("schemaNote").asText()).contains("widened");
        assertThat(json.path("latencyMicros").findValuesAsText("command")).contains("ADD", "QUOTE", "all");
        assertThat(json.path("reference").asText()).contains("26.1k");
        assertThat(Files.readString(dir.resolve("out/workload.html"))).contains("Invariants").contains("t1-");
        assertThat(out.toString(StandardCharsets.UTF_8)).contains("result: no failures").doesNotContain(TOKEN);
    }

    @Test
    void an_invalid_log_or_http_errors_fail_the_run() throws Exception {
        corruptLog = true;
        WorkloadReport invalid = replay(workload(), true);
        assertThat(invalid.logs()).noneMatch(WorkloadReport.LogOutcome::ok);
        assertThat(invalid.succeeded()).isFalse();

        corruptLog = false;
        failEveryBatch = true;
        WorkloadReport failed = replay(workload(), false);
        assertThat(failed.replay().failed()).isEqualTo(10);
        assertThat(failed.replay().failures()).containsOnlyKeys("HTTP 503: engine stopped");
        assertThat(failed.succeeded()).isFalse();
        assertThat(failed.invariantsNote()).startsWith("not checked");
    }

    @Test
    void a_dumplog_file_name_stays_under_the_output_directory() {
        Path base = dir.resolve("out").toAbsolutePath().normalize();
        assertThat(Replayer.resolveUnder(dir.resolve("out"), "./testLOG")).isEqualTo(base.resolve("testLOG"));
        assertThat(Replayer.resolveUnder(dir.resolve("out"), "logs/a.xml")).isEqualTo(base.resolve("logs/a.xml"));
        assertThat(Replayer.resolveUnder(dir.resolve("out"), "../../etc/passwd")).isEqualTo(base.resolve("passwd"));
        assertThat(Replayer.resolveUnder(dir.resolve("out"), "/tmp/x")).isEqualTo(base.resolve("x"));
    }
}
