package io.geobroker.broker.order;

import io.geobroker.broker.config.BrokerProperties;
import io.geobroker.broker.matching.Engine;
import io.geobroker.broker.matching.Outcomes;
import io.geobroker.broker.routing.Routing;
import io.geobroker.broker.web.ApiProblem;
import io.geobroker.broker.web.Page;
import io.geobroker.domain.OrderStatus;
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
    private final Engine engine;
    private final Routing routing;
    private final OrderValidator validator;
    private final Duration timeout;

    public OrderService(OrderDao orders, Engine engine, Routing routing, SymbolDirectory directory,
                        BrokerProperties properties) {
        this.orders = orders;
        this.engine = engine;
        this.routing = routing;
        this.validator = new OrderValidator(directory);
        this.timeout = properties.engine().commandTimeout();
    }

    public Placed place(String customerId, PlaceOrderRequest request) {
        NewOrder checked = validator.validate(customerId, request, "", routing.localRegion());
        String home = routing.homeOf(checked.symbol()).map(r -> r.name()).orElseThrow(() -> ApiProblem.unprocessable(
                "Symbol not traded here", "no region of this deployment trades " + checked.symbol().exchange()));
        NewOrder order = new NewOrder(checked.orderId(), customerId, checked.clientOrderId(), checked.symbol(),
                checked.currency(), checked.side(), checked.type(), checked.timeInForce(), checked.allOrNone(),
                checked.quantity(), checked.limitPrice(), checked.stopPrice(), home, checked.placedRegion());
        Optional<Order> existing = orders.find(order.orderId());
        if (existing.isPresent()) {
            return repeated(existing.get(), order);
        }
        if (!routing.isLocal(order.symbol())) {
            throw new ApiProblem(HttpStatus.UNPROCESSABLE_ENTITY, "Symbol traded in another region",
                    order.symbol().symbol() + " is matched in region " + home + "; place it with that region's broker",
                    Map.of("homeRegion", home));
        }
        Outcomes.Placement placement = await(engine.place(order));
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
        Page<Order> page = orders.listForCustomer(customerId, status, symbol, pageSize, Page.decodeToken(pageToken));
        return new OrderPage(page.items().stream().map(OrderResponse::of).toList(), page.nextPageToken());
    }

    public OrderResponse cancel(String customerId, UUID orderId) {
        Order order = own(customerId, orderId);
        if (order.status().isTerminal()) {
            throw alreadyTerminal(order);
        }
        if (!engine.owns(order.symbol())) {
            throw new ApiProblem(HttpStatus.UNPROCESSABLE_ENTITY, "Order matched in another region",
                    "cancel this order with the broker of region " + order.homeRegion(),
                    Map.of("homeRegion", order.homeRegion()));
        }
        Outcomes.Cancellation c = await(engine.cancel(customerId, orderId));
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
        return orders.find(orderId).filter(o -> o.customerId().equals(customerId))
                .orElseThrow(() -> ApiProblem.notFound("Order not found", "no order " + orderId));
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
