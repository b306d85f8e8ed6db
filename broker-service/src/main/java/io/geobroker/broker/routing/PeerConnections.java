package io.geobroker.broker.routing;

import io.geobroker.domain.Http1;

import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpTimeoutException;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * The kept-alive HTTP/1.1 connections to one peer broker, each used by one call at a time with
 * blocking I/O: a call takes the connection used last (or opens one), writes its request in one
 * piece, reads the answer and puts the connection back unless the server closes it. A call costs
 * one write and one read on the thread that makes it, where {@code java.net.http}'s asynchronous
 * pipeline (its selector thread, schedulers and completion stages) took about 1 ms of CPU per call
 * on the saturated two-core machine (docs/results.md).
 *
 * <p>A connection that idled past {@link #MAX_IDLE} is closed instead of used, well within the
 * broker's 5-minute keep-alive, and so is one the peer closed meanwhile (a restarted broker): an
 * idle connection is checked with a read that does not wait before it is used, so a call after a
 * peer's restart opens a new connection instead of failing on an old one.
 */
final class PeerConnections implements AutoCloseable {

    /** How long an unused connection is kept. */
    static final Duration MAX_IDLE = Duration.ofSeconds(60);

    private final String host;
    private final int port;
    private final String hostHeader;
    private final int connectTimeoutMillis;
    private final long maxIdleNanos;
    private final Deque<Connection> idle = new ArrayDeque<>();
    private final Set<Connection> open = ConcurrentHashMap.newKeySet();
    private volatile boolean closed;

    PeerConnections(URI base, Duration connectTimeout) {
        this(base, connectTimeout, MAX_IDLE);
    }

    PeerConnections(URI base, Duration connectTimeout, Duration maxIdle) {
        if (!"http".equalsIgnoreCase(base.getScheme())) {
            throw new IllegalArgumentException("peer brokers are called over plain http, not " + base);
        }
        this.host = base.getHost();
        this.port = base.getPort() < 0 ? 80 : base.getPort();
        this.hostHeader = base.getPort() < 0 ? base.getHost() : base.getHost() + ":" + port;
        this.connectTimeoutMillis = Math.toIntExact(connectTimeout.toMillis());
        this.maxIdleNanos = maxIdle.toNanos();
    }

    /** The value of the requests' {@code Host} header. */
    String host() {
        return hostHeader;
    }

    /**
     * One call: {@code request} (from {@link Http1#request}) on a connection, its answer read by
     * {@code deadlineNanos} ({@link System#nanoTime()}). {@code inUse} is given the connection's
     * closer before anything is sent: closing it fails the call at once (a call given up on).
     *
     * @throws HttpConnectTimeoutException when no connection could be opened in time
     * @throws java.net.ConnectException   when the peer's host refused the connection (nothing listens)
     * @throws HttpTimeoutException        when the answer did not come by the deadline
     * @throws IOException                 when the connection failed otherwise
     */
    Http1.Answer call(byte[] request, long deadlineNanos, Consumer<AutoCloseable> inUse) throws IOException {
        Connection c = idleConnection();
        if (c == null) {
            c = open(deadlineNanos);
        }
        Connection used = c;
        inUse.accept(() -> drop(used));
        try {
            c.socket.socket().setSoTimeout(remainingMillis(deadlineNanos));
            c.out.write(request);
            c.out.flush();
            Http1.Answer answer = Http1.readAnswer(c.in);
            if (answer.close() || closed) {
                drop(c);
            } else {
                c.idleSinceNanos = System.nanoTime();
                synchronized (idle) {
                    idle.push(c);
                }
            }
            return answer;
        } catch (SocketTimeoutException e) {
            drop(c);
            HttpTimeoutException timeout = new HttpTimeoutException("request timed out");
            timeout.initCause(e);
            throw timeout;
        } catch (IOException | RuntimeException e) {
            drop(c);
            throw e;
        }
    }

    /** The connection put back last that is still usable; the others on the way are closed. */
    private Connection idleConnection() {
        while (true) {
            Connection c;
            synchronized (idle) {
                c = idle.poll();
            }
            if (c == null) {
                return null;
            }
            if (System.nanoTime() - c.idleSinceNanos <= maxIdleNanos && stillOpen(c)) {
                return c;
            }
            drop(c);
        }
    }

    /** Whether the peer has neither closed the idle connection nor sent anything on it: a read that does not wait. */
    private static boolean stillOpen(Connection c) {
        try {
            c.socket.configureBlocking(false);
            try {
                return c.socket.read(ByteBuffer.allocate(1)) == 0;
            } finally {
                c.socket.configureBlocking(true);
            }
        } catch (IOException e) {
            return false;
        }
    }

    private Connection open(long deadlineNanos) throws IOException {
        if (closed) {
            throw new IOException("the connections to " + hostHeader + " are closed");
        }
        SocketChannel channel = SocketChannel.open();
        try {
            channel.socket().setTcpNoDelay(true);
            channel.socket().connect(new InetSocketAddress(host, port), Math.min(connectTimeoutMillis, remainingMillis(deadlineNanos)));
        } catch (SocketTimeoutException e) {
            channel.close();
            HttpConnectTimeoutException timeout = new HttpConnectTimeoutException("connect timed out: " + hostHeader);
            timeout.initCause(e);
            throw timeout;
        } catch (IOException | RuntimeException e) {
            channel.close();
            throw e;
        }
        Connection c = new Connection(channel, new BufferedInputStream(channel.socket().getInputStream(), 8192),
                channel.socket().getOutputStream());
        open.add(c);
        if (closed) {
            drop(c);
            throw new IOException("the connections to " + hostHeader + " are closed");
        }
        return c;
    }

    /** Milliseconds left until the deadline, at least 1 (a socket's timeout of 0 would wait for ever). */
    private static int remainingMillis(long deadlineNanos) {
        long left = TimeUnit.NANOSECONDS.toMillis(deadlineNanos - System.nanoTime());
        return (int) Math.max(1, Math.min(Integer.MAX_VALUE, left));
    }

    /** Connections open now, in use or idle. */
    int openConnections() {
        return open.size();
    }

    private void drop(Connection c) {
        open.remove(c);
        try {
            c.socket.close();
        } catch (IOException ignored) {
            // closing a connection given up on: nothing more to do
        }
    }

    /** Closes every connection; calls under way fail. */
    @Override
    public void close() {
        closed = true;
        synchronized (idle) {
            idle.clear();
        }
        for (Connection c : open) {
            drop(c);
        }
    }

    private static final class Connection {
        final SocketChannel socket;
        final InputStream in;
        final OutputStream out;
        long idleSinceNanos;

        Connection(SocketChannel socket, InputStream in, OutputStream out) {
            this.socket = socket;
            this.in = in;
            this.out = out;
        }
    }
}
