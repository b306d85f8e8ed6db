package io.geobroker.broker.routing;

import io.geobroker.broker.order.Order;
import io.geobroker.broker.web.ApiProblem;
import io.geobroker.domain.OrderStatus;
import io.geobroker.domain.Region;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.tags.Tag;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

import java.util.List;

/**
 * Announcements from the other regions' brokers (peer token): an order for one of this region's
 * symbols was just stored PENDING there. The announcement carries the order as stored, so the
 * engine takes it at once, exactly as if the inbox poll had read it from this DC.
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
            description = "202: the order will be taken into the engine (an order the engine already knows only "
                    + "gets its inbox row marked).")
    public ResponseEntity<Void> announce(@RequestBody Forwarded.InboxRow row) {
        check(row);
        take(row);
        return ResponseEntity.accepted().build();
    }

    @PostMapping("/batch")
    @Operation(summary = "Announce several orders stored PENDING in another region for symbols of this one",
            description = "202: every order will be taken into the engine; 400 or 422 for the first row that is "
                    + "incomplete or not for this region, and then none is taken.")
    public ResponseEntity<Void> announceAll(@RequestBody List<Forwarded.InboxRow> rows) {
        if (rows.isEmpty()) {
            throw ApiProblem.badRequest("No inbox rows", "the batch must hold at least one row");
        }
        rows.forEach(this::check);
        rows.forEach(this::take);
        return ResponseEntity.accepted().build();
    }

    private void check(Forwarded.InboxRow row) {
        Order order = row == null ? null : row.order();
        if (row == null || row.homeRegion() == null || row.placedAt() == null || row.orderId() == null
                || row.placedRegion() == null || order == null || order.orderId() == null || order.customerId() == null
                || order.symbol() == null || order.status() == null) {
            throw ApiProblem.badRequest("Incomplete inbox row",
                    "homeRegion, minute, placedAt, orderId, placedRegion, writeMicros and the order are required");
        }
        if (!row.homeRegion().equals(region)) {
            throw ApiProblem.unprocessable("Wrong region", "this is the broker of region " + region + ", not "
                    + row.homeRegion());
        }
        if (!order.orderId().equals(row.orderId()) || !region.equals(order.homeRegion())
                || !row.placedRegion().equals(order.placedRegion()) || order.status() != OrderStatus.PENDING) {
            throw ApiProblem.unprocessable("Not this inbox row's order", "the order must be the PENDING order "
                    + row.orderId() + " placed in " + row.placedRegion() + " for region " + region);
        }
    }

    private void take(Forwarded.InboxRow row) {
        poller.announced(new OrderInbox.Entry(row.homeRegion(), row.minute(), row.placedAt(), row.orderId(),
                row.order().customerId(), row.placedRegion(), false), row.order(), row.writeMicros());
    }
}
