package io.geobroker.broker.order;

import io.geobroker.broker.routing.Forwarded;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.tags.Tag;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

import java.util.UUID;

/**
 * Calls from the other regions' brokers (peer token): market orders and cancels for symbols whose
 * home is this region, on behalf of a customer who placed them elsewhere.
 */
@RestController
@RequestMapping("/internal/v1/orders")
@Tag(name = "Peer brokers", description = "Broker-to-broker calls, authenticated with the peer token")
public class InternalController {

    private final OrderService service;

    public InternalController(OrderService service) {
        this.service = service;
    }

    @PostMapping
    @Operation(summary = "Execute a market order placed in another region",
            description = "The same answers as POST /api/v1/orders, for the customer named in the body.")
    public ResponseEntity<OrderResponse> place(@RequestBody Forwarded.Placement placement) {
        OrderService.Placed placed = service.placeForwarded(placement);
        return ResponseEntity.status(placed.status()).body(placed.order());
    }

    @PostMapping("/{orderId}/cancel")
    @Operation(summary = "Cancel an order for a customer who asked in another region")
    public OrderResponse cancel(@PathVariable UUID orderId, @RequestBody Forwarded.Cancel cancel) {
        return service.cancelForwarded(orderId, cancel);
    }
}
