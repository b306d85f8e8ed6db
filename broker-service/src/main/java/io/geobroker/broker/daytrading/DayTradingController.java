package io.geobroker.broker.daytrading;

import io.geobroker.broker.web.ApiProblem;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import io.swagger.v3.oas.annotations.security.SecurityRequirement;
import io.swagger.v3.oas.annotations.tags.Tag;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.security.core.Authentication;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.servlet.mvc.method.annotation.StreamingResponseBody;

import java.util.ArrayList;
import java.util.List;

/** A customer's day-trading commands, one per request, and its audit log (broker-service/DAY-TRADING.md). */
@RestController
@RequestMapping("/api/v1/day-trading")
@Tag(name = "Day trading")
@SecurityRequirement(name = "bearer")
public class DayTradingController {

    static final String LOG_PATH = "/api/v1/day-trading/log";

    /** One command; fields that the command does not take must be absent. */
    public record CommandRequest(Long transactionNum, String command, String user, String stockSymbol, String amount,
                                 String price, String filename) {
    }

    private final DayTradingService service;
    private final DayTradingLog log;

    public DayTradingController(DayTradingService service, DayTradingLog log) {
        this.service = service;
        this.log = log;
    }

    @PostMapping("/commands")
    @Operation(operationId = "dayTradingCommand", summary = "Run one day-trading command as this customer (ADD, QUOTE, BUY, COMMIT_BUY, ...)")
    @ApiResponse(responseCode = "200", description = "What the command did, once durable")
    @ApiResponse(responseCode = "422", description = "The command was refused (nothing pending, not enough cash or "
            + "shares, no quote yet): the problem details carry the result's fields; it changed nothing and is "
            + "logged as an errorEvent")
    public DayTradingResult command(Authentication auth, @RequestBody CommandRequest request) {
        DayTradingCommand command = read(request, auth.getName(), service.minorDigits());
        DayTradingResult result = service.one(command, LOG_PATH);
        if (!result.ok()) {
            throw service.refused(result);
        }
        return result;
    }

    @GetMapping(value = "/log", produces = MediaType.APPLICATION_XML_VALUE)
    @Operation(operationId = "dayTradingLog", summary = "My day-trading audit log in this region, as XML valid against the course's logfile.xsd")
    @ApiResponse(responseCode = "200", description = "The log, streamed")
    public ResponseEntity<StreamingResponseBody> log(Authentication auth) {
        String user = auth.getName();
        int digits = service.minorDigits();
        return ResponseEntity.ok().contentType(MediaType.APPLICATION_XML)
                .body(out -> log.write(user, digits, out));
    }

    /**
     * The request as a command of {@code customerId}: a field not of its form is a 400 (the schema
     * says so), fields that do not fit the command a 422, and then the same reading as a workload line's.
     */
    static DayTradingCommand read(CommandRequest r, String customerId, int digits) {
        if (r.command() == null) {
            throw ApiProblem.badRequest("Missing field", "field 'command' is required");
        }
        DtCommand c = DtCommand.named(r.command()).orElseThrow(() -> ApiProblem.badRequest("Unknown command",
                "'" + DayTradingCommand.abbreviate(r.command()) + "' is not a day-trading command"));
        if (r.transactionNum() != null && r.transactionNum() < 1) {
            throw ApiProblem.badRequest("Invalid transactionNum", "transactionNum must be positive");
        }
        requireForm("user", r.user(), DayTradingCommand.USER_PATTERN);
        requireForm("stockSymbol", r.stockSymbol(), DayTradingCommand.SYMBOL_PATTERN);
        requireForm("amount", r.amount(), DayTradingCommand.AMOUNT_PATTERN);
        requireForm("price", r.price(), DayTradingCommand.AMOUNT_PATTERN);
        requireForm("filename", r.filename(), DayTradingCommand.FILENAME_PATTERN);
        if (r.user() != null && !r.user().equals(customerId)) {
            throw new ApiProblem(HttpStatus.FORBIDDEN, "Not your user",
                    "a customer runs commands as itself: user must be '" + customerId + "' or absent");
        }
        refuseUnless(c.takesSymbol(), r.stockSymbol(), "stockSymbol", c);
        refuseUnless(c.takesAmount(), r.amount(), "amount", c);
        refuseUnless(c.takesPrice(), r.price(), "price", c);
        refuseUnless(c == DtCommand.DUMPLOG, r.filename(), "filename", c);
        List<String> fields = new ArrayList<>();
        fields.add(customerId);
        if (c.takesSymbol()) {
            fields.add(r.stockSymbol());
        }
        if (c.takesAmount()) {
            fields.add(r.amount());
        }
        if (c.takesPrice()) {
            fields.add(r.price());
        }
        if (c == DtCommand.DUMPLOG) {
            fields.add(r.filename());
        }
        DayTradingCommand command = DayTradingCommand.of(r.transactionNum() == null ? 0 : r.transactionNum(), c,
                fields.toArray(String[]::new), digits);
        if (command.isMalformed()) {
            throw ApiProblem.unprocessable("Invalid command", command.malformed());
        }
        return command;
    }

    private static void requireForm(String field, String value, String pattern) {
        if (value != null && !value.matches(pattern)) {
            throw ApiProblem.badRequest("Invalid " + field, "'" + field + "' must match " + pattern);
        }
    }

    private static void refuseUnless(boolean takes, String value, String field, DtCommand c) {
        if (takes && value == null) {
            throw ApiProblem.unprocessable("Missing field", c + " needs field '" + field + "'");
        }
        if (!takes && value != null) {
            throw ApiProblem.unprocessable("Unexpected field", c + " takes no '" + field + "'");
        }
    }
}
