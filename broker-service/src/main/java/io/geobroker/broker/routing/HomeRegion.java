package io.geobroker.broker.routing;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.geobroker.broker.order.OrderResponse;
import io.geobroker.broker.order.PlaceOrderRequest;
import io.geobroker.broker.web.ApiProblem;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.http.HttpStatus;
import org.springframework.http.ProblemDetail;
import org.springframework.stereotype.Component;

import java.io.IOException;
import java.net.URI;
import java.util.Iterator;
import java.util.Map;
import java.util.UUID;

/**
 * Calls that must be executed by a symbol's home region: a market order (against the home's latest
 * quote) and a cancel (the home's engine decides, so a cancel racing a fill has exactly one winner).
 * The home's answer — order or problem details — is passed on as it is. A home region that cannot
 * be reached gives a 503 with Retry-After: repeating with the same clientOrderId (or the cancel) is
 * safe, since the home recognises an order it already executed. A market order's home must take it
 * within {@link PeerClient#takeWithin} (its engine refuses it after that: nothing executed); while
 * the home is heard from, its answer is awaited for the answer grace beyond the request timeout
 * ({@link PeerClient#postWithDeadline}), so an order taken late and committed after the timeout is
 * answered, not a 503. Over a cut link the caller is answered 503 at the request timeout.
 */
@Component
public class HomeRegion {

    private static final Logger log = LoggerFactory.getLogger(HomeRegion.class);
    static final int RETRY_AFTER_SECONDS = 2;

    /** The home's answer to a forwarded call: its status and the order. */
    public record Relayed(HttpStatus status, OrderResponse order) {
    }

    private final PeerClient peers;
    private final Announcer announcer;
    private final ObjectMapper json;

    public HomeRegion(PeerClient peers, Announcer announcer, ObjectMapper json) {
        this.peers = peers;
        this.announcer = announcer;
        this.json = json;
    }

    public Relayed placeMarket(String home, String customerId, String placedRegion, PlaceOrderRequest request) {
        long deadline = System.currentTimeMillis() + peers.takeWithin().toMillis();
        return relay(home, "/internal/v1/orders", new Forwarded.Placement(customerId, placedRegion, deadline, request), true);
    }

    public Relayed cancel(String home, UUID orderId, Forwarded.Cancel cancel) {
        return relay(home, "/internal/v1/orders/" + orderId + "/cancel", cancel, false);
    }

    /**
     * Sends the home region an order just stored PENDING for it, so its broker takes the order within
     * one WAN trip, without waiting for Cassandra to replicate the row or for its next inbox poll.
     * Not awaited, and sent together with others when requests to the home are under way
     * ({@link Announcer}): if it is lost, the poll finds the order anyway.
     */
    public void announce(OrderInbox.Pending pending) {
        OrderInbox.Entry entry = pending.entry();
        announcer.announce(new Forwarded.InboxRow(entry.homeRegion(), entry.minute(), entry.placedAt(), entry.orderId(),
                entry.placedRegion(), pending.order(), pending.writeMicros()));
    }

    private Relayed relay(String home, String path, Object body, boolean deadline) {
        PeerClient.Answer answer;
        try {
            answer = deadline ? peers.postWithDeadline(home, path, body) : peers.post(home, path, body);
        } catch (PeerClient.PeerUnavailableException e) {
            log.warn("{}", e.getMessage());
            throw unreachable(home);
        }
        if (answer.status() >= 200 && answer.status() < 300) {
            try {
                return new Relayed(HttpStatus.valueOf(answer.status()), json.readValue(answer.body(), OrderResponse.class));
            } catch (IOException e) {
                log.error("the broker of region {} answered {} with a body that is not an order", home, answer.status());
                throw unreachable(home);
            }
        }
        if (answer.status() == 401 || answer.status() == 403) {
            log.error("the broker of region {} refused this broker's peer token ({}): check GEOBROKER_PEER_TOKEN",
                    home, answer.status());
            throw unreachable(home);
        }
        throw new ApiProblem(problem(answer), answer.status() == 503 ? RETRY_AFTER_SECONDS : 0);
    }

    private ProblemDetail problem(PeerClient.Answer answer) {
        ProblemDetail problem = ProblemDetail.forStatus(answer.status());
        try {
            JsonNode body = json.readTree(answer.body());
            problem.setTitle(body.path("title").asText(null));
            problem.setDetail(body.path("detail").asText(null));
            if (body.hasNonNull("type")) {
                problem.setType(URI.create(body.get("type").asText()));
            }
            for (Iterator<Map.Entry<String, JsonNode>> it = body.fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> field = it.next();
                if (!Map.of("type", 0, "title", 0, "detail", 0, "status", 0, "instance", 0).containsKey(field.getKey())) {
                    problem.setProperty(field.getKey(), json.treeToValue(field.getValue(), Object.class));
                }
            }
        } catch (IOException | IllegalArgumentException e) {
            problem.setDetail("the home region answered " + answer.status());
        }
        return problem;
    }

    private static ApiProblem unreachable(String home) {
        return new ApiProblem(HttpStatus.SERVICE_UNAVAILABLE, "Home region unreachable",
                "the broker of region " + home + ", where this symbol is matched, cannot be reached right now or "
                        + "did not answer in time. Nothing was executed unless the request reached it in time: repeat "
                        + "it with the same clientOrderId (or repeat the cancel) to be safe.",
                Map.of("homeRegion", home), RETRY_AFTER_SECONDS);
    }
}
