package io.geobroker.broker.quote;

import io.geobroker.broker.routing.Routing;
import io.geobroker.broker.web.ApiProblem;
import io.geobroker.domain.SymbolDirectory;
import io.geobroker.domain.SymbolInfo;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.Parameter;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import io.swagger.v3.oas.annotations.security.SecurityRequirement;
import io.swagger.v3.oas.annotations.tags.Tag;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RestController;

import java.util.Comparator;
import java.util.List;

/** Latest prices and the symbol directory. */
@RestController
@Tag(name = "Market data")
@SecurityRequirement(name = "bearer")
public class QuoteController {

    /** A listed symbol: its exchange, currency, tick size (minor units) and the region that matches it. */
    public record SymbolView(String symbol, String name, String sector, String exchange, String currency,
                             long tickSize, String homeRegion) {
    }

    private final QuoteDao quotes;
    private final SymbolDirectory directory;
    private final Routing routing;

    public QuoteController(QuoteDao quotes, SymbolDirectory directory, Routing routing) {
        this.quotes = quotes;
        this.directory = directory;
        this.routing = routing;
    }

    @GetMapping("/api/v1/quotes")
    @Operation(summary = "Latest price of every symbol that has traded")
    public List<QuoteDao.Quote> all() {
        return quotes.all().values().stream().sorted(Comparator.comparing(QuoteDao.Quote::symbol)).toList();
    }

    @GetMapping("/api/v1/quotes/{symbol}")
    @Operation(summary = "Latest price of one symbol (404 if unknown or not traded yet)")
    @ApiResponse(responseCode = "200", description = "The latest quote")
    @ApiResponse(responseCode = "404", description = "Not a listed symbol, or no ticker for it yet")
    public QuoteDao.Quote one(@Parameter(schema = @Schema(pattern = "^[A-Z0-9.]{1,16}$")) @PathVariable String symbol) {
        if (directory.symbol(symbol).isEmpty()) {
            throw ApiProblem.notFound("Unknown symbol", "symbol '" + symbol + "' is not listed");
        }
        return quotes.find(symbol).orElseThrow(() -> ApiProblem.notFound("No quote yet",
                "no ticker for " + symbol + " has been processed yet"));
    }

    @GetMapping("/api/v1/symbols")
    @Operation(summary = "The symbol directory")
    public List<SymbolView> symbols() {
        return directory.symbols().stream().map(this::view).toList();
    }

    private SymbolView view(SymbolInfo s) {
        return new SymbolView(s.symbol(), s.name(), s.sector(), s.exchange(), directory.currencyOf(s), s.tickSize(),
                routing.homeOf(s).map(r -> r.name()).orElse(null));
    }
}
