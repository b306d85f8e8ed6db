package io.geobroker.loadgen.driver;

import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Locale;
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
        byte[] head = head(path, bearerToken, JSON, body.length);
        CompletableFuture<Response> result = new CompletableFuture<>();
        try {
            workers.execute(() -> {
                Response response;
                try {
                    response = exchange(head, body);
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
        return exchange(head(path, bearerToken, contentType, body.length), body);
    }

    private static final String JSON = "application/json";

    private byte[] head(String path, String bearerToken, String contentType, int length) {
        return ("POST " + path + " HTTP/1.1\r\nHost: " + hostHeader
                + "\r\nContent-Type: " + contentType + "\r\nAccept: application/json\r\nAuthorization: Bearer "
                + bearerToken + "\r\nContent-Length: " + length + "\r\n\r\n").getBytes(StandardCharsets.ISO_8859_1);
    }

    private Response exchange(byte[] head, byte[] body) throws IOException {
        Connection c = connections.get();
        if (c == null) {
            c = open();
            connections.set(c);
        }
        try {
            c.out().write(head);
            c.out().write(body);
            c.out().flush();
            Read answer = read(c.in());
            if (answer.close()) {
                drop(c);
            }
            return answer.response();
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

    /** An answer, and whether the server closes the connection after it. */
    private record Read(Response response, boolean close) {
    }

    /** Reads one answer: status line, headers, body. */
    private static Read read(InputStream in) throws IOException {
        String statusLine = line(in);
        if (!statusLine.startsWith("HTTP/1.")) {
            throw new IOException("not an HTTP/1.x answer: " + abbreviate(statusLine));
        }
        int status;
        try {
            status = Integer.parseInt(statusLine.substring(9, 12));
        } catch (RuntimeException e) {
            throw new IOException("bad status line: " + abbreviate(statusLine));
        }
        long length = -1;
        boolean chunked = false;
        boolean close = statusLine.startsWith("HTTP/1.0");
        for (String header = line(in); !header.isEmpty(); header = line(in)) {
            int colon = header.indexOf(':');
            if (colon <= 0) {
                throw new IOException("bad header line: " + abbreviate(header));
            }
            String name = header.substring(0, colon).trim().toLowerCase(Locale.ROOT);
            String value = header.substring(colon + 1).trim();
            switch (name) {
                case "content-length" -> length = Long.parseLong(value);
                case "transfer-encoding" -> chunked = value.toLowerCase(Locale.ROOT).contains("chunked");
                case "connection" -> close = value.equalsIgnoreCase("close");
                default -> {
                }
            }
        }
        byte[] body;
        if (chunked) {
            body = chunked(in);
        } else if (length >= 0) {
            body = in.readNBytes(Math.toIntExact(length));
            if (body.length != length) {
                throw new IOException("connection closed after " + body.length + " of " + length + " body bytes");
            }
        } else if (status == 204 || status == 304) {
            body = new byte[0];
        } else {
            body = in.readAllBytes();
            close = true;
        }
        return new Read(new Response(status, body), close);
    }

    private static byte[] chunked(InputStream in) throws IOException {
        ByteArrayOutputStream body = new ByteArrayOutputStream(512);
        while (true) {
            String sizeLine = line(in);
            int semicolon = sizeLine.indexOf(';');
            int size;
            try {
                size = Integer.parseInt((semicolon < 0 ? sizeLine : sizeLine.substring(0, semicolon)).trim(), 16);
            } catch (NumberFormatException e) {
                throw new IOException("bad chunk size: " + abbreviate(sizeLine));
            }
            if (size == 0) {
                while (!line(in).isEmpty()) {
                    // trailers: ignored
                }
                return body.toByteArray();
            }
            byte[] chunk = in.readNBytes(size);
            if (chunk.length != size) {
                throw new IOException("connection closed inside a chunk");
            }
            body.write(chunk);
            if (!line(in).isEmpty()) {
                throw new IOException("chunk not followed by CRLF");
            }
        }
    }

    /** A header line without its CRLF; at most 64 KB. */
    private static String line(InputStream in) throws IOException {
        StringBuilder s = new StringBuilder(64);
        while (true) {
            int b = in.read();
            if (b < 0) {
                throw new IOException("connection closed by the server");
            }
            if (b == '\n') {
                int end = s.length();
                if (end > 0 && s.charAt(end - 1) == '\r') {
                    s.setLength(end - 1);
                }
                return s.toString();
            }
            if (s.length() >= 65_536) {
                throw new IOException("header line longer than 64 KB");
            }
            s.append((char) b);
        }
    }

    private static String abbreviate(String s) {
        return s.length() <= 80 ? s : s.substring(0, 80) + "...";
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
