package io.geobroker.loadgen.driver;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Against the JDK's own HTTP server on loopback: fixed-length and chunked answers, close, timeouts. */
class Http1ClientTest {

    private final CountDownLatch released = new CountDownLatch(1);
    private HttpServer server;
    private Http1Client client;

    @BeforeEach
    void start() throws IOException {
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.setExecutor(Executors.newFixedThreadPool(8));
        // Echoes method, path, token and body; the status comes from the body's first three characters.
        server.createContext("/echo", ex -> {
            byte[] in = ex.getRequestBody().readAllBytes();
            String text = new String(in, StandardCharsets.UTF_8);
            String answer = ex.getRequestMethod() + " " + ex.getRequestURI() + " "
                    + ex.getRequestHeaders().getFirst("Authorization") + " "
                    + ex.getRequestHeaders().getFirst("Content-Type") + " " + text;
            send(ex, Integer.parseInt(text.substring(0, 3)), answer, false);
        });
        server.createContext("/chunked", ex -> {
            ex.getRequestBody().readAllBytes();
            send(ex, 200, "x".repeat(20_000), true);
        });
        server.createContext("/close", ex -> {
            ex.getRequestBody().readAllBytes();
            ex.getResponseHeaders().set("Connection", "close");
            send(ex, 200, "bye", false);
        });
        server.createContext("/slow", ex -> {
            ex.getRequestBody().readAllBytes();
            try {
                // Silent until the test ends: the client's read timeout must fire first.
                released.await(60, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            send(ex, 200, "late", false);
        });
        server.start();
        client = client(Duration.ofSeconds(30));
    }

    /** A client of the test server; {@code readTimeout} long enough not to fire on a busy machine, or short on purpose. */
    private Http1Client client(Duration readTimeout) {
        return new Http1Client(URI.create("http://127.0.0.1:" + server.getAddress().getPort()),
                Duration.ofSeconds(2), readTimeout, "test-http");
    }

    @AfterEach
    void stop() {
        released.countDown();
        client.close();
        server.stop(0);
    }

    private static void send(HttpExchange ex, int status, String body, boolean chunked) throws IOException {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        ex.sendResponseHeaders(status, chunked ? 0 : bytes.length);
        try (OutputStream out = ex.getResponseBody()) {
            out.write(bytes);
        }
    }

    private static String text(Http1Client.Response r) {
        return new String(r.body(), StandardCharsets.UTF_8);
    }

    @Test
    void posts_the_body_with_the_token_and_reads_a_fixed_length_answer() throws Exception {
        Http1Client.Response r = client.postJson("/echo", "tok-1", "201 {\"a\":1}".getBytes(StandardCharsets.UTF_8))
                .get(30, TimeUnit.SECONDS);

        assertThat(r.status()).isEqualTo(201);
        assertThat(text(r)).isEqualTo("POST /echo Bearer tok-1 application/json 201 {\"a\":1}");
    }

    @Test
    void reads_a_chunked_answer_and_keeps_using_the_connection() throws Exception {
        for (int i = 0; i < 3; i++) {
            Http1Client.Response r = client.postJson("/chunked", "t", new byte[0]).get(30, TimeUnit.SECONDS);
            assertThat(r.status()).isEqualTo(200);
            assertThat(text(r)).hasSize(20_000).matches("x+");
        }
    }

    @Test
    void post_answers_on_the_calling_thread_over_its_own_connection() throws Exception {
        String[] handledOn = new String[2];
        server.createContext("/port", ex -> {
            ex.getRequestBody().readAllBytes();
            send(ex, 201, Integer.toString(ex.getRemoteAddress().getPort()), false);
        });
        Thread other = new Thread(() -> {
            try {
                handledOn[1] = text(client.post("/port", "t", new byte[0]));
            } catch (IOException e) {
                handledOn[1] = e.toString();
            }
        });
        handledOn[0] = text(client.post("/port", "t", new byte[0]));
        assertThat(text(client.post("/port", "t", new byte[0]))).as("the same thread keeps its connection").isEqualTo(handledOn[0]);
        other.start();
        other.join(30_000);
        assertThat(handledOn[1]).as("another thread has a connection of its own").matches("[0-9]+").isNotEqualTo(handledOn[0]);
        assertThat(client.post("/echo", "tok-2", "202".getBytes(StandardCharsets.UTF_8)).status()).isEqualTo(202);
    }

    @Test
    void error_statuses_are_answers_not_failures() throws Exception {
        Http1Client.Response r = client.postJson("/echo", "t", "503".getBytes(StandardCharsets.UTF_8)).get(30, TimeUnit.SECONDS);

        assertThat(r.status()).isEqualTo(503);
        assertThat(text(r)).endsWith(" 503");
    }

    @Test
    void a_worker_idle_for_its_time_ends_and_closes_its_connection() throws Exception {
        try (Http1Client quick = new Http1Client(URI.create("http://127.0.0.1:" + server.getAddress().getPort()),
                Duration.ofSeconds(5), Duration.ofSeconds(5), "test-idle", Duration.ofMillis(200))) {
            assertThat(quick.postJson("/echo", "t", "200".getBytes(StandardCharsets.UTF_8)).get(30, TimeUnit.SECONDS)
                    .status()).isEqualTo(200);
            assertThat(quick.openConnections()).isEqualTo(1);

            await().atMost(Duration.ofSeconds(10)).until(() -> quick.openConnections() == 0);
            assertThat(quick.postJson("/echo", "t", "200".getBytes(StandardCharsets.UTF_8)).get(30, TimeUnit.SECONDS)
                    .status()).as("a new worker, a new connection").isEqualTo(200);
        }
    }

    @Test
    void a_closed_connection_is_replaced_for_the_next_request() throws Exception {
        assertThat(text(client.postJson("/close", "t", new byte[0]).get(30, TimeUnit.SECONDS))).isEqualTo("bye");
        assertThat(text(client.postJson("/close", "t", new byte[0]).get(30, TimeUnit.SECONDS))).isEqualTo("bye");
        assertThat(client.postJson("/echo", "t", "200".getBytes(StandardCharsets.UTF_8)).get(30, TimeUnit.SECONDS).status())
                .isEqualTo(200);
    }

    @Test
    void a_silent_server_fails_the_request_with_a_timeout_and_the_next_one_still_works() throws Exception {
        try (Http1Client impatient = client(Duration.ofSeconds(2))) {
            CompletableFuture<Http1Client.Response> slow = impatient.postJson("/slow", "t", new byte[0]);

            assertThatThrownBy(() -> slow.get(30, TimeUnit.SECONDS)).isInstanceOf(ExecutionException.class)
                    .hasCauseInstanceOf(HttpTimeoutException.class);
            assertThat(impatient.postJson("/echo", "t", "202".getBytes(StandardCharsets.UTF_8)).get(30, TimeUnit.SECONDS)
                    .status()).isEqualTo(202);
        }
    }

    @Test
    void concurrent_requests_each_get_their_own_answer() throws Exception {
        List<CompletableFuture<Http1Client.Response>> answers = new ArrayList<>();
        for (int i = 0; i < 40; i++) {
            answers.add(client.postJson("/echo", "tok-" + i, ("200 n=" + i).getBytes(StandardCharsets.UTF_8)));
        }
        for (int i = 0; i < 40; i++) {
            assertThat(text(answers.get(i).get(30, TimeUnit.SECONDS))).isEqualTo(
                    "POST /echo Bearer tok-" + i + " application/json 200 n=" + i);
        }
    }

    @Test
    void nothing_listening_fails_the_request() {
        Http1Client nowhere = new Http1Client(URI.create("http://127.0.0.1:1"), Duration.ofSeconds(1),
                Duration.ofSeconds(1), "test-none");
        try {
            assertThatThrownBy(() -> nowhere.postJson("/echo", "t", new byte[0]).get(30, TimeUnit.SECONDS))
                    .isInstanceOf(ExecutionException.class).hasCauseInstanceOf(java.net.ConnectException.class);
        } finally {
            nowhere.close();
        }
    }
}
