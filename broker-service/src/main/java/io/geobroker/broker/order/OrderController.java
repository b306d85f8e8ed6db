package io.geobroker.broker.order;

import io.geobroker.broker.web.ApiProblem;
import io.geobroker.domain.OrderStatus;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.Parameter;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
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
import java.util.regex.Pattern;

/** The customer's orders. */
@RestController
@RequestMapping("/api/v1/orders")
@Tag(name = "Orders")
@SecurityRequirement(name = "bearer")
public class OrderController {

    private static final Pattern SYMBOL = Pattern.compile("[A-Z0-9.]{1,16}");

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
    @ApiResponse(responseCode = "200", description = "The order placed before with this clientOrderId and the same "
            + "parameters (in this or any other region)")
    @ApiResponse(responseCode = "201", description = "A new order of a symbol this region matches (a MARKET order "
            + "executed, with its fill)")
    @ApiResponse(responseCode = "202", description = "A new LIMIT, STOP or STOP_LIMIT order of another region's "
            + "symbol: stored PENDING here, accepted or rejected by its home region")
    @ApiResponse(responseCode = "409", description = "This clientOrderId was used before with other parameters "
            + "(orderId names that order)")
    @ApiResponse(responseCode = "422", description = "Well formed but refused by the market: a symbol no region "
            + "trades, a price off the tick grid, not enough cash or shares, no quote or not enough volume for a "
            + "MARKET order (order holds the REJECTED order)")
    @ApiResponse(responseCode = "503", description = "Not durable in time, or a MARKET order's home region "
            + "unreachable; retrying with the same clientOrderId is safe")
    public ResponseEntity<OrderResponse> place(Authentication auth, @RequestBody PlaceOrderRequest request) {
        OrderService.Placed placed = service.place(auth.getName(), request);
        return ResponseEntity.status(placed.status()).body(placed.order());
    }

    @GetMapping("/{orderId}")
    @Operation(summary = "One of my orders (404 for ids that are not mine)")
    @ApiResponse(responseCode = "200", description = "The order")
    @ApiResponse(responseCode = "404", description = "No such order of mine")
    public OrderResponse get(Authentication auth, @PathVariable UUID orderId) {
        return service.get(auth.getName(), orderId);
    }

    @GetMapping
    @Operation(summary = "My orders, newest first",
            description = "Filtered by status and symbol. A page may hold fewer than pageSize orders when filtered; "
                    + "the listing ends when nextPageToken is absent.")
    @ApiResponse(responseCode = "200", description = "A page of my orders")
    public OrderPage list(Authentication auth, @RequestParam(required = false) OrderStatus status,
                          @Parameter(description = "Only this symbol's orders",
                                  schema = @Schema(pattern = "^[A-Z0-9.]{1,16}$"))
                          @RequestParam(required = false) String symbol,
                          @Parameter(schema = @Schema(type = "integer", format = "int32", minimum = "1", maximum = "500", defaultValue = "50"))
                          @RequestParam(defaultValue = "50") int pageSize,
                          @Parameter(description = "nextPageToken of the page before",
                                  schema = @Schema(pattern = "^[A-Za-z0-9_-]+$", maxLength = 1024))
                          @RequestParam(required = false) String pageToken) {
        if (symbol != null && !SYMBOL.matcher(symbol).matches()) {
            throw ApiProblem.badRequest("Invalid parameter", "parameter 'symbol' is not a symbol (GET /api/v1/symbols)");
        }
        return service.list(auth.getName(), status, symbol, pageSize, pageToken);
    }

    @DeleteMapping("/{orderId}")
    @Operation(summary = "Cancel one of my orders", description = "409 if it is already filled, cancelled, expired "
            + "or rejected; the reserved cash or shares are released.")
    @ApiResponse(responseCode = "200", description = "The CANCELLED order")
    @ApiResponse(responseCode = "404", description = "No such order of mine")
    @ApiResponse(responseCode = "409", description = "Already FILLED, CANCELLED, EXPIRED or REJECTED (order holds it)")
    @ApiResponse(responseCode = "503", description = "The order's home region could not be reached; retrying is safe")
    public OrderResponse cancel(Authentication auth, @PathVariable UUID orderId) {
        return service.cancel(auth.getName(), orderId);
    }
}
