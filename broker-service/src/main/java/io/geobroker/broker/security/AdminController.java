package io.geobroker.broker.security;

import io.geobroker.broker.config.BrokerProperties;
import io.geobroker.broker.matching.Engine;
import io.geobroker.broker.matching.Outcomes;
import io.geobroker.broker.web.ApiProblem;
import io.geobroker.domain.SymbolDirectory;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.Parameter;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import io.swagger.v3.oas.annotations.security.SecurityRequirement;
import io.swagger.v3.oas.annotations.tags.Tag;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

import java.time.Clock;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/** Operator endpoints, authenticated with the admin token ({@code GEOBROKER_ADMIN_TOKEN}). */
@RestController
@RequestMapping("/admin/v1/customers")
@Tag(name = "Administration")
@SecurityRequirement(name = "bearer")
public class AdminController {

    public record NewCustomer(String customerId, String displayName) {
    }

    /** The new customer's API token, shown only in this answer (only its hash is stored). */
    public record CreatedCustomer(String customerId, String token) {
    }

    public record SeedHolding(String symbol, Long quantity) {
    }

    public record HoldingResponse(String customerId, String symbol, long available, long reserved) {
    }

    private final CustomerDao customers;
    private final Engine engine;
    private final SymbolDirectory directory;
    private final Clock clock;
    private final BrokerProperties properties;

    public AdminController(CustomerDao customers, Engine engine, SymbolDirectory directory, Clock clock,
                           BrokerProperties properties) {
        this.customers = customers;
        this.engine = engine;
        this.directory = directory;
        this.clock = clock;
        this.properties = properties;
    }

    @PostMapping
    @Operation(summary = "Create a customer and issue its API token (409 if the id exists)")
    @ApiResponse(responseCode = "201", description = "The customer and its token, shown only this once")
    @ApiResponse(responseCode = "409", description = "A customer with this id exists")
    public ResponseEntity<CreatedCustomer> create(@RequestBody NewCustomer request) {
        if (request.customerId() == null || !Tokens.CUSTOMER_ID.matcher(request.customerId()).matches()) {
            throw ApiProblem.badRequest("Invalid customerId", "customerId: 1 to 64 letters, digits, '_' or '-'");
        }
        String name = request.displayName() == null ? request.customerId() : request.displayName();
        if (name.length() > 200) {
            throw ApiProblem.badRequest("Invalid displayName", "displayName: at most 200 characters");
        }
        String token = Tokens.newToken(request.customerId());
        if (!customers.create(request.customerId(), name, Tokens.sha256(token), clock.instant())) {
            throw new ApiProblem(HttpStatus.CONFLICT, "Customer exists", "customer '" + request.customerId()
                    + "' already exists; its token cannot be shown again");
        }
        return ResponseEntity.status(HttpStatus.CREATED).body(new CreatedCustomer(request.customerId(), token));
    }

    @PostMapping("/{customerId}/holdings")
    @Operation(summary = "Transfer shares in to a customer (recorded as a TRANSFER_IN transaction)")
    @ApiResponse(responseCode = "201", description = "The customer's holding after the transfer")
    @ApiResponse(responseCode = "404", description = "No such customer")
    @ApiResponse(responseCode = "422", description = "Not a listed symbol, or one another region holds")
    public ResponseEntity<HoldingResponse> seed(@Parameter(schema = @Schema(pattern = "^[A-Za-z0-9_-]{1,64}$"))
                                                @PathVariable String customerId, @RequestBody SeedHolding request) {
        if (customers.tokenSha256(customerId).isEmpty()) {
            throw ApiProblem.notFound("Customer not found", "no customer '" + customerId + "'");
        }
        if (request.symbol() == null || directory.symbol(request.symbol()).isEmpty()) {
            throw ApiProblem.unprocessable("Unknown symbol", "symbol '" + request.symbol() + "' is not listed");
        }
        if (request.quantity() == null || request.quantity() <= 0 || request.quantity() > 1_000_000_000L) {
            throw ApiProblem.badRequest("Invalid quantity", "quantity must be from 1 to 10^9 shares");
        }
        if (!engine.owns(request.symbol())) {
            throw ApiProblem.unprocessable("Symbol held in another region",
                    request.symbol() + " holdings are kept by its home region's broker");
        }
        try {
            Outcomes.Movement m = engine.transferShares(customerId, request.symbol(), request.quantity())
                    .get(properties.engine().commandTimeout().toMillis(), TimeUnit.MILLISECONDS);
            return ResponseEntity.status(HttpStatus.CREATED)
                    .body(new HoldingResponse(customerId, request.symbol(), m.available(), m.reserved()));
        } catch (TimeoutException | ExecutionException e) {
            throw new Engine.EngineBusyException();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new Engine.EngineBusyException();
        }
    }
}
