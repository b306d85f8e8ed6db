package io.geobroker.loadgen.driver;

import com.fasterxml.jackson.databind.JsonNode;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Locale;

/**
 * Sets the total publish rate of a running ticker service ({@code PUT /api/v1/rate}, which applies
 * within about 10 ms and keeps the split). The demo uses it to make the service follow the warm-up
 * ramp and the scale.
 */
public final class TickerRateClient {

    private final String baseUrl;
    private final URI rate;
    private final HttpClient http;
    private final Duration timeout;

    public TickerRateClient(String baseUrl, Duration timeout) {
        this.baseUrl = baseUrl.replaceAll("/+$", "");
        this.rate = URI.create(this.baseUrl + "/api/v1/rate");
        this.timeout = timeout;
        this.http = HttpClient.newBuilder().connectTimeout(timeout).version(HttpClient.Version.HTTP_1_1).build();
    }

    /** The service's address, without a trailing slash. */
    public String baseUrl() {
        return baseUrl;
    }

    /** The request body for a total rate. */
    static String body(double tickersPerSecond) {
        return String.format(Locale.ROOT, "{\"tickersPerSecond\": %.3f}", tickersPerSecond);
    }

    /**
     * Sets the total rate (tickers per second over all exchanges; 0 pauses).
     *
     * @throws IOException if the service does not answer 200 in time (the message says what it answered)
     */
    public void set(double tickersPerSecond) throws IOException, InterruptedException {
        HttpRequest request = HttpRequest.newBuilder(rate).timeout(timeout).header("Content-Type", "application/json")
                .PUT(HttpRequest.BodyPublishers.ofString(body(tickersPerSecond))).build();
        HttpResponse<String> response = http.send(request, HttpResponse.BodyHandlers.ofString());
        if (response.statusCode() != 200) {
            throw new IOException("PUT " + rate + " answered " + response.statusCode() + ": " + response.body());
        }
    }

    /**
     * The total rate the service publishes at now (tickers per second over all exchanges).
     *
     * @throws IOException if the service does not answer 200 with a rate in time
     */
    public double current() throws IOException, InterruptedException {
        HttpRequest request = HttpRequest.newBuilder(rate).timeout(timeout).GET().build();
        HttpResponse<String> response = http.send(request, HttpResponse.BodyHandlers.ofString());
        if (response.statusCode() != 200) {
            throw new IOException("GET " + rate + " answered " + response.statusCode() + ": " + response.body());
        }
        return totalRate(response.body());
    }

    /** The total rate in the body of {@code GET /api/v1/rate}. */
    static double totalRate(String body) throws IOException {
        JsonNode total = BrokerClient.JSON.readTree(body).path("tickersPerSecond");
        if (!total.isNumber() || total.asDouble() < 0) {
            throw new IOException("no tickersPerSecond in the rate answer: " + body);
        }
        return total.asDouble();
    }

    @Override
    public String toString() {
        return rate.toString();
    }
}
