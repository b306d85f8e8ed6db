package io.geobroker.broker.routing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.geobroker.domain.Http1;
import java.io.BufferedInputStream;
import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.ConnectException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A peer broker played by a raw server socket on loopback that answers each request as the test
 * says: the connections are kept and used again, one the peer closed while idle is not used, a
 * silent peer is a timeout, a closed port a refusal, and a call given up on ends at once.
 */
class PeerConnectionsTest {

    /** What the test peer does with a request. */
    private enum Behaviour { ANSWER, ANSWER_AND_CLOSE, ANSWER_WITH_CONNECTION_CLOSE, CHUNKED, SILENT }

    private final AtomicInteger accepted = new AtomicInteger();
    /** Connections the peer has closed on its side. */
    private final AtomicInteger closedByPeer = new AtomicInteger();
    private final AtomicReference<Behaviour> behaviour = new AtomicReference<>(Behaviour.ANSWER);
    private final List<String> requests = new ArrayList<>();
    private final CountDownLatch released = new CountDownLatch(1);
    private ServerSocket server;
    private PeerConnections connections;

    @AfterEach
    void stop() throws IOException {
        released.countDown();
        if (connections != null) {
            connections.close();
        }
        if (server != null) {
            server.close();
        }
    }

    private void startPeer() throws IOException {
        server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        Thread acceptor = new Thread(() -> {
            while (!server.isClosed()) {
                try {
                    Socket s = server.accept();
                    accepted.incrementAndGet();
                    Thread t = new Thread(() -> serve(s), "test-peer-connection");
                    t.setDaemon(true);
                    t.start();
                } catch (IOException e) {
                    return;
                }
            }
        }, "test-peer");
        acceptor.setDaemon(true);
        acceptor.start();
        connections = new PeerConnections(URI.create("http://127.0.0.1:" + server.getLocalPort()), Duration.ofSeconds(2));
    }

    private void serve(Socket s) {
        // resources close in reverse order: the socket first, then the count
        try (Closeable counted = closedByPeer::incrementAndGet; Socket closedAtTheEnd = s) {
            InputStream in = new BufferedInputStream(s.getInputStream());
            OutputStream out = s.getOutputStream();
            while (true) {
                String request = readRequest(in);
                if (request == null) {
                    return;
                }
                synchronized (requests) {
                    requests.add(request);
                }
                switch (behaviour.get()) {
                    case ANSWER -> out.write(answer("Content-Length: 2\r\n", "ok"));
                    case ANSWER_AND_CLOSE -> {
                        out.write(answer("Content-Length: 2\r\n", "ok"));
                        out.flush();
                        return;
                    }
                    case ANSWER_WITH_CONNECTION_CLOSE -> out.write(answer("Content-Length: 3\r\nConnection: close\r\n", "bye"));
                    case CHUNKED -> out.write(answer("Transfer-Encoding: chunked\r\n", "3\r\nabc\r\n2\r\nde\r\n0\r\n\r\n"));
                    case SILENT -> {
                        released.await(30, TimeUnit.SECONDS);
                        return;
                    }
                }
                out.flush();
            }
        } catch (IOException | InterruptedException e) {
            // the client went away or the test ended
        }
    }

    private static byte[] answer(String headers, String body) {
        return ("HTTP/1.1 201 Created\r\nContent-Type: application/problem+json\r\n" + headers + "\r\n" + body)
                .getBytes(StandardCharsets.ISO_8859_1);
    }

    /** A request's line, head and body (by its Content-Length), or null when the client closed the connection. */
    private static String readRequest(InputStream in) throws IOException {
        StringBuilder head = new StringBuilder();
        int length = 0;
        while (true) {
            StringBuilder line = new StringBuilder();
            for (int b = in.read(); b != '\n'; b = in.read()) {
                if (b < 0) {
                    return null;
                }
                if (b != '\r') {
                    line.append((char) b);
                }
            }
            if (line.length() == 0) {
                break;
            }
            if (line.toString().toLowerCase().startsWith("content-length:")) {
                length = Integer.parseInt(line.substring("content-length:".length()).trim());
            }
            head.append(line).append('\n');
        }
        return head + new String(in.readNBytes(length), StandardCharsets.UTF_8);
    }

    private Http1.Answer call(String body, Duration timeout) throws IOException {
        byte[] request = Http1.request("POST", "/internal/v1/orders", connections.host(), "peer-secret",
                "application/json", body.getBytes(StandardCharsets.UTF_8));
        return connections.call(request, System.nanoTime() + timeout.toNanos(), closer -> { });
    }

    @Test
    void calls_one_after_another_share_one_connection() throws IOException {
        startPeer();

        Http1.Answer first = call("{\"n\":1}", Duration.ofSeconds(10));
        Http1.Answer second = call("{\"n\":2}", Duration.ofSeconds(10));

        assertThat(first.status()).isEqualTo(201);
        assertThat(first.contentType()).isEqualTo("application/problem+json");
        assertThat(new String(second.body(), StandardCharsets.UTF_8)).isEqualTo("ok");
        assertThat(accepted.get()).as("connections the peer accepted").isEqualTo(1);
        assertThat(connections.openConnections()).isEqualTo(1);
        assertThat(requests).hasSize(2);
        assertThat(requests.get(1)).startsWith("POST /internal/v1/orders HTTP/1.1\n")
                .contains("Authorization: Bearer peer-secret\n", "Content-Type: application/json\n")
                .endsWith("{\"n\":2}");
    }

    @Test
    void a_connection_the_peer_closed_while_idle_is_not_used_again() throws Exception {
        startPeer();
        behaviour.set(Behaviour.ANSWER_AND_CLOSE);
        call("{}", Duration.ofSeconds(10));
        // the peer closes it (a restarted broker): the next call must not fail on it
        await().atMost(Duration.ofSeconds(10)).until(() -> closedByPeer.get() == 1);
        behaviour.set(Behaviour.ANSWER);

        Http1.Answer answer = call("{}", Duration.ofSeconds(10));

        assertThat(answer.status()).isEqualTo(201);
        assertThat(accepted.get()).isEqualTo(2);
    }

    @Test
    void an_answer_with_connection_close_ends_its_connection_and_a_chunked_one_keeps_it() throws IOException {
        startPeer();
        behaviour.set(Behaviour.ANSWER_WITH_CONNECTION_CLOSE);
        assertThat(new String(call("{}", Duration.ofSeconds(10)).body(), StandardCharsets.UTF_8)).isEqualTo("bye");
        assertThat(connections.openConnections()).isZero();

        behaviour.set(Behaviour.CHUNKED);
        assertThat(new String(call("{}", Duration.ofSeconds(10)).body(), StandardCharsets.UTF_8)).isEqualTo("abcde");
        assertThat(new String(call("{}", Duration.ofSeconds(10)).body(), StandardCharsets.UTF_8)).isEqualTo("abcde");
        assertThat(accepted.get()).isEqualTo(2);
    }

    @Test
    void a_silent_peer_is_a_timeout_at_the_deadline_and_the_next_call_gets_a_new_connection() throws IOException {
        startPeer();
        behaviour.set(Behaviour.SILENT);

        assertThatThrownBy(() -> call("{}", Duration.ofMillis(300))).isInstanceOf(HttpTimeoutException.class)
                .isNotInstanceOf(HttpConnectTimeoutException.class);
        assertThat(connections.openConnections()).isZero();

        behaviour.set(Behaviour.ANSWER);
        assertThat(call("{}", Duration.ofSeconds(10)).status()).isEqualTo(201);
        assertThat(accepted.get()).isEqualTo(2);
    }

    @Test
    void a_port_nothing_listens_on_is_a_refusal() throws IOException {
        int port;
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            port = s.getLocalPort();
        }
        connections = new PeerConnections(URI.create("http://127.0.0.1:" + port), Duration.ofSeconds(2));

        assertThatThrownBy(() -> call("{}", Duration.ofSeconds(5))).isInstanceOf(ConnectException.class);
    }

    @Test
    void closing_a_call_under_way_fails_it_at_once() throws Exception {
        startPeer();
        behaviour.set(Behaviour.SILENT);
        AtomicReference<AutoCloseable> inUse = new AtomicReference<>();
        CountDownLatch sending = new CountDownLatch(1);
        byte[] request = Http1.request("POST", "/internal/v1/orders", connections.host(), "t", "application/json",
                new byte[0]);
        CompletableFuture<Http1.Answer> call = CompletableFuture.supplyAsync(() -> {
            try {
                return connections.call(request, System.nanoTime() + TimeUnit.SECONDS.toNanos(30), closer -> {
                    inUse.set(closer);
                    sending.countDown();
                });
            } catch (IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        });
        assertThat(sending.await(10, TimeUnit.SECONDS)).isTrue();
        // the request has reached the peer: the call is waiting for its answer
        await().atMost(Duration.ofSeconds(10)).until(() -> {
            synchronized (requests) {
                return requests.size() == 1;
            }
        });

        inUse.get().close();

        assertThatThrownBy(() -> call.get(5, TimeUnit.SECONDS)).isInstanceOf(ExecutionException.class);
        assertThat(connections.openConnections()).isZero();
    }
}
