package io.geobroker.broker.order;

import io.geobroker.broker.config.BrokerProperties;
import io.geobroker.broker.matching.Engine;
import io.geobroker.broker.matching.Outcomes;
import io.geobroker.broker.routing.Forwarded;
import io.geobroker.broker.routing.HomeRegion;
import io.geobroker.broker.routing.OrderInbox;
import io.geobroker.broker.routing.Routing;
import io.geobroker.broker.web.ApiProblem;
import io.geobroker.broker.web.Page;
import io.geobroker.domain.OrderStatus;
import io.geobroker.domain.OrderType;
import io.geobroker.domain.SymbolDirectory;
import org.springframework.http.HttpStatus;
import org.springframework.stereotype.Service;

import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/** Placement, cancel and queries of orders for the REST API. */
@Service
public class OrderService {

    /** A placement's answer: the HTTP status (201 new, 200 repeat) and the order. */
    public record Placed(HttpStatus status, OrderResponse order) {
    }

    private final OrderDao orders;
    private final KnownOrderIds knownIds;
    private final OrderInbox inbox;
    private final HomeRegion homeRegion;
    private final Engine engine;
    private final Routing routing;
    private final OrderValidator validator;
    private final Duration timeout;

    public OrderService(OrderDao orders, KnownOrderIds knownIds, OrderInbox inbox, HomeRegion homeRegion, Engine engine,
                        Routing routing, SymbolDirectory directory, BrokerProperties properties) {
        this.orders = orders;
        this.knownIds = knownIds;
        this.inbox = inbox;
        this.homeRegion = homeRegion;
        this.engine = engine;
        this.routing = routing;
        this.validator = new OrderValidator(directory);
        this.timeout = properties.engine().commandTimeout();
    }

    /**
     * A customer's placement in this region. Symbols at home here go to the engine. For another
     * region's symbol, a market order is executed by the home region's broker now (one WAN round
     * trip) and a limit or stop order is stored PENDING in this DC for the home broker to take from
     * its inbox once Cassandra has replicated it (202); the home broker is sent the order at once, so
     * it need not wait for replication or for its next inbox poll. A repeat of an order still PENDING
     * here writes its inbox row again ({@link OrderInbox#writeAgain}). An earlier order of the client
     * order id is read only when there may be one ({@link KnownOrderIds}).
     */
    public Placed place(String customerId, PlaceOrderRequest request) {
        NewOrder order = validated(customerId, request, routing.localRegion());
        Optional<Order> existing = knownIds.mayExist(customerId, order.orderId(), order.clientOrderId())
                ? orders.find(customerId, order.orderId()) : Optional.empty();
        if (existing.isPresent()) {
            Order stored = existing.get();
            if (stored.status() == OrderStatus.PENDING && !routing.isLocal(order.symbol()) && stored.sameRequestAs(order)) {
                inbox.writeAgain(stored);
            }
            return repeated(stored, order);
        }
        if (routing.isLocal(order.symbol())) {
            return placeHere(order, 0);
        }
        if (order.type() == OrderType.MARKET) {
            HomeRegion.Relayed relayed = homeRegion.placeMarket(order.homeRegion(), customerId, routing.localRegion(), request);
            return new Placed(relayed.status(), relayed.order());
        }
        OrderInbox.Pending pending = inbox.placePending(order);
        homeRegion.announce(pending);
        return new Placed(HttpStatus.ACCEPTED, OrderResponse.of(pending.order()));
    }

    /**
     * A market order another region's broker forwarded here, the symbol's home. An earlier order of
     * its id is read only when there may be one ({@link KnownOrderIds#forwardedMayExist}).
     */
    public Placed placeForwarded(Forwarded.Placement forwarded) {
        NewOrder order = validated(forwarded.customerId(), forwarded.order(), forwarded.placedRegion());
        if (!routing.isLocal(order.symbol())) {
            throw misrouted(order.symbol().symbol(), order.homeRegion());
        }
        Optional<Order> existing = knownIds.forwardedMayExist(forwarded.customerId(), order.orderId(), order.clientOrderId())
                ? orders.find(forwarded.customerId(), order.orderId()) : Optional.empty();
        if (existing.isPresent()) {
            return repeated(existing.get(), order);
        }
        if (System.currentTimeMillis() > forwarded.deadlineEpochMillis()) {
            throw new Engine.DeadlinePassedException();
        }
        return placeHere(order, forwarded.deadlineEpochMillis());
    }

    private NewOrder validated(String customerId, PlaceOrderRequest request, String placedRegion) {
        NewOrder checked = validator.validate(customerId, request, "", placedRegion);
        String home = routing.homeOf(checked.symbol()).map(r -> r.name()).orElseThrow(() -> ApiProblem.unprocessable(
                "Symbol not traded here", "no region of this deployment trades " + checked.symbol().exchange()));
        return new NewOrder(checked.orderId(), customerId, checked.clientOrderId(), checked.symbol(),
                checked.currency(), checked.side(), checked.type(), checked.timeInForce(), checked.allOrNone(),
                checked.quantity(), checked.limitPrice(), checked.stopPrice(), home, checked.placedRegion());
    }

    private Placed placeHere(NewOrder order, long deadlineEpochMillis) {
        Outcomes.Placement placement = await(engine.place(order, deadlineEpochMillis));
        return switch (placement.result()) {
            case CREATED -> new Placed(HttpStatus.CREATED, OrderResponse.of(placement.order(), placement.fills()));
            case REPEATED -> new Placed(HttpStatus.OK, OrderResponse.of(placement.order()));
            case CONFLICT -> throw conflict(placement.order());
            case REJECTED -> throw rejected(placement.order());
        };
    }

    private Placed repeated(Order existing, NewOrder request) {
        if (!existing.sameRequestAs(request)) {
            throw conflict(existing);
        }
        if (existing.status() == OrderStatus.REJECTED) {
            throw rejected(existing);
        }
        return new Placed(HttpStatus.OK, OrderResponse.of(existing));
    }

    public OrderResponse get(String customerId, UUID orderId) {
        return OrderResponse.of(own(customerId, orderId));
    }

    public OrderPage list(String customerId, OrderStatus status, String symbol, int pageSize, String pageToken) {
        if (pageSize < 1 || pageSize > 500) {
            throw ApiProblem.badRequest("Invalid pageSize", "pageSize must be from 1 to 500");
        }
        String scope = "orders:" + customerId;
        Page<Order> page = orders.listForCustomer(customerId, status, symbol, pageSize, Page.decodeToken(pageToken, scope));
        return new OrderPage(page.items().stream().map(OrderResponse::of).toList(), page.nextPageToken(scope));
    }

    /**
     * A customer's cancel in this region. The home region's engine decides (forwarded there when
     * it is elsewhere), so when a cancel races a fill exactly one wins: the answer is the CANCELLED
     * order, or 409 with the order as it ended (FILLED).
     */
    public OrderResponse cancel(String customerId, UUID orderId) {
        Order order = own(customerId, orderId);
        if (order.status().isTerminal()) {
            throw alreadyTerminal(order);
        }
        if (engine.owns(order.symbol())) {
            return cancelHere(customerId, order);
        }
        String home = routing.homeOf(order.symbol()).map(r -> r.name()).orElse(order.homeRegion());
        OrderInbox.Stored pending = order.status() == OrderStatus.PENDING ? inbox.order(customerId, orderId).orElse(null) : null;
        return homeRegion.cancel(home, orderId, new Forwarded.Cancel(customerId,
                pending == null ? null : pending.order(), pending == null ? 0 : pending.statusWriteMicros())).order();
    }

    /**
     * A cancel another region's broker forwarded here, the order's home. When this DC has no row of
     * the order yet (it was placed elsewhere and has not replicated), the placing region's PENDING
     * row sent along with the cancel stands in for it.
     */
    public OrderResponse cancelForwarded(UUID orderId, Forwarded.Cancel forwarded) {
        String customerId = forwarded.customerId();
        Optional<Order> here = orders.find(customerId, orderId);
        if (here.isEmpty()) {
            Order pending = forwarded.pending();
            if (pending == null || !pending.orderId().equals(orderId) || !pending.customerId().equals(customerId)
                    || pending.status() != OrderStatus.PENDING) {
                throw ApiProblem.notFound("Order not found", "no order " + orderId);
            }
            if (!engine.owns(pending.symbol())) {
                throw misrouted(pending.symbol(), pending.homeRegion());
            }
            return cancelHere(customerId, pending, forwarded.pendingWriteMicros());
        }
        Order order = here.get();
        if (order.status().isTerminal()) {
            throw alreadyTerminal(order);
        }
        if (!engine.owns(order.symbol())) {
            throw misrouted(order.symbol(), order.homeRegion());
        }
        return cancelHere(customerId, order);
    }

    private OrderResponse cancelHere(String customerId, Order order) {
        if (order.status() != OrderStatus.PENDING) {
            return cancelHere(customerId, order, 0);
        }
        OrderInbox.Stored stored = inbox.order(customerId, order.orderId()).orElseThrow(
                () -> ApiProblem.notFound("Order not found", "no order " + order.orderId()));
        return cancelHere(customerId, stored.order(), stored.statusWriteMicros());
    }

    private OrderResponse cancelHere(String customerId, Order order, long pendingWriteMicros) {
        UUID orderId = order.orderId();
        Order pending = order.status() == OrderStatus.PENDING ? order : null;
        Outcomes.Cancellation c = await(engine.cancel(customerId, orderId, pending, pendingWriteMicros));
        return switch (c.result()) {
            case CANCELLED -> OrderResponse.of(c.order());
            case ALREADY_TERMINAL -> throw alreadyTerminal(c.order());
            case NOT_FOUND -> {
                Order now = own(customerId, orderId);
                throw now.status().isTerminal() ? alreadyTerminal(now) : new ApiProblem(HttpStatus.CONFLICT,
                        "Order not cancellable", "order is " + now.status() + " and cannot be cancelled yet");
            }
        };
    }

    /** The customer's order; someone else's order is reported exactly like a missing one. */
    private Order own(String customerId, UUID orderId) {
        return orders.find(customerId, orderId)
                .orElseThrow(() -> ApiProblem.notFound("Order not found", "no order " + orderId));
    }

    private static ApiProblem misrouted(String symbol, String home) {
        return new ApiProblem(HttpStatus.UNPROCESSABLE_ENTITY, "Symbol matched in another region",
                symbol + " is matched in region " + home + ", not here", Map.of("homeRegion", home));
    }

    private static ApiProblem conflict(Order existing) {
        return new ApiProblem(HttpStatus.CONFLICT, "Client order id reused",
                "clientOrderId '" + existing.clientOrderId() + "' was already used for a different order",
                Map.of("orderId", existing.orderId()));
    }

    private static ApiProblem rejected(Order order) {
        return new ApiProblem(HttpStatus.UNPROCESSABLE_ENTITY, "Order rejected", order.rejectReason(),
                Map.of("orderId", order.orderId(), "order", OrderResponse.of(order)));
    }

    private static ApiProblem alreadyTerminal(Order order) {
        return new ApiProblem(HttpStatus.CONFLICT, "Order already " + order.status().name().toLowerCase(),
                "order " + order.orderId() + " is " + order.status() + " and can no longer be cancelled",
                Map.of("order", OrderResponse.of(order)));
    }

    <T> T await(CompletableFuture<T> future) {
        try {
            return future.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            throw new Engine.EngineBusyException();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new Engine.EngineBusyException();
        } catch (ExecutionException e) {
            if (e.getCause() instanceof RuntimeException r) {
                throw r;
            }
            throw new IllegalStateException(e.getCause());
        }
    }
}
