package io.geobroker.loadgen.daytrading;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.geobroker.loadgen.driver.Http1Client;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * The broker's day-trading endpoints as the replayer uses them, with the admin token:
 * {@code POST /admin/v1/day-trading/batch} (workload lines as text, one result per line) on the
 * calling thread's kept-alive connection, and the download of a DUMPLOG's log, streamed to a file.
 */
public final class DayTradingClient implements AutoCloseable {

    static final String BATCH_PATH = "/admin/v1/day-trading/batch";
    /** The admin log, when an answer names no path. */
    static final String LOG_PATH = "/admin/v1/day-trading/log";

    private static final ObjectMapper JSON = new ObjectMapper();

    /** A batch's answer: the results in line order when {@code status} is 200, else why not. */
    public record BatchAnswer(int status, List<CommandResult> results, String problem) {
    }

    /** A downloaded log: its size, or why it could not be downloaded. */
    public record Download(int status, long bytes, String problem) {
        public boolean ok() {
            return status == 200 && problem == null;
        }
    }

    private final String base;
    private final String adminToken;
    private final Http1Client http;
    private final HttpClient downloads;
    private final Duration downloadTimeout;

    public DayTradingClient(String baseUrl, String adminToken, Duration requestTimeout, Duration downloadTimeout) {
        this.base = baseUrl.endsWith("/") ? baseUrl.substring(0, baseUrl.length() - 1) : baseUrl;
        this.adminToken = adminToken;
        this.http = new Http1Client(URI.create(base), Duration.ofSeconds(3), requestTimeout, "workload-http");
        this.downloads = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(3)).build();
        this.downloadTimeout = downloadTimeout;
    }

    /** The body of a batch: the lines' texts, one per line. */
    static byte[] body(List<WorkloadLine> batch) {
        StringBuilder body = new StringBuilder(batch.size() * 40);
        for (WorkloadLine line : batch) {
            body.append(line.text()).append('\n');
        }
        return body.toString().getBytes(StandardCharsets.UTF_8);
    }

    /** Sends one batch; transport failures (no connection, no answer in time) are thrown. */
    public BatchAnswer send(List<WorkloadLine> batch) throws IOException {
        Http1Client.Response response = http.post(BATCH_PATH, adminToken, "text/plain; charset=utf-8", body(batch));
        return answer(response.status(), response.body());
    }

    static BatchAnswer answer(int status, byte[] body) {
        if (status != 200) {
            return new BatchAnswer(status, List.of(), "HTTP " + status + problem(body));
        }
        JsonNode root;
        try {
            root = JSON.readTree(body);
        } catch (IOException e) {
            return new BatchAnswer(status, List.of(), "HTTP 200 with a body that is not JSON");
        }
        JsonNode results = root.path("results");
        if (!results.isArray()) {
            return new BatchAnswer(status, List.of(), "HTTP 200 without results");
        }
        List<CommandResult> list = new ArrayList<>(results.size());
        for (JsonNode r : results) {
            list.add(CommandResult.of(r));
        }
        return new BatchAnswer(status, list, null);
    }

    private static String problem(byte[] body) {
        try {
            JsonNode problem = JSON.readTree(body);
            String detail = problem.path("detail").asText(problem.path("title").asText(""));
            return detail.isEmpty() ? "" : ": " + abbreviate(detail);
        } catch (IOException | RuntimeException e) {
            return "";
        }
    }

    /**
     * Downloads a DUMPLOG's log ({@code GET <base><path>[?user=U]}) into {@code file}, streamed, within
     * the download timeout. A failed download leaves no file.
     */
    public Download download(CommandResult.Log log, Path file) throws IOException, InterruptedException {
        String path = log.path() == null ? LOG_PATH : log.path();
        String query = log.user() == null ? "" : (path.contains("?") ? "&" : "?") + "user="
                + URLEncoder.encode(log.user(), StandardCharsets.UTF_8);
        HttpRequest request = HttpRequest.newBuilder(URI.create(base + path + query)).timeout(downloadTimeout)
                .header("Authorization", "Bearer " + adminToken).header("Accept", "application/xml").GET().build();
        HttpResponse<InputStream> response = downloads.send(request, HttpResponse.BodyHandlers.ofInputStream());
        try (InputStream in = response.body()) {
            if (response.statusCode() != 200) {
                return new Download(response.statusCode(), 0, "HTTP " + response.statusCode() + problem(in.readNBytes(4096)));
            }
            Files.createDirectories(file.toAbsolutePath().getParent());
            try (OutputStream out = Files.newOutputStream(file)) {
                return new Download(200, in.transferTo(out), null);
            } catch (IOException e) {
                Files.deleteIfExists(file);
                throw e;
            }
        }
    }

    private static String abbreviate(String s) {
        return s.length() <= 200 ? s : s.substring(0, 200) + "...";
    }

    @Override
    public void close() {
        http.close();
    }
}
