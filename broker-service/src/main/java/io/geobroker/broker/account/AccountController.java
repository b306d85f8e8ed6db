package io.geobroker.broker.account;

import io.geobroker.broker.matching.Engine;
import io.geobroker.broker.matching.Outcomes;
import io.geobroker.broker.quote.QuoteDao;
import io.geobroker.broker.routing.Routing;
import io.geobroker.broker.web.ApiProblem;
import io.geobroker.broker.web.Page;
import io.geobroker.domain.SymbolDirectory;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.Parameter;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import io.swagger.v3.oas.annotations.security.SecurityRequirement;
import io.swagger.v3.oas.annotations.tags.Tag;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.security.core.Authentication;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** The customer's cash, holdings and ledger. Amounts are integer minor units of their currency. */
@RestController
@RequestMapping("/api/v1/account")
@Tag(name = "Account")
@SecurityRequirement(name = "bearer")
public class AccountController {

    /** Body of deposits and withdrawals. */
    public record CashRequest(String currency, Long amount) {
    }

    /** Cash after a movement. */
    public record BalanceResponse(String currency, long available, long reserved) {
    }

    public record TransactionPage(List<AccountDao.Transaction> items, String nextPageToken) {
    }

    /** A holding valued at the latest quote (null when there is none). */
    public record HoldingValue(String symbol, long available, long reserved, String currency, Long lastPrice,
                               Long marketValue) {
    }

    /** Cash and holdings per currency, holdings at their latest quotes. */
    public record CurrencySummary(String currency, long cashAvailable, long cashReserved, long holdingsValue,
                                  long total) {
    }

    public record Summary(String customerId, List<CurrencySummary> currencies, List<HoldingValue> holdings) {
    }

    private final AccountDao accounts;
    private final QuoteDao quotes;
    private final Engine engine;
    private final Routing routing;
    private final SymbolDirectory directory;

    public AccountController(AccountDao accounts, QuoteDao quotes, Engine engine, Routing routing,
                             SymbolDirectory directory) {
        this.accounts = accounts;
        this.quotes = quotes;
        this.engine = engine;
        this.routing = routing;
        this.directory = directory;
    }

    @PostMapping("/deposits")
    @Operation(summary = "Deposit cash in a currency this region holds")
    @ApiResponse(responseCode = "201", description = "The cash after the deposit")
    @ApiResponse(responseCode = "422", description = "A currency no region trades, or one another region holds")
    public ResponseEntity<BalanceResponse> deposit(Authentication auth, @RequestBody CashRequest request) {
        return move(auth.getName(), request, 1);
    }

    @PostMapping("/withdrawals")
    @Operation(summary = "Withdraw available cash (422 if not enough is available)")
    @ApiResponse(responseCode = "201", description = "The cash after the withdrawal")
    @ApiResponse(responseCode = "422", description = "Not enough available cash, a currency no region trades, or "
            + "one another region holds")
    public ResponseEntity<BalanceResponse> withdraw(Authentication auth, @RequestBody CashRequest request) {
        return move(auth.getName(), request, -1);
    }

    private ResponseEntity<BalanceResponse> move(String customerId, CashRequest request, int sign) {
        if (request.currency() == null || request.currency().isBlank()) {
            throw ApiProblem.badRequest("Missing field", "field 'currency' is required");
        }
        if (request.amount() == null || request.amount() <= 0 || request.amount() > 1_000_000_000_000L) {
            throw ApiProblem.badRequest("Invalid amount",
                    "amount must be a positive number of minor units up to 10^12, was " + request.amount());
        }
        if (!engine.ownsCurrency(request.currency())) {
            String home = routing.homeOfCurrency(request.currency()).map(r -> r.name()).orElse(null);
            if (home == null) {
                throw ApiProblem.unprocessable("Unknown currency", "no exchange of this deployment trades in '"
                        + request.currency() + "'");
            }
            throw new ApiProblem(HttpStatus.UNPROCESSABLE_ENTITY, "Currency held in another region",
                    request.currency() + " cash is held by region " + home + "; use that region's broker",
                    Map.of("homeRegion", home));
        }
        Outcomes.Movement result = engine.await(engine.moveCash(customerId, request.currency(), sign * request.amount()));
        if (!result.applied()) {
            throw ApiProblem.unprocessable("Insufficient cash", result.reason());
        }
        return ResponseEntity.status(HttpStatus.CREATED)
                .body(new BalanceResponse(request.currency(), result.available(), result.reserved()));
    }

    @GetMapping("/balances")
    @Operation(summary = "Cash per currency: available and reserved by open buy orders")
    public List<AccountDao.Balance> balances(Authentication auth) {
        return accounts.balances(auth.getName());
    }

    @GetMapping("/holdings")
    @Operation(summary = "Shares per symbol: available and reserved by open sell orders")
    public List<AccountDao.Position> holdings(Authentication auth) {
        return accounts.holdings(auth.getName());
    }

    @GetMapping("/transactions")
    @Operation(summary = "My ledger, newest first (deposits, withdrawals, buys, sells, transfers)")
    public TransactionPage transactions(Authentication auth,
                                        @Parameter(schema = @Schema(type = "integer", format = "int32", minimum = "1", maximum = "500", defaultValue = "50"))
                                        @RequestParam(defaultValue = "50") int pageSize,
                                        @Parameter(description = "nextPageToken of the page before",
                                                schema = @Schema(pattern = "^[A-Za-z0-9_-]+$", maxLength = 1024))
                                        @RequestParam(required = false) String pageToken) {
        if (pageSize < 1 || pageSize > 500) {
            throw ApiProblem.badRequest("Invalid pageSize", "pageSize must be from 1 to 500");
        }
        String scope = "transactions:" + auth.getName();
        Page<AccountDao.Transaction> page = accounts.transactions(auth.getName(), pageSize, Page.decodeToken(pageToken, scope));
        return new TransactionPage(page.items(), page.nextPageToken(scope));
    }

    @GetMapping("/summary")
    @Operation(summary = "Cash and holdings valued at the latest quotes, per currency")
    public Summary summary(Authentication auth) {
        Map<String, long[]> perCurrency = new TreeMap<>();
        for (AccountDao.Balance b : accounts.balances(auth.getName())) {
            long[] v = perCurrency.computeIfAbsent(b.currency(), k -> new long[3]);
            v[0] += b.available();
            v[1] += b.reserved();
        }
        List<HoldingValue> holdings = new ArrayList<>();
        Map<String, QuoteDao.Quote> latest = quotes.all();
        for (AccountDao.Position p : accounts.holdings(auth.getName())) {
            String currency = directory.symbol(p.symbol()).map(directory::currencyOf).orElse("?");
            QuoteDao.Quote q = latest.get(p.symbol());
            Long value = q == null ? null : Math.multiplyExact(q.price(), p.available() + p.reserved());
            holdings.add(new HoldingValue(p.symbol(), p.available(), p.reserved(), currency,
                    q == null ? null : q.price(), value));
            if (value != null) {
                perCurrency.computeIfAbsent(currency, k -> new long[3])[2] += value;
            }
        }
        List<CurrencySummary> currencies = perCurrency.entrySet().stream()
                .map(e -> new CurrencySummary(e.getKey(), e.getValue()[0], e.getValue()[1], e.getValue()[2],
                        e.getValue()[0] + e.getValue()[1] + e.getValue()[2]))
                .toList();
        return new Summary(auth.getName(), currencies, holdings);
    }
}
