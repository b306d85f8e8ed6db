package io.geobroker.ticker.replay;

import java.util.ArrayList;
import java.util.List;

/**
 * Progress and outcome of a replay, as shown by {@code GET /api/v1/replay}: lines published and
 * skipped (with the first {@value #MAX_LISTED} skipped lines and why). Thread-safe.
 */
public final class ReplayReport {

    /** Most skipped lines listed individually; later ones are only counted. */
    public static final int MAX_LISTED = 100;

    /** Where a replay is. */
    public enum State { RUNNING, FINISHED, FAILED, STOPPED }

    /** One skipped line: its 1-based number in the file, the pass over the file, and why. */
    public record SkippedLine(int pass, long line, String reason) {
    }

    /** A consistent copy of the report. */
    public record Snapshot(String file, State state, int pass, int passes, long published, long skipped,
                           List<SkippedLine> skippedLines, String failure) {
    }

    private final String file;
    private final int passes;
    private State state = State.RUNNING;
    private int pass = 1;
    private long published;
    private long skipped;
    private final List<SkippedLine> skippedLines = new ArrayList<>();
    private String failure;

    public ReplayReport(String file, int passes) {
        this.file = file;
        this.passes = passes;
    }

    synchronized void published() {
        published++;
    }

    /** Records a skipped line; returns true while it is still listed individually. */
    synchronized boolean skipped(long line, String reason) {
        skipped++;
        if (skippedLines.size() < MAX_LISTED) {
            skippedLines.add(new SkippedLine(pass, line, reason));
            return true;
        }
        return false;
    }

    synchronized void nextPass() {
        pass++;
    }

    synchronized void end(State end, String why) {
        state = end;
        failure = why;
    }

    public synchronized Snapshot snapshot() {
        return new Snapshot(file, state, pass, passes, published, skipped, List.copyOf(skippedLines), failure);
    }
}
