package io.geobroker.broker.routing;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.geobroker.broker.config.BrokerProperties;
import io.geobroker.domain.Topology;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;
import org.springframework.stereotype.Component;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

/**
 * Broker-to-broker HTTP: calls to another region's {@code /internal/**} with the peer token. One
 * call is one WAN round trip: connections are HTTP/1.1 keep-alive, opened at start and used every
 * {@code peerKeepWarmInterval} so none has to be opened (a second round trip) when an order comes.
 * A peer that does not answer within {@code peerRequestTimeout} is reported as unreachable; the
 * caller answers 503 with Retry-After.
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
    private final HttpClient http;
    private ScheduledExecutorService keepWarm;
    private volatile boolean running;

    public PeerClient(Topology topology, Topology.RegionEndpoints localRegion, BrokerProperties properties,
                      ObjectMapper json) {
        this.peers = topology.regions().stream()
                .filter(r -> !r.name().equals(localRegion.name()) && !r.brokerUrl().isBlank())
                .collect(Collectors.toMap(Topology.RegionEndpoints::name, r -> URI.create(trimSlash(r.brokerUrl()))));
        this.token = properties.security().peerToken();
        this.config = properties.crossRegion();
        this.json = json;
        this.http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(config.peerConnectTimeout()).build();
    }

    /** How long a forwarded call may take before the caller is answered 503. */
    public java.time.Duration requestTimeout() {
        return config.peerRequestTimeout();
    }

    /** Whether this broker can forward to the region (it has a URL and a peer token is configured). */
    public boolean canReach(String region) {
        return peers.containsKey(region) && !token.isBlank();
    }

    /** POSTs {@code body} as JSON to the region's broker and returns its answer, whatever its status. */
    public Answer post(String region, String path, Object body) {
        HttpRequest request = request(region, path, body);
        try {
            HttpResponse<byte[]> response = http.send(request, HttpResponse.BodyHandlers.ofByteArray());
            return new Answer(response.statusCode(), response.body(),
                    response.headers().firstValue("Content-Type").orElse("application/json"));
        } catch (IOException e) {
            throw new PeerUnavailableException(region, e.getClass().getSimpleName()
                    + (e.getMessage() == null ? "" : " " + e.getMessage()));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new PeerUnavailableException(region, "interrupted");
        }
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
        return http.sendAsync(request(region, path, body), HttpResponse.BodyHandlers.discarding()).handle((response, e) -> {
            if (e != null) {
                log.debug("telling the broker of region {} ({}) failed: {}", region, path, e.toString());
                return false;
            }
            if (response.statusCode() >= 300) {
                log.warn("the broker of region {} answered {} to {}", region, response.statusCode(), path);
            }
            return response.statusCode() < 500;
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
        URI base = peers.get(region);
        if (base == null) {
            return CompletableFuture.completedFuture(Probe.REFUSED);
        }
        HttpRequest request = HttpRequest.newBuilder(base.resolve("/actuator/health/liveness"))
                .timeout(config.peerRequestTimeout()).GET().build();
        return http.sendAsync(request, HttpResponse.BodyHandlers.discarding()).handle((response, e) -> {
            if (e == null) {
                return Probe.ANSWERED;
            }
            Throwable cause = e instanceof java.util.concurrent.CompletionException && e.getCause() != null ? e.getCause() : e;
            return cause instanceof java.net.ConnectException && !(cause instanceof java.net.http.HttpConnectTimeoutException)
                    ? Probe.REFUSED : Probe.TIMED_OUT;
        });
    }

    private HttpRequest request(String region, String path, Object body) {
        URI base = peers.get(region);
        if (base == null || token.isBlank()) {
            throw new PeerUnavailableException(region, "no broker URL or peer token configured for it");
        }
        try {
            return HttpRequest.newBuilder(base.resolve(path))
                    .timeout(config.peerRequestTimeout())
                    .header("Content-Type", "application/json")
                    .header("Accept", "application/json")
                    .header("Authorization", "Bearer " + token)
                    .POST(HttpRequest.BodyPublishers.ofByteArray(json.writeValueAsBytes(body)))
                    .build();
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
        peers.forEach((region, base) -> {
            for (int i = 0; i < config.peerWarmConnections(); i++) {
                HttpRequest request = HttpRequest.newBuilder(base.resolve("/actuator/health/liveness"))
                        .timeout(config.peerRequestTimeout()).GET().build();
                calls.add(http.sendAsync(request, HttpResponse.BodyHandlers.discarding())
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
    }

    @Override
    public boolean isRunning() {
        return running;
    }

    private static String trimSlash(String url) {
        return url.endsWith("/") ? url.substring(0, url.length() - 1) : url;
    }
}
