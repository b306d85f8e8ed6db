package io.geobroker.broker.daytrading;

import io.geobroker.broker.web.ApiProblem;
import io.geobroker.domain.Region;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.Parameter;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import io.swagger.v3.oas.annotations.security.SecurityRequirement;
import io.swagger.v3.oas.annotations.tags.Tag;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.servlet.mvc.method.annotation.StreamingResponseBody;

import java.util.List;
import java.util.regex.Pattern;

/** The operator's day-trading endpoints: batches of workload lines for any users, and the whole log. */
@RestController
@RequestMapping("/admin/v1/day-trading")
@Tag(name = "Administration")
@SecurityRequirement(name = "bearer")
public class DayTradingAdminController {

    static final String LOG_PATH = "/admin/v1/day-trading/log";
    private static final Pattern USER = Pattern.compile("[A-Za-z0-9_-]{1,64}");

    /** The answers of a batch, one per command line, in the order of the lines. */
    public record BatchResponse(String region, List<DayTradingResult> results) {
    }

    private final DayTradingService service;
    private final DayTradingLog log;
    private final Region region;

    public DayTradingAdminController(DayTradingService service, DayTradingLog log, Region region) {
        this.service = service;
        this.log = log;
        this.region = region;
    }

    @PostMapping(value = "/batch", consumes = MediaType.TEXT_PLAIN_VALUE)
    @Operation(operationId = "dayTradingBatch", summary = "Run workload lines ([N] COMMAND,field,...) for any users, in order; answered once all are "
            + "durable (at most 1,000 lines, 1 MiB)")
    @ApiResponse(responseCode = "200", description = "One result per command line, in order; a line that is "
            + "malformed or refused has ok false and its error")
    @ApiResponse(responseCode = "422", description = "More than 1,000 command lines")
    public BatchResponse batch(@RequestBody String body) {
        return new BatchResponse(region.name(), service.batch(body, LOG_PATH));
    }

    @GetMapping(value = "/log", produces = MediaType.APPLICATION_XML_VALUE)
    @Operation(operationId = "dayTradingFullLog", summary = "The region's whole day-trading audit log, or one user's, as XML valid against the "
            + "course's logfile.xsd")
    @ApiResponse(responseCode = "200", description = "The log, streamed")
    public ResponseEntity<StreamingResponseBody> log(
            @Parameter(description = "Only this user's log", schema = @Schema(pattern = "^[A-Za-z0-9_-]{1,64}$"))
            @RequestParam(required = false) String user) {
        if (user != null && !USER.matcher(user).matches()) {
            throw ApiProblem.badRequest("Invalid user", "user must be 1-64 letters, digits, '_' or '-'");
        }
        int digits = service.minorDigits();
        return ResponseEntity.ok().contentType(MediaType.APPLICATION_XML)
                .body(out -> log.write(user, digits, out));
    }
}
