package io.geobroker.broker.it;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;

/** A small HTTP client for one broker's REST API, as a customer or the operator would call it. */
final class BrokerApi {

    /** An HTTP answer: status, JSON body (null when empty) and the Retry-After header (null when absent). */
    record Response(int status, JsonNode body, String retryAfter) {
        String text(String field) {
            return body.path(field).asText();
        }

        long number(String field) {
            return body.path(field).asLong();
        }
    }

    static final ObjectMapper JSON = new ObjectMapper();
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    private final String baseUrl;
    private final String adminToken;

    String baseUrl() {
        return baseUrl;
    }

    BrokerApi(String baseUrl, String adminToken) {
        this.baseUrl = baseUrl;
        this.adminToken = adminToken;
    }

    /** Creates a customer without cash and returns its token. */
    String customer(String customerId) {
        Response created = send("POST", "/admin/v1/customers", adminToken,
                Map.of("customerId", customerId, "displayName", customerId));
        if (created.status() != 201) {
            throw new IllegalStateException("creating " + customerId + ": " + created);
        }
        return created.text("token");
    }

    /** Creates a customer with some cash (USD) and returns its token. */
    String customer(String customerId, long usd) {
        Response created = send("POST", "/admin/v1/customers", adminToken,
                Map.of("customerId", customerId, "displayName", customerId));
        if (created.status() != 201) {
            throw new IllegalStateException("creating " + customerId + ": " + created);
        }
        String token = created.text("token");
        if (usd > 0) {
            Response deposit = send("POST", "/api/v1/account/deposits", token, Map.of("currency", "USD", "amount", usd));
            if (deposit.status() != 201) {
                throw new IllegalStateException("deposit: " + deposit);
            }
        }
        return token;
    }

    Response seedShares(String customerId, String symbol, long quantity) {
        return send("POST", "/admin/v1/customers/" + customerId + "/holdings", adminToken,
                Map.of("symbol", symbol, "quantity", quantity));
    }

    /** Places an order; {@code fields} are pairs of name, value after the client order id. */
    Response place(String token, String clientOrderId, String symbol, String side, String type, long quantity,
                   Object... more) {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("clientOrderId", clientOrderId);
        body.put("symbol", symbol);
        body.put("side", side);
        body.put("type", type);
        body.put("quantity", quantity);
        for (int i = 0; i < more.length; i += 2) {
            body.put((String) more[i], more[i + 1]);
        }
        return send("POST", "/api/v1/orders", token, body);
    }

    Response order(String token, String orderId) {
        return send("GET", "/api/v1/orders/" + orderId, token, null);
    }

    Response cancel(String token, String orderId) {
        return send("DELETE", "/api/v1/orders/" + orderId, token, null);
    }

    /** Available and reserved cash in one currency: {available, reserved}. */
    long[] cash(String token, String currency) {
        for (JsonNode b : get(token, "/api/v1/account/balances").body()) {
            if (b.path("currency").asText().equals(currency)) {
                return new long[]{b.path("available").asLong(), b.path("reserved").asLong()};
            }
        }
        return new long[]{0, 0};
    }

    /** Available and reserved shares of one symbol: {available, reserved}. */
    long[] shares(String token, String symbol) {
        for (JsonNode h : get(token, "/api/v1/account/holdings").body()) {
            if (h.path("symbol").asText().equals(symbol)) {
                return new long[]{h.path("available").asLong(), h.path("reserved").asLong()};
            }
        }
        return new long[]{0, 0};
    }

    Response get(String token, String path) {
        return send("GET", path, token, null);
    }

    Response send(String method, String path, String token, Object body) {
        try {
            return raw(method, path, token, body == null ? null : JSON.writeValueAsString(body));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** A text/plain POST as the operator (day-trading batches); the answer as JSON. */
    Response adminText(String path, String text) {
        return exchange(HttpRequest.newBuilder(URI.create(baseUrl + path)).timeout(Duration.ofSeconds(60))
                .header("Content-Type", "text/plain; charset=utf-8").header("Authorization", "Bearer " + adminToken)
                .POST(HttpRequest.BodyPublishers.ofString(text)).build());
    }

    /** A GET of a text body (the day-trading log) with {@code token}, or the operator's when null. */
    HttpResponse<String> getText(String path, String token) {
        try {
            return HTTP.send(HttpRequest.newBuilder(URI.create(baseUrl + path)).timeout(Duration.ofSeconds(60))
                    .header("Authorization", "Bearer " + (token == null ? adminToken : token)).build(),
                    HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** A plain-text GET without authentication (metrics). */
    String rawText(String path) {
        try {
            return HTTP.send(HttpRequest.newBuilder(URI.create(baseUrl + path)).build(),
                    HttpResponse.BodyHandlers.ofString()).body();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    Response raw(String method, String path, String token, String body) {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(baseUrl + path))
                .timeout(Duration.ofSeconds(30))
                .method(method, body == null ? HttpRequest.BodyPublishers.noBody()
                        : HttpRequest.BodyPublishers.ofString(body));
        if (body != null) {
            request.header("Content-Type", "application/json");
        }
        if (token != null) {
            request.header("Authorization", "Bearer " + token);
        }
        return exchange(request.build());
    }

    private Response exchange(HttpRequest request) {
        try {
            HttpResponse<String> response = HTTP.send(request, HttpResponse.BodyHandlers.ofString());
            JsonNode json = response.body() == null || response.body().isBlank() ? null : JSON.readTree(response.body());
            return new Response(response.statusCode(), json,
                    response.headers().firstValue("Retry-After").orElse(null));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
