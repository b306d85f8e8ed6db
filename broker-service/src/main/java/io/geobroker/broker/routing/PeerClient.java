package io.geobroker.broker.routing;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.geobroker.broker.config.BrokerProperties;
import io.geobroker.domain.Http1;
import io.geobroker.domain.Topology;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.context.SmartLifecycle;
import org.springframework.stereotype.Component;

import java.io.IOException;
import java.net.URI;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Collectors;

/**
 * Broker-to-broker HTTP: calls to another region's {@code /internal/**} with the peer token. One
 * call is one WAN round trip: connections are HTTP/1.1 keep-alive ({@link PeerConnections}, blocking
 * I/O on a thread of this client's pool per call under way), opened at start and used every
 * {@code peerKeepWarmInterval} so none has to be opened (a second round trip) when an order comes.
 * A peer that does not answer within {@code peerRequestTimeout} (a forwarded market order: that plus
 * {@code peerAnswerGrace}) is reported as unreachable; the caller answers 503 with Retry-After.
 */
@Component
public class PeerClient implements SmartLifecycle {

    private static final Logger log = LoggerFactory.getLogger(PeerClient.class);

    /** A peer's answer: its status, body and content type, passed on unchanged. */
    public record Answer(int status, byte[] body, String contentType) {
    }

    /** The peer could not be reached or did not answer in time; whether the call arrived is unknown. */
    public static final class PeerUnavailableException extends RuntimeException {
        private final String region;

        PeerUnavailableException(String region, String reason) {
            super("the broker of region " + region + " did not answer: " + reason);
            this.region = region;
        }

        public String region() {
            return region;
        }
    }

    private final Map<String, URI> peers;
    private final String token;
    private final BrokerProperties.CrossRegion config;
    private final ObjectMapper json;
    /** Per region, its broker's connections. */
    private final Map<String, PeerConnections> connections;
    /** The threads the calls run on: as many as calls under way at the busiest moment, each ending after a minute unused. */
    private final ExecutorService callThreads;
    /** Per region, when the latest request was sent that its broker answered. */
    private final Map<String, AtomicLong> heard = new ConcurrentHashMap<>();
    /** Per region, when the latest liveness probe for calls waiting on it was sent. */
    private final Map<String, AtomicLong> probed = new ConcurrentHashMap<>();
    private ScheduledExecutorService keepWarm;
    private volatile boolean running;

    @Autowired
    public PeerClient(Topology topology, Topology.RegionEndpoints localRegion, BrokerProperties properties,
                      ObjectMapper json) {
        this(topology.regions().stream()
                        .filter(r -> !r.name().equals(localRegion.name()) && !r.brokerUrl().isBlank())
                        .collect(Collectors.toMap(Topology.RegionEndpoints::name, r -> URI.create(trimSlash(r.brokerUrl())))),
                properties.security().peerToken(), properties.crossRegion(), json);
    }

    /** A client of the brokers at {@code peers} (region to base URL), calling them with {@code token}. */
    PeerClient(Map<String, URI> peers, String token, BrokerProperties.CrossRegion config, ObjectMapper json) {
        this.peers = Map.copyOf(peers);
        this.token = token;
        this.config = config;
        this.json = json;
        Map<String, PeerConnections> byRegion = new HashMap<>();
        this.peers.forEach((region, base) -> byRegion.put(region, new PeerConnections(base, config.peerConnectTimeout())));
        this.connections = Map.copyOf(byRegion);
        AtomicInteger threads = new AtomicInteger();
        this.callThreads = new ThreadPoolExecutor(0, Integer.MAX_VALUE, 60, TimeUnit.SECONDS, new SynchronousQueue<>(), r -> {
            Thread t = new Thread(r, "peer-call-" + threads.incrementAndGet());
            t.setDaemon(true);
            return t;
        });
    }

    /** How long a forwarded call may take before the caller is answered 503 when nothing is heard from the home. */
    public java.time.Duration requestTimeout() {
        return config.peerRequestTimeout();
    }

    /**
     * How long after it was sent the home may still take a forwarded market order: the request
     * timeout and half the answer grace, so that an order taken at the last moment is committed and
     * its answer back across the link while {@link #postWithDeadline} still waits for a home it hears.
     */
    public java.time.Duration takeWithin() {
        return config.peerRequestTimeout().plus(config.peerAnswerGrace().dividedBy(2));
    }

    /** Whether this broker can forward to the region (it has a URL and a peer token is configured). */
    public boolean canReach(String region) {
        return peers.containsKey(region) && !token.isBlank();
    }

    /** POSTs {@code body} as JSON to the region's broker and returns its answer, whatever its status. */
    public Answer post(String region, String path, Object body) {
        long sent = System.nanoTime();
        CompletableFuture<Http1.Answer> call = send(region, path, body, config.peerRequestTimeout(), sent);
        return answer(region, call, config.peerRequestTimeout().toNanos() + TimeUnit.MILLISECONDS.toNanos(100));
    }

    /**
     * {@link #post} of a call the region's broker must take within {@link #takeWithin} (it refuses
     * one that reaches it later: a forwarded market order) and may answer up to {@code
     * peerAnswerGrace} after {@code peerRequestTimeout}, having taken it before. The grace is waited for only
     * when the broker has been heard from since the call was sent (the answer to any later request,
     * or to a liveness probe sent when the call has waited half its time): over a cut link nothing
     * is heard, and the call fails when the broker's time to take it is over, not a grace later.
     */
    public Answer postWithDeadline(String region, String path, Object body) {
        long sent = System.nanoTime();
        java.time.Duration timeout = config.peerRequestTimeout();
        CompletableFuture<Http1.Answer> call = send(region, path, body, timeout.plus(config.peerAnswerGrace()), sent);
        long deadline = sent + timeout.toNanos();
        if (!endedWithin(call, timeout.toNanos() / 2) && heardSentAt(region) < sent) {
            probeOnceSince(region, sent);
        }
        if (!endedWithin(call, deadline - System.nanoTime()) && heardSentAt(region) < sent) {
            call.cancel(true);
            throw new PeerUnavailableException(region, "no answer within " + timeout.toMillis()
                    + " ms and nothing heard from it since the call was sent");
        }
        return answer(region, call, deadline + config.peerAnswerGrace().toNanos() - System.nanoTime()
                + TimeUnit.MILLISECONDS.toNanos(100));
    }

    /** Whether the call ended (answered, failed or interrupted) within {@code nanos}. */
    private static boolean endedWithin(CompletableFuture<?> call, long nanos) {
        try {
            call.get(Math.max(0, nanos), TimeUnit.NANOSECONDS);
            return true;
        } catch (TimeoutException e) {
            return false;
        } catch (ExecutionException e) {
            return true;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return true;
        }
    }

    /** A liveness probe of the region's broker, unless one was sent after {@code sinceNanos}: one for all calls waiting. */
    private void probeOnceSince(String region, long sinceNanos) {
        AtomicLong last = probed.computeIfAbsent(region, r -> new AtomicLong(Long.MIN_VALUE));
        long before = last.get();
        if (before < sinceNanos && last.compareAndSet(before, System.nanoTime())) {
            probe(region);
        }
    }

    /** The call's answer, awaited for at most {@code waitNanos} more. */
    private Answer answer(String region, CompletableFuture<Http1.Answer> call, long waitNanos) {
        try {
            Http1.Answer response = call.get(waitNanos, TimeUnit.NANOSECONDS);
            return new Answer(response.status(), response.body(),
                    response.contentType() == null ? "application/json" : response.contentType());
        } catch (ExecutionException e) {
            Throwable cause = e.getCause() == null ? e : e.getCause();
            throw new PeerUnavailableException(region, cause.getClass().getSimpleName()
                    + (cause.getMessage() == null ? "" : " " + cause.getMessage()));
        } catch (TimeoutException e) {
            call.cancel(true);
            throw new PeerUnavailableException(region, "HttpTimeoutException request timed out");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            call.cancel(true);
            throw new PeerUnavailableException(region, "interrupted");
        }
    }

    private CompletableFuture<Http1.Answer> send(String region, String path, Object body,
                                                 java.time.Duration timeout, long sentNanos) {
        return exchange(region, "POST", path, token(region), json(path, body), timeout).whenComplete((response, e) -> {
            if (response != null) {
                heard(region, sentNanos);
            }
        });
    }

    /**
     * One call on a thread of the pool: answered, or failed as {@link PeerConnections#call} fails.
     * Cancelling the future closes the call's connection, so a call given up on ends at once.
     */
    private CompletableFuture<Http1.Answer> exchange(String region, String method, String path, String bearerToken,
                                                     byte[] body, java.time.Duration timeout) {
        PeerConnections peer = connections.get(region);
        if (peer == null) {
            return CompletableFuture.failedFuture(new PeerUnavailableException(region, "no broker URL configured for it"));
        }
        byte[] request = Http1.request(method, path, peer.host(), bearerToken, "application/json", body);
        long deadlineNanos = System.nanoTime() + timeout.toNanos();
        CompletableFuture<Http1.Answer> result = new CompletableFuture<>();
        AtomicReference<AutoCloseable> inUse = new AtomicReference<>();
        result.whenComplete((answer, e) -> {
            if (result.isCancelled()) {
                closeQuietly(inUse.get());
            }
        });
        try {
            callThreads.execute(() -> {
                if (result.isDone()) {
                    return;
                }
                try {
                    result.complete(peer.call(request, deadlineNanos, closer -> {
                        inUse.set(closer);
                        if (result.isCancelled()) {
                            closeQuietly(closer);
                        }
                    }));
                } catch (IOException | RuntimeException e) {
                    result.completeExceptionally(e);
                }
            });
        } catch (RejectedExecutionException e) {
            result.completeExceptionally(new PeerUnavailableException(region, "this broker is stopping"));
        }
        return result;
    }

    private static void closeQuietly(AutoCloseable closer) {
        if (closer == null) {
            return;
        }
        try {
            closer.close();
        } catch (Exception ignored) {
            // the call is given up on either way
        }
    }

    /** The region's broker answered a request sent at {@code sentNanos}: it was alive, and the link up, after then. */
    private void heard(String region, long sentNanos) {
        heard.computeIfAbsent(region, r -> new AtomicLong(Long.MIN_VALUE)).accumulateAndGet(sentNanos, Math::max);
    }

    /** When the latest request was sent that the region's broker has answered ({@link System#nanoTime()}). */
    private long heardSentAt(String region) {
        AtomicLong at = heard.get(region);
        return at == null ? Long.MIN_VALUE : at.get();
    }

    /**
     * POSTs {@code body} without waiting for the answer: for hints whose loss only costs time
     * because something slower covers them. Failures and refusals are logged, never thrown; the
     * future completes (normally) when the call has ended either way: false when trying again may
     * help (the region's broker not reached, or answering 5xx), true otherwise (accepted, refused for
     * good with 4xx, or no way to reach that region configured).
     */
    public CompletableFuture<Boolean> tell(String region, String path, Object body) {
        if (!canReach(region)) {
            return CompletableFuture.completedFuture(true);
        }
        long sent = System.nanoTime();
        return exchange(region, "POST", path, token, json(path, body), config.peerRequestTimeout()).handle((response, e) -> {
            if (response != null) {
                heard(region, sent);
            }
            if (e != null) {
                log.debug("telling the broker of region {} ({}) failed: {}", region, path, e.toString());
                return false;
            }
            if (response.status() >= 300) {
                log.warn("the broker of region {} answered {} to {}", region, response.status(), path);
            }
            return response.status() < 500;
        });
    }

    /** What a probe of a peer's liveness found. */
    public enum Probe {
        /** The peer's broker answered. */
        ANSWERED,
        /** Its host answered but nothing listens (the broker is down): the link itself works. */
        REFUSED,
        /** No answer within the connect or request timeout: the link (or the host) is cut off. */
        TIMED_OUT
    }

    /** The regions this broker has a peer URL for. */
    public java.util.Set<String> peerRegions() {
        return peers.keySet();
    }

    /** Asks a peer's liveness endpoint (no token), within the connect and request timeouts. */
    public CompletableFuture<Probe> probe(String region) {
        if (!peers.containsKey(region)) {
            return CompletableFuture.completedFuture(Probe.REFUSED);
        }
        long sent = System.nanoTime();
        return liveness(region).handle((response, e) -> {
            if (e == null) {
                heard(region, sent);
                return Probe.ANSWERED;
            }
            Throwable cause = e instanceof java.util.concurrent.CompletionException && e.getCause() != null ? e.getCause() : e;
            return cause instanceof java.net.ConnectException && !(cause instanceof java.net.http.HttpConnectTimeoutException)
                    ? Probe.REFUSED : Probe.TIMED_OUT;
        });
    }

    /** A GET of the region's liveness endpoint (no token), within the request timeout. */
    private CompletableFuture<Http1.Answer> liveness(String region) {
        return exchange(region, "GET", "/actuator/health/liveness", null, null, config.peerRequestTimeout());
    }

    /** The peer token for a call to the region's broker; a region without a URL or a client without a token fails the call. */
    private String token(String region) {
        if (!peers.containsKey(region) || token.isBlank()) {
            throw new PeerUnavailableException(region, "no broker URL or peer token configured for it");
        }
        return token;
    }

    private byte[] json(String path, Object body) {
        try {
            return json.writeValueAsBytes(body);
        } catch (IOException e) {
            throw new IllegalArgumentException("cannot write the body of " + path, e);
        }
    }

    @Override
    public void start() {
        running = true;
        if (peers.isEmpty() || token.isBlank()) {
            return;
        }
        keepWarm = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "peer-keep-warm");
            t.setDaemon(true);
            return t;
        });
        keepWarm.scheduleWithFixedDelay(this::warm, 0, config.peerKeepWarmInterval().toMillis(), TimeUnit.MILLISECONDS);
    }

    /**
     * Sends {@code peerWarmConnections} concurrent health requests to every peer: the client opens
     * (or reuses) that many connections and keeps them in its pool. Failures are only logged: a peer
     * may start later or be cut off, and the next round tries again.
     */
    private void warm() {
        List<CompletableFuture<?>> calls = new ArrayList<>();
        peers.keySet().forEach(region -> {
            for (int i = 0; i < config.peerWarmConnections(); i++) {
                calls.add(liveness(region)
                        .exceptionally(e -> {
                            log.debug("keeping the connection to {} warm failed: {}", region, e.toString());
                            return null;
                        }));
            }
        });
        try {
            CompletableFuture.allOf(calls.toArray(CompletableFuture[]::new))
                    .get(config.peerRequestTimeout().toMillis() + 500, TimeUnit.MILLISECONDS);
        } catch (Exception e) {
            log.debug("keeping peer connections warm: {}", e.toString());
        }
    }

    @Override
    public void stop() {
        running = false;
        if (keepWarm != null) {
            keepWarm.shutdownNow();
        }
        callThreads.shutdownNow();
        connections.values().forEach(PeerConnections::close);
    }

    @Override
    public boolean isRunning() {
        return running;
    }

    private static String trimSlash(String url) {
        return url.endsWith("/") ? url.substring(0, url.length() - 1) : url;
    }
}
