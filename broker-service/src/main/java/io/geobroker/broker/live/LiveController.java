package io.geobroker.broker.live;

import io.geobroker.broker.web.ApiProblem;
import io.geobroker.domain.Region;
import io.geobroker.domain.SymbolDirectory;
import io.geobroker.domain.Topology;
import io.swagger.v3.oas.annotations.Hidden;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.security.core.Authentication;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.servlet.mvc.method.annotation.SseEmitter;

import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * The live page's two endpoints besides the REST API it calls. Both are left out of the OpenAPI
 * document: the stream never ends, which a client generated from the document or a fuzzer driven
 * by it cannot use, and the region description is the page's, not the API's.
 *
 * <ul>
 *   <li>{@code GET /api/v1/stream} — Server-Sent Events for the bearer token's customer
 *       ({@link LiveFeed}). The page reads it with {@code fetch()} and the {@code Authorization}
 *       header, so the token is never in a URL; it ends after {@link #STREAM_TIMEOUT} and the page
 *       opens a new one.</li>
 *   <li>{@code GET /page/v1/region} — open to all: which region this broker serves, and every
 *       region of the deployment with its exchanges, currencies and page.</li>
 * </ul>
 */
@Hidden
@RestController
public class LiveController {

    /** One stream's life; the page reconnects, so a long-gone page holds nothing longer than this. */
    static final Duration STREAM_TIMEOUT = Duration.ofMinutes(10);
    /** Open streams per broker; each costs a connection and a place in every push. */
    static final int MAX_STREAMS = 256;

    /** A region as the page shows it. */
    public record RegionView(String name, String cloudRegion, String dataCenter, List<String> exchanges,
                             List<String> currencies, String pageUrl) {
    }

    /** This broker's region and every region of the deployment. */
    public record Geography(String region, List<RegionView> regions) {
    }

    private final LiveFeed feed;
    private final Geography geography;

    public LiveController(LiveFeed feed, Topology topology, Region region, SymbolDirectory directory) {
        this.feed = feed;
        this.geography = new Geography(region.name(), topology.regions().stream().map(r -> new RegionView(r.name(),
                r.region().cloudRegion(), r.region().dataCenter(), r.region().exchanges(),
                r.region().exchanges().stream().map(e -> directory.exchange(e).orElseThrow().currency()).distinct().toList(),
                r.brokerUrl() + "/")).toList());
    }

    @GetMapping(path = "/api/v1/stream", produces = MediaType.TEXT_EVENT_STREAM_VALUE)
    public SseEmitter stream(Authentication auth) throws IOException {
        if (feed.subscribers() >= MAX_STREAMS) {
            throw new ApiProblem(HttpStatus.SERVICE_UNAVAILABLE, "Too many live pages",
                    "this broker serves at most " + MAX_STREAMS + " live pages at once; try again shortly", Map.of(), 5);
        }
        SseEmitter emitter = new SseEmitter(STREAM_TIMEOUT.toMillis());
        feed.subscribe(auth.getName(), emitter);
        return emitter;
    }

    @GetMapping(path = "/page/v1/region", produces = MediaType.APPLICATION_JSON_VALUE)
    public Geography region() {
        return geography;
    }
}
