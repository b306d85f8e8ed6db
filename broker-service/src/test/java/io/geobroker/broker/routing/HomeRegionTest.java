package io.geobroker.broker.routing;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.geobroker.broker.config.BrokerProperties;
import io.geobroker.broker.order.OrderResponse;
import io.geobroker.broker.order.PlaceOrderRequest;
import io.geobroker.broker.web.ApiProblem;
import io.geobroker.domain.OrderStatus;
import io.geobroker.domain.OrderType;
import io.geobroker.domain.Side;
import io.geobroker.domain.TimeInForce;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.http.HttpStatus;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

/**
 * A market order forwarded to its home region, against a home broker played by an HTTP server on
 * loopback that answers (or not) when the test says: the home is given the request timeout and half
 * the answer grace to take the order; a live home's answer that comes after the request timeout
 * reaches the customer; a home heard from no more (a cut link) is a 503 at the request timeout,
 * without waiting for the grace; a live home that never answers is a 503 after the grace.
 */
class HomeRegionTest {

    private static final ObjectMapper JSON = JsonMapper.builder().findAndAddModules()
            .disable(SerializationFeature.WRITE_DATES_AS_TIMESTAMPS).build();

    private HttpServer home;
    private final AtomicLong deadlineSeen = new AtomicLong();
    private final AtomicLong answeredAt = new AtomicLong();
    private final AtomicInteger livenessAsked = new AtomicInteger();
    private final CountDownLatch release = new CountDownLatch(1);

    @AfterEach
    void stop() {
        release.countDown();
        if (home != null) {
            home.stop(0);
        }
    }

    /**
     * The home answers an order {@code answerAfterDeadline} after its deadline, or never if null; its
     * liveness endpoint answers at once when {@code alive}, else never.
     */
    private HomeRegion homeRegion(Duration requestTimeout, Duration grace, Duration answerAfterDeadline, boolean alive)
            throws IOException {
        home = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        home.setExecutor(Executors.newCachedThreadPool());
        home.createContext("/internal/v1/orders", exchange -> answerOrder(exchange, answerAfterDeadline));
        home.createContext("/actuator/health/liveness", exchange -> answerLiveness(exchange, alive));
        home.start();
        BrokerProperties.CrossRegion config = new BrokerProperties.CrossRegion(Duration.ofMillis(250), Duration.ofSeconds(1),
                Duration.ofSeconds(15), Duration.ofMinutes(10), Duration.ofSeconds(1), requestTimeout, grace, 1,
                Duration.ofSeconds(20), 1, Duration.ofSeconds(1), Duration.ofSeconds(10), 0);
        PeerClient peers = new PeerClient(Map.of("nvirginia", URI.create("http://127.0.0.1:" + home.getAddress().getPort())),
                "peer-secret", config, JSON);
        Announcer announcer = new Announcer((region, path, body) -> CompletableFuture.completedFuture(true),
                (task, delay) -> { }, 1);
        return new HomeRegion(peers, announcer, JSON);
    }

    private void answerOrder(HttpExchange exchange, Duration afterDeadline) throws IOException {
        try (exchange) {
            Forwarded.Placement placement = JSON.readValue(exchange.getRequestBody(), Forwarded.Placement.class);
            deadlineSeen.set(placement.deadlineEpochMillis());
            long wait = afterDeadline == null ? TimeUnit.SECONDS.toMillis(20)
                    : placement.deadlineEpochMillis() + afterDeadline.toMillis() - System.currentTimeMillis();
            if (release.await(Math.max(0, wait), TimeUnit.MILLISECONDS) || afterDeadline == null) {
                return;
            }
            answeredAt.set(System.currentTimeMillis());
            send(exchange, 201, JSON.writeValueAsBytes(filled(placement)));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void answerLiveness(HttpExchange exchange, boolean alive) throws IOException {
        try (exchange) {
            livenessAsked.incrementAndGet();
            if (!alive) {
                release.await(20, TimeUnit.SECONDS);
                return;
            }
            send(exchange, 200, "{\"status\":\"UP\"}".getBytes(StandardCharsets.UTF_8));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static void send(HttpExchange exchange, int status, byte[] body) throws IOException {
        exchange.getResponseHeaders().add("Content-Type", "application/json");
        exchange.sendResponseHeaders(status, body.length);
        exchange.getResponseBody().write(body);
    }

    private static OrderResponse filled(Forwarded.Placement placement) {
        PlaceOrderRequest r = placement.order();
        Instant now = Instant.now();
        return new OrderResponse(UUID.nameUUIDFromBytes(r.clientOrderId().getBytes(StandardCharsets.UTF_8)),
                r.clientOrderId(), r.symbol(), "NYSE", Side.BUY, OrderType.MARKET, TimeInForce.DAY, false, r.quantity(),
                null, null, OrderStatus.FILLED, r.quantity(), 15_000L, null, now, now, "nvirginia",
                placement.placedRegion(), null);
    }

    private static PlaceOrderRequest marketBuy(String clientOrderId) {
        return new PlaceOrderRequest(clientOrderId, "IBM", Side.BUY, OrderType.MARKET, 10L, null, null, TimeInForce.DAY, false);
    }

    @Test
    void the_home_may_take_the_order_until_the_request_timeout_and_half_the_grace() throws IOException {
        HomeRegion region = homeRegion(Duration.ofMillis(400), Duration.ofSeconds(2), Duration.ofSeconds(-60), true);
        long before = System.currentTimeMillis();

        HomeRegion.Relayed relayed = region.placeMarket("nvirginia", "c-1", "sydney", marketBuy("take-within"));

        assertThat(relayed.status()).isEqualTo(HttpStatus.CREATED);
        assertThat(deadlineSeen.get() - before).as("the home's time to take the order, from the call")
                .isBetween(1_400L, 1_400L + System.currentTimeMillis() - before);
    }

    @Test
    void a_live_homes_answer_that_comes_after_the_request_timeout_is_passed_on() throws IOException {
        Duration timeout = Duration.ofMillis(400);
        HomeRegion region = homeRegion(timeout, Duration.ofSeconds(2), Duration.ofMillis(300), true);
        long before = System.currentTimeMillis();

        HomeRegion.Relayed relayed = region.placeMarket("nvirginia", "c-1", "sydney", marketBuy("late-answer"));

        assertThat(answeredAt.get()).as("the home answered after the time a cut link is a 503 at")
                .isGreaterThan(before + timeout.toMillis());
        assertThat(answeredAt.get()).as("and after the deadline it was given").isGreaterThan(deadlineSeen.get());
        assertThat(livenessAsked.get()).as("the home was asked whether it is alive while the answer was due").isPositive();
        assertThat(relayed.status()).isEqualTo(HttpStatus.CREATED);
        assertThat(relayed.order().clientOrderId()).isEqualTo("late-answer");
        assertThat(relayed.order().status()).isEqualTo(OrderStatus.FILLED);
    }

    @Test
    void a_home_heard_from_no_more_is_a_503_at_the_deadline_not_after_the_grace() throws IOException {
        HomeRegion region = homeRegion(Duration.ofMillis(300), Duration.ofSeconds(60), null, false);

        // bounded far below the 60 s grace: the call must not wait for it
        ApiProblem problem = assertTimeoutPreemptively(Duration.ofSeconds(20), () -> {
            try {
                region.placeMarket("nvirginia", "c-1", "sydney", marketBuy("cut-link"));
                return null;
            } catch (ApiProblem p) {
                return p;
            }
        });

        assertThat(problem).as("503 instead of an answer").isNotNull();
        assertThat(problem.detail().getStatus()).isEqualTo(503);
        assertThat(problem.detail().getProperties()).containsEntry("homeRegion", "nvirginia");
        assertThat(problem.retryAfterSeconds()).isPositive();
        assertThat(deadlineSeen.get()).as("the home got the placement").isPositive();
    }

    @Test
    void a_live_home_that_never_answers_the_order_is_a_503_after_the_grace() throws IOException {
        HomeRegion region = homeRegion(Duration.ofMillis(200), Duration.ofMillis(300), null, true);

        assertThatThrownBy(() -> region.placeMarket("nvirginia", "c-1", "sydney", marketBuy("no-answer")))
                .isInstanceOfSatisfying(ApiProblem.class, p -> {
                    assertThat(p.detail().getStatus()).isEqualTo(503);
                    assertThat(p.detail().getProperties()).containsEntry("homeRegion", "nvirginia");
                });
        assertThat(livenessAsked.get()).isPositive();
    }
}
