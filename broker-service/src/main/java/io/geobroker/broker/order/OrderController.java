package io.geobroker.broker.order;

import io.geobroker.domain.OrderStatus;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.security.SecurityRequirement;
import io.swagger.v3.oas.annotations.tags.Tag;
import org.springframework.http.ResponseEntity;
import org.springframework.security.core.Authentication;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

import java.util.UUID;

/** The customer's orders. */
@RestController
@RequestMapping("/api/v1/orders")
@Tag(name = "Orders")
@SecurityRequirement(name = "bearer")
public class OrderController {

    private final OrderService service;

    public OrderController(OrderService service) {
        this.service = service;
    }

    @PostMapping
    @Operation(summary = "Place an order",
            description = "201 with the new order; 200 with the same order when the clientOrderId was used before "
                    + "with the same parameters, 409 when with different ones. MARKET orders execute at once against "
                    + "the latest quote (its remaining volume must cover the quantity) and come back with their fill; "
                    + "an order that cannot be covered is rejected with 422 and the reason.")
    public ResponseEntity<OrderResponse> place(Authentication auth, @RequestBody PlaceOrderRequest request) {
        OrderService.Placed placed = service.place(auth.getName(), request);
        return ResponseEntity.status(placed.status()).body(placed.order());
    }

    @GetMapping("/{orderId}")
    @Operation(summary = "One of my orders (404 for ids that are not mine)")
    public OrderResponse get(Authentication auth, @PathVariable UUID orderId) {
        return service.get(auth.getName(), orderId);
    }

    @GetMapping
    @Operation(summary = "My orders, newest first",
            description = "Filtered by status and symbol. A page may hold fewer than pageSize orders when filtered; "
                    + "the listing ends when nextPageToken is absent.")
    public OrderPage list(Authentication auth, @RequestParam(required = false) OrderStatus status,
                          @RequestParam(required = false) String symbol,
                          @RequestParam(defaultValue = "50") int pageSize,
                          @RequestParam(required = false) String pageToken) {
        return service.list(auth.getName(), status, symbol, pageSize, pageToken);
    }

    @DeleteMapping("/{orderId}")
    @Operation(summary = "Cancel one of my orders", description = "409 if it is already filled, cancelled, expired "
            + "or rejected; the reserved cash or shares are released.")
    public OrderResponse cancel(Authentication auth, @PathVariable UUID orderId) {
        return service.cancel(auth.getName(), orderId);
    }
}
