package io.geobroker.loadgen.driver;

import io.geobroker.domain.Http1;

import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.net.http.HttpTimeoutException;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A small HTTP/1.1 client for the load generator's one hot call, {@code POST} of an order to a
 * plain-http broker: worker threads, each with its own kept-alive connection, each sending a request
 * and reading its answer with blocking I/O. A thread is started when every other one is busy, so
 * there are as many threads and connections as requests in flight at the busiest moment (the load
 * generator bounds that with {@code --max-in-flight}); one idle for {@link #IDLE} ends and closes its
 * connection. That must come before the server closes an idle connection (the broker after 5
 * minutes): a thread that woke after that wrote its request into a connection already closed and
 * failed it ("connection closed by the server"), which long runs showed as bursts of I/O errors
 * when a busy second started threads that had idled since an earlier one.
 *
 * <p>Why not {@code java.net.http.HttpClient}: at the demo's 300 orders/s its asynchronous pipeline
 * (selector thread, sequential schedulers, completion stages) cost about 0.4 ms of CPU per request,
 * more than half of the load generator's CPU, on a machine the system under test shares. A blocking
 * request on a connection its thread owns is one write and one read.
 *
 * <p>What it speaks: requests with a {@code Content-Length} body; answers with a
 * {@code Content-Length} or a chunked body; {@code Connection: close} honoured. Every failure closes
 * the connection (the next request opens a new one) and fails that request only; nothing is retried.
 * The timeout bounds each read from the socket (a silent server fails the request with
 * {@link HttpTimeoutException}, as the JDK client does).
 *
 * <p>{@link #post} does the same on the caller's own thread and connection, for callers that are
 * themselves one thread per client (the ack benchmark's closed loop).
 */
public final class Http1Client implements AutoCloseable {

    /** A status and the body's bytes. */
    public record Response(int status, byte[] body) {
    }

    private final String host;
    private final int port;
    private final String hostHeader;
    private final int connectTimeoutMillis;
    private final int readTimeoutMillis;
    private final ExecutorService workers;
    private final ThreadLocal<Connection> connections = new ThreadLocal<>();
    private final Set<Socket> open = ConcurrentHashMap.newKeySet();
    /** How long a worker thread and its connection stay without a request before they end. */
    static final Duration IDLE = Duration.ofSeconds(60);

    public Http1Client(URI base, Duration connectTimeout, Duration readTimeout, String threadName) {
        this(base, connectTimeout, readTimeout, threadName, IDLE);
    }

    Http1Client(URI base, Duration connectTimeout, Duration readTimeout, String threadName, Duration idle) {
        if (!"http".equalsIgnoreCase(base.getScheme())) {
            throw new IllegalArgumentException("plain http only, not " + base);
        }
        this.host = base.getHost();
        this.port = base.getPort() < 0 ? 80 : base.getPort();
        this.hostHeader = base.getPort() < 0 ? host : host + ":" + port;
        this.connectTimeoutMillis = Math.toIntExact(connectTimeout.toMillis());
        this.readTimeoutMillis = Math.toIntExact(readTimeout.toMillis());
        AtomicInteger n = new AtomicInteger();
        this.workers = new ThreadPoolExecutor(0, Integer.MAX_VALUE, idle.toMillis(), TimeUnit.MILLISECONDS,
                new SynchronousQueue<>(), r -> {
            Thread t = new Thread(() -> {
                try {
                    r.run();
                } finally {
                    Connection c = connections.get();
                    if (c != null) {
                        drop(c);
                    }
                }
            }, threadName + "-" + n.incrementAndGet());
            t.setDaemon(true);
            return t;
        });
    }

    /** {@code POST path} with a JSON body and a bearer token, answered on a worker thread. */
    CompletableFuture<Response> postJson(String path, String bearerToken, byte[] body) {
        byte[] request = request(path, bearerToken, JSON, body);
        CompletableFuture<Response> result = new CompletableFuture<>();
        try {
            workers.execute(() -> {
                Response response;
                try {
                    response = exchange(request);
                } catch (IOException | RuntimeException e) {
                    result.completeExceptionally(e);
                    return;
                }
                result.complete(response);
            });
        } catch (RuntimeException e) {
            result.completeExceptionally(e);
        }
        return result;
    }

    /**
     * {@code POST path} with a JSON body and a bearer token, sent and answered on the calling thread
     * over that thread's own kept-alive connection (opened on its first call).
     */
    public Response post(String path, String bearerToken, byte[] body) throws IOException {
        return post(path, bearerToken, JSON, body);
    }

    /** As {@link #post(String, String, byte[])}, with a body of another content type. */
    public Response post(String path, String bearerToken, String contentType, byte[] body) throws IOException {
        return exchange(request(path, bearerToken, contentType, body));
    }

    private static final String JSON = "application/json";

    private byte[] request(String path, String bearerToken, String contentType, byte[] body) {
        return Http1.request("POST", path, hostHeader, bearerToken, contentType, body);
    }

    private Response exchange(byte[] request) throws IOException {
        Connection c = connections.get();
        if (c == null) {
            c = open();
            connections.set(c);
        }
        try {
            c.out().write(request);
            c.out().flush();
            Http1.Answer answer = Http1.readAnswer(c.in());
            if (answer.close()) {
                drop(c);
            }
            return new Response(answer.status(), answer.body());
        } catch (SocketTimeoutException e) {
            drop(c);
            HttpTimeoutException timeout = new HttpTimeoutException("no answer within " + readTimeoutMillis + " ms");
            timeout.initCause(e);
            throw timeout;
        } catch (IOException | RuntimeException e) {
            drop(c);
            throw e;
        }
    }

    private Connection open() throws IOException {
        Socket socket = new Socket();
        try {
            socket.setTcpNoDelay(true);
            socket.setSoTimeout(readTimeoutMillis);
            socket.connect(new InetSocketAddress(host, port), connectTimeoutMillis);
            open.add(socket);
            return new Connection(socket, new BufferedInputStream(socket.getInputStream(), 8192), socket.getOutputStream());
        } catch (IOException e) {
            socket.close();
            throw e;
        }
    }

    /** How many connections are open now. */
    int openConnections() {
        return open.size();
    }

    private void drop(Connection c) {
        connections.remove();
        open.remove(c.socket());
        try {
            c.socket().close();
        } catch (IOException ignored) {
            // closing a broken connection: nothing more to do
        }
    }

    /** Closes every connection, the callers' own ones too; requests under way fail. */
    @Override
    public void close() {
        workers.shutdownNow();
        for (Socket socket : open) {
            try {
                socket.close();
            } catch (IOException ignored) {
                // closing at the end of a run: nothing more to do
            }
        }
        open.clear();
    }

    private record Connection(Socket socket, InputStream in, OutputStream out) {
    }
}
