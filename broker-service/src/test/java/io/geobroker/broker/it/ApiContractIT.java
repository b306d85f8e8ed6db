package io.geobroker.broker.it;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
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
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The API's contract on a real broker: the served OpenAPI document is the checked-in
 * {@code broker-service/openapi.json} (run with {@code -Dgeobroker.openapi.write=true} to write it
 * after a deliberate change, then review the diff), the JSON it accepts is strict, and every error,
 * including those Tomcat and the security filters answer before any controller, is a problem detail.
 */
@WithLocalStack
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ApiContractIT {

    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT)
            .enable(SerializationFeature.ORDER_MAP_ENTRIES_BY_KEYS);

    @AutoClose
    private InProcessBroker broker;
    private BrokerApi api;
    private String host;
    private int port;

    @BeforeAll
    void start(StackContext context) {
        TestStack stack = TestStack.of(context);
        broker = new InProcessBroker(stack, "nvirginia", stack.testAddress(27), Map.of());
        api = broker.api;
        URI base = URI.create(api.baseUrl());
        host = base.getHost();
        port = base.getPort();
    }

    @Test
    void the_served_openapi_document_is_the_checked_in_one() throws IOException {
        String served = canonical(JSON.readTree(api.rawText("/v3/api-docs")));
        Path file = Path.of(System.getProperty("geobroker.root", "..")).resolve("broker-service/openapi.json");
        if (Boolean.getBoolean("geobroker.openapi.write")) {
            Files.writeString(file, served);
        }
        assertThat(file).exists();
        assertThat(served).as("the API changed: review the diff and write %s with -Dgeobroker.openapi.write=true",
                file).isEqualTo(Files.readString(file));
    }

    @Test
    void the_document_describes_every_error_as_a_problem_and_every_status_an_operation_answers() throws IOException {
        JsonNode doc = JSON.readTree(api.rawText("/v3/api-docs"));
        List<String> operations = new ArrayList<>();
        doc.path("paths").fields().forEachRemaining(path -> path.getValue().fields().forEachRemaining(op -> {
            operations.add(op.getKey() + " " + path.getKey());
            JsonNode responses = op.getValue().path("responses");
            assertThat(responses.has("401")).as(path.getKey()).isTrue();
            responses.fields().forEachRemaining(r -> {
                JsonNode content = r.getValue().path("content");
                if (r.getKey().startsWith("4") || r.getKey().startsWith("5")) {
                    assertThat(content.has("application/problem+json")).as(op.getKey() + " " + path.getKey()
                            + " " + r.getKey()).isTrue();
                } else {
                    assertThat(content.has("*/*")).as(op.getKey() + " " + path.getKey()).isFalse();
                }
            });
        }));
        assertThat(operations).contains("post /api/v1/orders", "delete /api/v1/orders/{orderId}")
                .noneMatch(o -> o.contains("/internal/"));
        JsonNode place = doc.at("/paths/~1api~1v1~1orders/post/responses");
        assertThat(place.fieldNames()).toIterable().contains("200", "201", "202", "400", "409", "422", "503");
        JsonNode limit = doc.at("/components/schemas/LimitOrderRequest");
        assertThat(limit.path("required")).extracting(JsonNode::asText)
                .contains("clientOrderId", "symbol", "side", "type", "quantity", "limitPrice");
        assertThat(limit.at("/properties/quantity/minimum").asInt()).isEqualTo(1);
        assertThat(doc.at("/components/schemas/MarketOrderRequest/properties").has("limitPrice")).isFalse();
    }

    @Test
    void the_schema_examples_are_accepted_as_they_stand() throws IOException {
        JsonNode doc = JSON.readTree(api.rawText("/v3/api-docs"));
        String token = api.customer("ex-" + UUID.randomUUID().toString().substring(0, 8), 100_000_000);
        for (String type : List.of("LimitOrderRequest", "StopOrderRequest", "StopLimitOrderRequest")) {
            JsonNode example = doc.at("/components/schemas/" + type + "/example");
            String body = example.toString().replace("\"c-42\"", "\"ex-" + type + "\"");
            BrokerApi.Response placed = api.raw("POST", "/api/v1/orders", token, body);
            assertThat(placed.status()).as(type + " " + placed.body()).isEqualTo(201);
        }
        BrokerApi.Response deposit = api.raw("POST", "/api/v1/account/deposits", token,
                doc.at("/components/schemas/CashRequest/example").toString());
        assertThat(deposit.status()).isEqualTo(201);
    }

    @Test
    void json_is_strict_no_coercion_and_no_duplicate_keys() {
        String token = api.customer("strict-" + UUID.randomUUID().toString().substring(0, 8), 10_000_000);
        List<String> refused = List.of(
                "{\"clientOrderId\":\"s1\",\"symbol\":\"AAPL\",\"side\":\"BUY\",\"type\":\"LIMIT\",\"quantity\":\"10\",\"limitPrice\":100}",
                "{\"clientOrderId\":\"s2\",\"symbol\":\"AAPL\",\"side\":\"BUY\",\"type\":\"LIMIT\",\"quantity\":10,\"limitPrice\":\"100\"}",
                "{\"clientOrderId\":42,\"symbol\":\"AAPL\",\"side\":\"BUY\",\"type\":\"LIMIT\",\"quantity\":10,\"limitPrice\":100}",
                "{\"clientOrderId\":\"s4\",\"symbol\":\"AAPL\",\"side\":\"BUY\",\"type\":\"LIMIT\",\"quantity\":10,\"limitPrice\":100,\"allOrNone\":\"true\"}",
                "{\"clientOrderId\":\"s5\",\"symbol\":\"AAPL\",\"side\":\"BUY\",\"type\":\"LIMIT\",\"quantity\":10,\"limitPrice\":100,\"allOrNone\":1}",
                "{\"clientOrderId\":\"s6\",\"symbol\":\"AAPL\",\"side\":\"BUY\",\"type\":\"LIMIT\",\"quantity\":10,\"quantity\":20,\"limitPrice\":100}",
                "{\"clientOrderId\":\"s7\",\"clientOrderId\":\"s7\",\"symbol\":\"AAPL\",\"side\":\"BUY\",\"type\":\"LIMIT\",\"quantity\":10,\"limitPrice\":100}",
                "{\"clientOrderId\":\"s9\",\"symbol\":\"AAPL\",\"side\":\"BUY\",\"type\":\"LIMIT\",\"quantity\":10,\"limitPrice\":100,\"timeInForce\":null}",
                "{\"clientOrderId\":\"s10\",\"symbol\":\"AAPL\",\"side\":\"BUY\",\"type\":\"MARKET\",\"quantity\":10,\"limitPrice\":null}",
                "{\"clientOrderId\":\"s11\",\"symbol\":\"AAPL\",\"side\":\"BUY\",\"type\":\"LIMIT\",\"quantity\":10.5,\"limitPrice\":100}");
        for (String body : refused) {
            BrokerApi.Response r = api.raw("POST", "/api/v1/orders", token, body);
            assertThat(r.status()).as(body).isEqualTo(400);
            assertThat(r.body().path("title").asText()).isEqualTo("Malformed request body");
        }
        assertThat(api.raw("POST", "/api/v1/orders", token, refused.get(5)).body().path("detail").asText())
                .contains("'quantity'").contains("more than once");
        assertThat(api.raw("POST", "/api/v1/account/deposits", token, "{\"currency\":\"USD\",\"amount\":\"5\"}")
                .status()).isEqualTo(400);
        assertThat(api.raw("POST", "/api/v1/orders", token, refused.get(7)).body().path("detail").asText())
                .contains("'timeInForce' is null");
        assertThat(api.raw("POST", "/api/v1/orders", token,
                "{\"clientOrderId\":\"s8\",\"symbol\":\"AAPL\",\"side\":\"BUY\",\"type\":\"LIMIT\",\"quantity\":10,\"limitPrice\":100}")
                .status()).isEqualTo(201);
        assertThat(api.raw("POST", "/api/v1/orders", token,
                "{\"clientOrderId\":\"s12\",\"symbol\":\"AAPL\",\"side\":\"BUY\",\"type\":\"LIMIT\",\"quantity\":1e1,\"limitPrice\":100.0}")
                .status()).as("whole numbers as JSON Schema counts them").isEqualTo(201);
        assertThat(api.get(token, "/api/v1/orders?pageSize=").status()).isEqualTo(400);
        assertThat(api.get(token, "/api/v1/orders?symbol=AAPL&symbol=MSFT").status()).isEqualTo(400);
    }

    @Test
    void errors_raised_before_any_controller_are_problem_details() throws IOException {
        String token = api.customer("edge-" + UUID.randomUUID().toString().substring(0, 8));
        record Case(String what, String request, int status) {
        }
        List<Case> cases = List.of(
                new Case("an over-long Authorization header", get("/api/v1/orders", "Bearer " + "x".repeat(10_000)), 401),
                new Case("headers over the limit", get("/api/v1/orders", "Bearer " + "x".repeat(40_000)), 431),
                new Case("an encoded slash", get("/api/v1/quotes/A%2FB", "Bearer " + token), 400),
                new Case("a path parameter", get("/admin;x=y", "Bearer " + token), 400),
                new Case("a double slash", get("/api/v1//orders", "Bearer " + token), 400),
                new Case("an invalid character in the request line", "GET /api/v1/a b HTTP/1.1\r\nHost: x\r\n"
                        + "Connection: close\r\n\r\n", 400),
                new Case("a body that is not JSON", "POST /api/v1/orders HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer "
                        + token + "\r\nContent-Type: text/plain\r\nContent-Length: 2\r\nConnection: close\r\n\r\nhi", 415),
                new Case("an unsupported method", "PUT /api/v1/orders HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer "
                        + token + "\r\nContent-Length: 0\r\nConnection: close\r\n\r\n", 405),
                new Case("TRACE", "TRACE /api/v1/orders HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer "
                        + token + "\r\nConnection: close\r\n\r\n", 405),
                new Case("a multipart body", "POST /api/v1/orders HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer "
                        + token + "\r\nContent-Type: multipart/form-data\r\nContent-Length: 2\r\nConnection: close"
                        + "\r\n\r\n{}", 415),
                new Case("an unknown path", get("/api/v1/nothing", "Bearer " + token), 404),
                new Case("no token on an unknown path", get("/nothing", null), 401));
        for (Case c : cases) {
            Raw answer = send(c.request());
            assertThat(answer.status()).as(c.what()).isEqualTo(c.status());
            assertThat(answer.contentType()).as(c.what() + ": " + answer.body()).startsWith("application/problem+json");
            JsonNode body = JSON.readTree(answer.body());
            assertThat(body.path("status").asInt()).as(c.what()).isEqualTo(c.status());
            assertThat(body.path("title").asText()).as(c.what()).isNotBlank();
        }
    }

    private static String get(String path, String authorization) {
        return "GET " + path + " HTTP/1.1\r\nHost: x\r\n" + (authorization == null ? "" : "Authorization: "
                + authorization + "\r\n") + "Accept: text/html\r\nConnection: close\r\n\r\n";
    }

    private record Raw(int status, String contentType, String body) {
    }

    /** One request written as it is (an HTTP client would refuse or rewrite some of these). */
    private Raw send(String request) throws IOException {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress(host, port), 5_000);
            socket.setSoTimeout(30_000);
            OutputStream out = socket.getOutputStream();
            out.write(request.getBytes(StandardCharsets.ISO_8859_1));
            out.flush();
            InputStream in = socket.getInputStream();
            String response = new String(in.readAllBytes(), StandardCharsets.UTF_8);
            int split = response.indexOf("\r\n\r\n");
            String head = response.substring(0, split);
            String body = response.substring(split + 4);
            int status = Integer.parseInt(head.substring(9, 12));
            String contentType = "";
            for (String line : head.split("\r\n")) {
                if (line.toLowerCase().startsWith("content-type:")) {
                    contentType = line.substring(13).trim();
                }
                if (line.toLowerCase().startsWith("transfer-encoding:") && line.toLowerCase().contains("chunked")) {
                    body = RawHttp.unchunk(body);
                }
            }
            return new Raw(status, contentType, body);
        }
    }

    /** The document with its keys sorted, indented, ending in a newline: stable to compare and to diff. */
    private static String canonical(JsonNode node) throws IOException {
        Object tree = JSON.treeToValue(sortKeys(node), Object.class);
        return JSON.writeValueAsString(tree) + "\n";
    }

    private static JsonNode sortKeys(JsonNode node) {
        if (node.isObject()) {
            com.fasterxml.jackson.databind.node.ObjectNode sorted = JSON.createObjectNode();
            List<String> names = new ArrayList<>();
            Iterator<String> it = node.fieldNames();
            it.forEachRemaining(names::add);
            names.stream().sorted().forEach(n -> sorted.set(n, sortKeys(node.get(n))));
            return sorted;
        }
        if (node.isArray()) {
            com.fasterxml.jackson.databind.node.ArrayNode array = JSON.createArrayNode();
            node.forEach(e -> array.add(sortKeys(e)));
            return array;
        }
        return node;
    }
}
