package io.geobroker.loadgen.driver;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;

/**
 * The broker REST API as the load generator uses it: health, the admin calls that create and fund
 * customers, and order placement. Every call has a timeout; nothing here retries on its own.
 */
public final class BrokerClient implements AutoCloseable {

    static final ObjectMapper JSON = new ObjectMapper();

    /** An HTTP answer: status and parsed body ({@code null} when it is not JSON). */
    public record Answer(int status, JsonNode body) {
        public boolean ok() {
            return status >= 200 && status < 300;
        }

        public String describe() {
            String detail = body == null ? "" : body.path("detail").asText(body.path("title").asText(""));
            return "HTTP " + status + (detail.isEmpty() ? "" : ": " + detail);
        }
    }

    private final String region;
    private final URI base;
    private final HttpClient http;
    private final Duration requestTimeout;
    /** Order placement on a plain-http broker (the hot path); {@code null} for https, which {@link #http} serves. */
    private final Http1Client orders;

    public BrokerClient(String region, String baseUrl, Duration connectTimeout, Duration requestTimeout, Executor executor) {
        this.region = region;
        if (baseUrl == null || baseUrl.isBlank()) {
            throw new IllegalArgumentException("no broker URL for region " + region);
        }
        try {
            this.base = URI.create(baseUrl.endsWith("/") ? baseUrl.substring(0, baseUrl.length() - 1) : baseUrl);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("broker URL of region " + region + " is not a URL: " + baseUrl);
        }
        if (base.getScheme() == null || !base.getScheme().startsWith("http") || base.getHost() == null) {
            throw new IllegalArgumentException("broker URL of region " + region + " must be http(s)://host:port, was " + baseUrl);
        }
        this.requestTimeout = requestTimeout;
        this.http = HttpClient.newBuilder().connectTimeout(connectTimeout).executor(executor)
                .version(HttpClient.Version.HTTP_1_1).build();
        this.orders = "http".equalsIgnoreCase(base.getScheme())
                ? new Http1Client(base, connectTimeout, requestTimeout, "loadgen-orders-" + region) : null;
    }

    public String region() {
        return region;
    }

    public URI base() {
        return base;
    }

    /** {@code GET /actuator/health}: whether the service answers UP. */
    public Answer health() throws IOException, InterruptedException {
        return send(HttpRequest.newBuilder(base.resolve("/actuator/health")).timeout(requestTimeout).GET().build());
    }

    /** {@code POST /admin/v1/customers}: returns the customer's token. */
    public Answer createCustomer(String adminToken, String customerId, String displayName) throws IOException, InterruptedException {
        ObjectNode body = JSON.createObjectNode().put("customerId", customerId).put("displayName", displayName);
        return send(post("/admin/v1/customers", adminToken, body));
    }

    /** {@code POST /admin/v1/customers/{id}/holdings}. */
    public Answer addHolding(String adminToken, String customerId, String symbol, long quantity)
            throws IOException, InterruptedException {
        ObjectNode body = JSON.createObjectNode().put("symbol", symbol).put("quantity", quantity);
        return send(post("/admin/v1/customers/" + customerId + "/holdings", adminToken, body));
    }

    /** {@code POST /api/v1/account/deposits} (amount in minor units). */
    public Answer deposit(String token, String currency, long amountMinor) throws IOException, InterruptedException {
        ObjectNode body = JSON.createObjectNode().put("currency", currency).put("amount", amountMinor);
        return send(post("/api/v1/account/deposits", token, body));
    }

    /** {@code POST /api/v1/orders} with an already encoded body ({@link #encode}), asynchronously. */
    public CompletableFuture<Answer> placeOrder(String token, byte[] order) {
        if (orders != null) {
            return orders.postJson("/api/v1/orders", token, order).thenApply(r -> new Answer(r.status(), parse(r.body())));
        }
        return http.sendAsync(post("/api/v1/orders", token, order), HttpResponse.BodyHandlers.ofByteArray())
                .thenApply(r -> new Answer(r.statusCode(), parse(r.body())));
    }

    /** A request body as JSON bytes (a few hundred bytes, where the tree would take a kilobyte while it waits). */
    static byte[] encode(ObjectNode body) {
        try {
            return JSON.writeValueAsBytes(body);
        } catch (IOException e) {
            throw new IllegalStateException("cannot encode request", e);
        }
    }

    private HttpRequest post(String path, String token, ObjectNode body) {
        return post(path, token, encode(body));
    }

    private HttpRequest post(String path, String token, byte[] body) {
        return HttpRequest.newBuilder(base.resolve(path)).timeout(requestTimeout)
                .header("Content-Type", "application/json").header("Accept", "application/json")
                .header("Authorization", "Bearer " + token)
                .POST(HttpRequest.BodyPublishers.ofByteArray(body)).build();
    }

    private Answer send(HttpRequest request) throws IOException, InterruptedException {
        HttpResponse<byte[]> response = http.send(request, HttpResponse.BodyHandlers.ofByteArray());
        return new Answer(response.statusCode(), parse(response.body()));
    }

    @Override
    public void close() {
        if (orders != null) {
            orders.close();
        }
    }

    private static JsonNode parse(byte[] body) {
        if (body == null || body.length == 0) {
            return null;
        }
        try {
            return JSON.readTree(body);
        } catch (IOException e) {
            return null;
        }
    }
}
