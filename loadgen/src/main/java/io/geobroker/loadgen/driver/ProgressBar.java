package io.geobroker.loadgen.driver;

import java.io.PrintStream;
import java.util.Locale;

/** A one-line text progress bar, redrawn in place on a terminal (carriage return). */
public final class ProgressBar {

    private static final int WIDTH = 30;

    private final PrintStream out;
    private final boolean enabled;

    public ProgressBar(PrintStream out, boolean enabled) {
        this.out = out;
        this.enabled = enabled;
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

    public void update(long done, long total, String status) {
        if (enabled) {
            out.print("\r" + render(done, total, status) + "   ");
            out.flush();
        }
    }

    public void finish() {
        if (enabled) {
            out.println();
        }
    }
}
