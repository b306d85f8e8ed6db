package io.geobroker.loadgen.ackbench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.geobroker.loadgen.driver.Http1Client;

import java.io.IOException;
import java.net.ConnectException;
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;

/**
 * REST order entry: {@code POST /api/v1/orders} with the customer's bearer token on the calling
 * thread's own kept-alive connection ({@link Http1Client#post}); the ack is the HTTP answer. 201 (and
 * 202, placed for another region) is accepted unless the order came back REJECTED; 200 is an
 * idempotent repeat of an earlier order, which a run never sends, so it counts as rejected; other 4xx
 * are rejected, 5xx and I/O failures errors.
 */
final class RestOrderEntry implements OrderEntry {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final byte[] REJECTED = "\"status\":\"REJECTED\"".getBytes(StandardCharsets.US_ASCII);

    private final Http1Client http;
    private final String token;

    RestOrderEntry(Http1Client http, String token) {
        this.http = http;
        this.token = token;
    }

    @Override
    public Ack place(BenchOrder order) {
        Http1Client.Response response;
        try {
            response = http.post("/api/v1/orders", token, order.json());
        } catch (HttpTimeoutException e) {
            return Ack.error("timeout");
        } catch (ConnectException e) {
            return Ack.error("connect");
        } catch (IOException e) {
            return Ack.error("io");
        }
        return ack(response.status(), response.body());
    }

    /** The ack an HTTP answer to a placement stands for. */
    static Ack ack(int status, byte[] body) {
        if (status == 201 || status == 202) {
            return contains(body, REJECTED) ? Ack.rejected("REJECTED: " + reason(body, "rejectReason")) : Ack.ACCEPTED;
        }
        if (status == 200) {
            return Ack.rejected("http-200 (a repeated clientOrderId)");
        }
        if (status >= 400 && status < 500) {
            return Ack.rejected("http-" + status + ": " + reason(body, "detail"));
        }
        return Ack.error("http-" + status);
    }

    private static String reason(byte[] body, String field) {
        try {
            JsonNode node = JSON.readTree(body);
            return node == null ? "" : node.path(field).asText(node.path("title").asText(""));
        } catch (IOException e) {
            return "";
        }
    }

    private static boolean contains(byte[] body, byte[] part) {
        outer:
        for (int i = 0; i + part.length <= body.length; i++) {
            for (int j = 0; j < part.length; j++) {
                if (body[i + j] != part[j]) {
                    continue outer;
                }
            }
            return true;
        }
        return false;
    }
}
