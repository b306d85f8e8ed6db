package io.geobroker.loadgen.driver;

import java.io.PrintStream;
import java.util.Locale;

/**
 * A one-line text progress bar, redrawn in place on a terminal (carriage return); when the output
 * is not a terminal (a log file), one plain line every 5 seconds instead.
 */
public final class ProgressBar {

    private static final int WIDTH = 30;

    private static final long LOG_INTERVAL_NANOS = 5_000_000_000L;

    private final PrintStream out;
    private final boolean enabled;
    private final boolean interactive;
    private long lastLine = Long.MIN_VALUE;
    private boolean drawn;

    public ProgressBar(PrintStream out, boolean enabled) {
        this(out, enabled, System.console() != null);
    }

    ProgressBar(PrintStream out, boolean enabled, boolean interactive) {
        this.out = out;
        this.enabled = enabled;
        this.interactive = interactive;
    }

    /** Renders the bar for {@code done} of {@code total} (clamped), followed by a status text. */
    public static String render(long done, long total, String status) {
        long clamped = total <= 0 ? 0 : Math.max(0, Math.min(done, total));
        int filled = total <= 0 ? 0 : (int) (clamped * WIDTH / total);
        int percent = total <= 0 ? 0 : (int) (clamped * 100 / total);
        StringBuilder bar = new StringBuilder("[");
        for (int i = 0; i < WIDTH; i++) {
            bar.append(i < filled ? '#' : (i == filled ? '>' : '.'));
        }
        return bar.append("] ").append(String.format(Locale.ROOT, "%3d%% ", percent)).append(status).toString();
    }

    public synchronized void update(long done, long total, String status) {
        if (!enabled) {
            return;
        }
        if (interactive) {
            out.print("\r" + render(done, total, status) + "   ");
            out.flush();
            drawn = true;
            return;
        }
        long now = System.nanoTime();
        if (lastLine == Long.MIN_VALUE || now - lastLine >= LOG_INTERVAL_NANOS || done >= total) {
            out.println(render(done, total, status));
            lastLine = now;
        }
    }

    public synchronized void finish() {
        if (enabled && interactive && drawn) {
            out.println();
            drawn = false;
        }
        lastLine = Long.MIN_VALUE;
    }
}
