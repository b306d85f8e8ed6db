package io.geobroker.broker.routing;

import io.geobroker.broker.web.ApiProblem;
import io.geobroker.domain.Region;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.tags.Tag;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * Announcements from the other regions' brokers (peer token): an order for one of this region's
 * symbols was just stored PENDING there. The order itself is read from this DC, as from a poll.
 */
@RestController
@RequestMapping("/internal/v1/inbox")
@Tag(name = "Peer brokers", description = "Broker-to-broker calls, authenticated with the peer token")
public class InboxController {

    private final InboxPoller poller;
    private final String region;

    public InboxController(InboxPoller poller, Region region) {
        this.poller = poller;
        this.region = region.name();
    }

    @PostMapping
    @Operation(summary = "Announce an order stored PENDING in another region for a symbol of this one",
            description = "202: it will be read from this region's DC and taken into the engine (or found by the "
                    + "inbox poll if it has not replicated yet).")
    public ResponseEntity<Void> announce(@RequestBody Forwarded.InboxRow row) {
        if (row.homeRegion() == null || row.placedAt() == null || row.orderId() == null || row.placedRegion() == null) {
            throw ApiProblem.badRequest("Incomplete inbox row", "homeRegion, minute, placedAt, orderId and placedRegion are required");
        }
        if (!row.homeRegion().equals(region)) {
            throw ApiProblem.unprocessable("Wrong region", "this is the broker of region " + region + ", not "
                    + row.homeRegion());
        }
        poller.announced(new OrderInbox.Entry(row.homeRegion(), row.minute(), row.placedAt(), row.orderId(),
                row.placedRegion(), false));
        return ResponseEntity.accepted().build();
    }
}
