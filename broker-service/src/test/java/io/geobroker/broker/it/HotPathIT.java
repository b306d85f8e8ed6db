package io.geobroker.broker.it;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.geobroker.testsupport.StackContext;
import io.geobroker.testsupport.WithLocalStack;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The hot path ({@code web.HotPathFilter}) answers exactly what the full filter chain and Spring MVC
 * answer. Every request is sent twice on a real broker: once as plain clients send it (the hot
 * path takes it) and once with an {@code Accept} the hot path leaves to the full chain; status,
 * content type, the header names and the body must agree, apart from what differs between two
 * orders (ids and times). The broker's own counter proves which path served each request.
 */
@WithLocalStack
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class HotPathIT {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String HOT = "application/json";
    private static final String FULL = "application/json, application/problem+json";
    private static final String PEER_TOKEN = "peer-" + UUID.randomUUID();

    @AutoClose
    private InProcessBroker broker;
    private BrokerApi api;
    private String host;
    private int port;
    private String token;

    @BeforeAll
    void start(StackContext context) {
        TestStack stack = TestStack.of(context);
        broker = new InProcessBroker(stack, "nvirginia", stack.testAddress(28),
                Map.of("geobroker.security.peer-token", PEER_TOKEN));
        api = broker.api;
        URI base = URI.create(api.baseUrl());
        host = base.getHost();
        port = base.getPort();
        token = api.customer("hot-" + UUID.randomUUID().toString().substring(0, 8), 10_000_000);
    }

    @Test
    void a_new_order_a_repeat_and_a_conflict_are_answered_alike() throws IOException {
        String hot = order("hot-1", "LIMIT", 10, 1_000);
        String full = order("full-1", "LIMIT", 10, 1_000);
        Raw first = sameOn("/api/v1/orders", token, hot, full, 201);
        assertThat(first.json().path("status").asText()).isEqualTo("OPEN");
        // the same clientOrderId again, each through the other path: the order placed first
        Raw repeatedOnFull = send("POST", "/api/v1/orders", token, hot, FULL);
        Raw repeatedOnHot = send("POST", "/api/v1/orders", token, full, HOT);
        assertThat(repeatedOnFull.status()).isEqualTo(200);
        assertThat(repeatedOnHot.status()).isEqualTo(200);
        assertThat(repeatedOnFull.json().path("orderId")).isEqualTo(first.json().path("orderId"));
        sameOn("/api/v1/orders", token, order("hot-1", "LIMIT", 11, 1_000), order("full-1", "LIMIT", 11, 1_000), 409);
    }

    @Test
    void refusals_by_the_market_and_by_validation_are_the_same_problem_details() throws IOException {
        Raw noCash = sameOn("/api/v1/orders", token, order("hot-big", "LIMIT", 1_000_000, 1_000),
                order("full-big", "LIMIT", 1_000_000, 1_000), 422);
        assertThat(noCash.contentType()).startsWith("application/problem+json");
        assertThat(noCash.json().path("instance").asText()).isEqualTo("/api/v1/orders");
        sameOn("/api/v1/orders", token, order("hot-tick", "LIMIT", 1, 1_000_000_001L),
                order("full-tick", "LIMIT", 1, 1_000_000_001L), 422);
        String unknown = "{\"clientOrderId\":\"%s\",\"symbol\":\"NOPE\",\"side\":\"BUY\",\"type\":\"LIMIT\","
                + "\"quantity\":1,\"limitPrice\":100}";
        sameOn("/api/v1/orders", token, unknown.formatted("hot-nope"), unknown.formatted("full-nope"), 422);
    }

    @Test
    void a_body_that_does_not_parse_falls_back_to_the_full_chain_with_its_bytes() throws IOException {
        double before = served("/api/v1/orders");
        String body = "{\"clientOrderId\":\"dup\",\"symbol\":\"AAPL\",\"side\":\"BUY\",\"type\":\"LIMIT\","
                + "\"quantity\":10,\"quantity\":20,\"limitPrice\":100}";
        Raw answer = send("POST", "/api/v1/orders", token, body, HOT);
        assertThat(answer.status()).isEqualTo(400);
        assertThat(answer.json().path("title").asText()).isEqualTo("Malformed request body");
        assertThat(answer.json().path("detail").asText()).contains("'quantity'").contains("more than once");
        assertThat(served("/api/v1/orders")).isEqualTo(before);
    }

    @Test
    void a_body_shorter_than_its_length_is_a_malformed_request_not_an_error() throws IOException {
        String partial = "{\"clientOrderId\":\"short\"";
        String request = "POST /api/v1/orders HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                + "Authorization: Bearer " + token + "\r\nContent-Length: 200\r\nConnection: close\r\n\r\n" + partial;
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress(host, port), 5_000);
            socket.setSoTimeout(60_000);
            socket.getOutputStream().write(request.getBytes(StandardCharsets.UTF_8));
            socket.shutdownOutput();
            String response = new String(socket.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertThat(response).startsWith("HTTP/1.1 400");
        }
    }

    @Test
    void tokens_are_checked_as_the_security_chain_checks_them() throws IOException {
        String body = order("who", "LIMIT", 1, 100);
        assertThat(send("POST", "/api/v1/orders", null, body, HOT).status()).isEqualTo(401);
        assertThat(send("POST", "/api/v1/orders", "not-a-token", body, HOT).status()).isEqualTo(401);
        assertThat(send("POST", "/api/v1/orders", PEER_TOKEN, body, HOT).status()).isEqualTo(403);
        assertThat(send("POST", "/internal/v1/orders", token, "{}", HOT).status()).isEqualTo(403);
        assertThat(send("POST", "/internal/v1/inbox", token, "{}", HOT).status()).isEqualTo(403);
    }

    @Test
    void the_peer_calls_answer_alike() throws IOException {
        String customer = "hot-" + UUID.randomUUID().toString().substring(0, 8);
        api.customer(customer, 10_000_000);
        String forwarded = "{\"customerId\":\"" + customer + "\",\"placedRegion\":\"sydney\",\"deadlineEpochMillis\":"
                + (System.currentTimeMillis() + 60_000) + ",\"order\":" + order("%s", "MARKET", 1, -1) + "}";
        // no quote of BHP here: the symbol is another region's
        sameOn("/internal/v1/orders", PEER_TOKEN, forwarded.formatted("hot-m").replace("AAPL", "BHP"),
                forwarded.formatted("full-m").replace("AAPL", "BHP"), 422);
        String row = "{\"homeRegion\":\"sydney\",\"minute\":1,\"placedAt\":\"" + UUID.randomUUID()
                + "\",\"orderId\":\"" + UUID.randomUUID() + "\",\"placedRegion\":\"nvirginia\",\"writeMicros\":1,"
                + "\"order\":{\"orderId\":\"" + UUID.randomUUID() + "\",\"customerId\":\"" + customer
                + "\",\"symbol\":\"BHP\",\"status\":\"PENDING\",\"allOrNone\":false,\"quantity\":1,\"triggered\":false,"
                + "\"filledQuantity\":0,\"filledNotional\":0,\"reserved\":0}}";
        // a row for another region: refused by the controller either way
        sameOn("/internal/v1/inbox", PEER_TOKEN, row, row, 422);
        sameOn("/internal/v1/inbox/batch", PEER_TOKEN, "[" + row + "]", "[" + row + "]", 422);
        sameOn("/internal/v1/inbox/batch", PEER_TOKEN, "[]", "[]", 400);
    }

    @Test
    void its_requests_are_timed_under_the_mvc_metric_with_the_same_tags() throws IOException {
        sameOn("/api/v1/orders", token, order("hot-metric", "LIMIT", 1, 1_000), order("full-metric", "LIMIT", 1, 1_000),
                201);
        String metrics = api.rawText("/actuator/prometheus");
        Matcher m = Pattern.compile("http_server_requests_seconds_count\\{([^}]*uri=\"/api/v1/orders\"[^}]*)\\} (\\S+)")
                .matcher(metrics);
        TreeSet<String> tagKeys = new TreeSet<>();
        int series = 0;
        while (m.find()) {
            series++;
            TreeSet<String> keys = new TreeSet<>();
            for (String pair : m.group(1).split(",")) {
                keys.add(pair.substring(0, pair.indexOf('=')));
            }
            if (tagKeys.isEmpty()) {
                tagKeys.addAll(keys);
            }
            assertThat(keys).isEqualTo(tagKeys);
        }
        assertThat(series).isPositive();
        assertThat(tagKeys).contains("method", "outcome", "status", "uri", "exception");
        assertThat(metrics).containsPattern("http_server_requests_seconds_count\\{[^}]*status=\"201\"[^}]*"
                + "uri=\"/api/v1/orders\"[^}]*\\} [1-9]");
    }

    /**
     * Sends {@code hot} so that the hot path serves it and {@code full} so that the full chain does,
     * and checks that both answers agree; returns the hot path's.
     */
    private Raw sameOn(String path, String bearer, String hot, String full, int status) throws IOException {
        double before = served(path);
        Raw viaHot = send("POST", path, bearer, hot, HOT);
        assertThat(served(path)).as("served by the hot path: " + hot).isEqualTo(before + 1);
        Raw viaFull = send("POST", path, bearer, full, FULL);
        assertThat(served(path)).as("served by the full chain: " + full).isEqualTo(before + 1);
        assertThat(viaHot.status()).as(viaHot.body()).isEqualTo(status);
        assertThat(viaFull.status()).as(viaFull.body()).isEqualTo(status);
        assertThat(viaHot.contentType()).isEqualTo(viaFull.contentType());
        assertThat(viaHot.headerNames()).isEqualTo(viaFull.headerNames());
        if (viaHot.body().isEmpty()) {
            assertThat(viaFull.body()).isEmpty();
            return viaHot;
        }
        assertThat(shape(viaHot.json())).isEqualTo(shape(viaFull.json()));
        if (viaHot.contentType().startsWith("application/problem+json")) {
            for (String field : new String[]{"type", "title", "status", "instance"}) {
                assertThat(viaHot.json().path(field)).as(field).isEqualTo(viaFull.json().path(field));
            }
        }
        return viaHot;
    }

    /** The body's field names and value types, recursively: what two answers of one kind share. */
    private static Object shape(JsonNode node) {
        if (node.isObject()) {
            Map<String, Object> fields = new TreeMap<>();
            node.fields().forEachRemaining(f -> fields.put(f.getKey(), shape(f.getValue())));
            return fields;
        }
        return node.getNodeType().name();
    }

    private double served(String uri) {
        Matcher m = Pattern.compile("geobroker_http_direct_requests_total\\{[^}]*uri=\"" + Pattern.quote(uri)
                + "\"[^}]*\\} (\\S+)").matcher(api.rawText("/actuator/prometheus"));
        return m.find() ? Double.parseDouble(m.group(1)) : 0;
    }

    private static String order(String clientOrderId, String type, long quantity, long limitPrice) {
        return "{\"clientOrderId\":\"" + clientOrderId + "\",\"symbol\":\"AAPL\",\"side\":\"BUY\",\"type\":\"" + type
                + "\",\"quantity\":" + quantity + (limitPrice > 0 ? ",\"limitPrice\":" + limitPrice : "") + "}";
    }

    private record Raw(int status, String contentType, TreeSet<String> headerNames, String body) {
        JsonNode json() throws IOException {
            return JSON.readTree(body);
        }
    }

    /** One HTTP/1.1 request on its own connection, written as it is. */
    private Raw send(String method, String path, String bearer, String body, String accept) throws IOException {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        String request = method + " " + path + " HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                + "Accept: " + accept + "\r\n" + (bearer == null ? "" : "Authorization: Bearer " + bearer + "\r\n")
                + "Content-Length: " + bytes.length + "\r\nConnection: close\r\n\r\n";
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress(host, port), 5_000);
            socket.setSoTimeout(30_000);
            OutputStream out = socket.getOutputStream();
            out.write(request.getBytes(StandardCharsets.ISO_8859_1));
            out.write(bytes);
            out.flush();
            InputStream in = socket.getInputStream();
            String response = new String(in.readAllBytes(), StandardCharsets.UTF_8);
            int split = response.indexOf("\r\n\r\n");
            String[] head = response.substring(0, split).split("\r\n");
            String answer = response.substring(split + 4);
            TreeSet<String> names = new TreeSet<>();
            String contentType = "";
            for (int i = 1; i < head.length; i++) {
                String name = head[i].substring(0, head[i].indexOf(':')).toLowerCase();
                String value = head[i].substring(head[i].indexOf(':') + 1).trim();
                if (name.equals("content-type")) {
                    contentType = value;
                }
                if (name.equals("transfer-encoding") && value.contains("chunked")) {
                    answer = RawHttp.unchunk(answer);
                }
                if (!name.equals("date") && !name.equals("connection") && !name.equals("content-length")
                        && !name.equals("transfer-encoding") && !name.equals("keep-alive")) {
                    names.add(name);
                }
            }
            return new Raw(Integer.parseInt(head[0].substring(9, 12)), contentType, names, answer);
        }
    }
}
