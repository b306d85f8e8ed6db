package io.geobroker.ticker.replay;

import io.geobroker.ticker.publish.TickerSender;
import io.geobroker.ticker.rate.PacedLoop;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.BufferedReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Publishes the valid lines of a replay CSV in file order, one per pacing slot, {@code passes}
 * times. A malformed line is skipped without using a slot, logged at WARN with its line number (the
 * first {@value ReplayReport#MAX_LISTED}), counted in {@code geobroker.ticker.replay.lines{outcome=skipped}}
 * and listed in the {@link ReplayReport}; the end of the replay is logged with a summary. Streams the
 * file, so its size is not bounded by the heap. Runs on one thread.
 */
public final class ReplayFeed implements PacedLoop.Step {

    private static final Logger LOG = LoggerFactory.getLogger(ReplayFeed.class);

    private final Path file;
    private final int passes;
    private final ReplayLineParser parser;
    private final TickerSender sender;
    private final ReplayReport report;
    private final Counter publishedLines;
    private final Counter skippedLines;
    private BufferedReader reader;
    private long lineNumber;
    private int pass = 1;
    private boolean done;

    public ReplayFeed(Path file, int passes, ReplayLineParser parser, TickerSender sender, ReplayReport report, MeterRegistry registry) {
        this.file = file;
        this.passes = passes;
        this.parser = parser;
        this.sender = sender;
        this.report = report;
        this.publishedLines = Counter.builder("geobroker.ticker.replay.lines").tag("outcome", "published")
                .description("Lines of the replay file published").register(registry);
        this.skippedLines = Counter.builder("geobroker.ticker.replay.lines").tag("outcome", "skipped")
                .description("Malformed lines of the replay file, skipped").register(registry);
    }

    @Override
    public boolean publishOne(long scheduledMicros) {
        if (done) {
            return false;
        }
        try {
            while (true) {
                String line = nextLine();
                if (line == null) {
                    finish(ReplayReport.State.FINISHED, null);
                    return false;
                }
                ReplayLineParser.Result result = parser.parse(line);
                if (result instanceof ReplayLineParser.Valid valid) {
                    sender.send(valid.at(scheduledMicros));
                    publishedLines.increment();
                    report.published();
                    return true;
                }
                if (result instanceof ReplayLineParser.Invalid invalid) {
                    skippedLines.increment();
                    if (report.skipped(lineNumber, invalid.reason())) {
                        LOG.warn("Replay {} line {} skipped: {}", file, lineNumber, invalid.reason());
                    } else if (report.snapshot().skipped() == ReplayReport.MAX_LISTED + 1) {
                        LOG.warn("Replay {}: more than {} lines skipped; further ones are only counted",
                                file, ReplayReport.MAX_LISTED);
                    }
                }
            }
        } catch (IOException e) {
            finish(ReplayReport.State.FAILED, "cannot read " + file + " at line " + lineNumber + ": " + e.getMessage());
            return false;
        }
    }

    /** Ends the replay early (the service stops); call after the loop's thread has ended. */
    public void stop() {
        if (!done) {
            finish(ReplayReport.State.STOPPED, null);
        }
    }

    private String nextLine() throws IOException {
        while (true) {
            if (reader == null) {
                reader = Files.newBufferedReader(file, StandardCharsets.UTF_8);
                lineNumber = 0;
            }
            String line = reader.readLine();
            if (line != null) {
                lineNumber++;
                return line;
            }
            reader.close();
            reader = null;
            if (pass == passes) {
                return null;
            }
            pass++;
            report.nextPass();
        }
    }

    private void finish(ReplayReport.State state, String failure) {
        done = true;
        try {
            if (reader != null) {
                reader.close();
            }
        } catch (IOException e) {
            LOG.debug("Closing {} failed", file, e);
        }
        reader = null;
        sender.flush();
        report.end(state, failure);
        ReplayReport.Snapshot s = report.snapshot();
        if (state == ReplayReport.State.FAILED) {
            LOG.error("Replay of {} failed after {} published and {} skipped lines: {}", file, s.published(),
                    s.skipped(), failure);
        } else {
            LOG.info("Replay of {} {}: {} pass(es), {} lines published, {} skipped{}", file,
                    state == ReplayReport.State.FINISHED ? "finished" : "stopped", s.pass(), s.published(), s.skipped(),
                    s.skipped() == 0 ? "" : " (lines " + s.skippedLines().stream().map(l -> Long.toString(l.line()))
                            .limit(20).toList() + (s.skipped() > 20 ? " ..." : "") + "; see GET /api/v1/replay)");
        }
    }
}
