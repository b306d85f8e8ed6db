package io.geobroker.ticker.web;

import io.geobroker.ticker.publish.PublishingService;
import io.geobroker.ticker.replay.ReplayReport;
import org.springframework.http.HttpStatus;
import org.springframework.http.ProblemDetail;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.server.ResponseStatusException;

/** Progress of a replay: lines published and skipped, and why each listed line was skipped. */
@RestController
public class ReplayController {

    private final PublishingService publishing;

    public ReplayController(PublishingService publishing) {
        this.publishing = publishing;
    }

    @GetMapping("/api/v1/replay")
    public ReplayReport.Snapshot replay() {
        return publishing.replayReport().map(ReplayReport::snapshot).orElseThrow(() -> {
            ResponseStatusException notReplaying = new ResponseStatusException(HttpStatus.NOT_FOUND);
            ProblemDetail body = notReplaying.getBody();
            body.setTitle("Not replaying");
            body.setDetail("This instance generates tickers; start it with --replay=FILE to replay a CSV");
            return notReplaying;
        });
    }
}
