package io.geobroker.loadgen.report;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.LongFunction;

/**
 * Minimal inline-SVG charts for self-contained HTML reports (no scripts, no network): line charts
 * with optional log-scaled x axis and stacked bar charts. Geometry only; the numbers a reader sees
 * are formatted by the caller's label functions.
 */
public final class Svg {

    /** Colours of the series, in order. */
    public static final List<String> PALETTE = List.of("#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd",
            "#8c564b", "#e377c2", "#17becf", "#7f7f7f", "#bcbd22");

    private static final int WIDTH = 720;
    private static final int HEIGHT = 300;
    private static final int LEFT = 70;
    private static final int RIGHT = 20;
    private static final int TOP = 30;
    private static final int BOTTOM = 60;

    private Svg() {
    }

    /** A named series of points. */
    public record Series(String name, double[] xs, double[] ys) {
    }

    /** A stack component of a bar chart: one value per category (any integer unit). */
    public record Stack(String name, long[] values) {
    }

    /**
     * A line chart. With {@code logX} the x values must be positive and are plotted on a log10
     * scale (used for percentile distributions, x = 1 / (1 - percentile)). A NaN y value is a gap
     * in its line.
     */
    public static String lineChart(String title, String xLabel, String yLabel, List<Series> series, boolean logX,
                                   java.util.function.DoubleFunction<String> xTickLabel) {
        return lineChart(title, xLabel, yLabel, series, logX, xTickLabel, Double.MAX_VALUE, -Double.MAX_VALUE);
    }

    /**
     * A line chart over the seconds of a phase: its x axis spans at least {@code [0, seconds]},
     * whatever second the series start and end in, so that it reads 0, 12, ... 60 for a minute.
     */
    public static String timeChart(String title, String yLabel, List<Series> series, double seconds) {
        return lineChart(title, "seconds into the measured phase", yLabel, series, false,
                v -> String.format(Locale.ROOT, "%.0f", v), 0, seconds);
    }

    private static String lineChart(String title, String xLabel, String yLabel, List<Series> series, boolean logX,
                                    java.util.function.DoubleFunction<String> xTickLabel, double minXAtMost,
                                    double maxXAtLeast) {
        double minX = minXAtMost;
        double maxX = maxXAtLeast;
        double maxY = 0;
        for (Series s : series) {
            for (int i = 0; i < s.xs().length; i++) {
                if (Double.isNaN(s.ys()[i])) {
                    continue;
                }
                double x = logX ? Math.log10(s.xs()[i]) : s.xs()[i];
                minX = Math.min(minX, x);
                maxX = Math.max(maxX, x);
                maxY = Math.max(maxY, s.ys()[i]);
            }
        }
        if (minX == Double.MAX_VALUE) {
            minX = 0;
            maxX = 1;
        }
        if (maxX <= minX) {
            maxX = minX + 1;
        }
        maxY = niceCeiling(maxY);
        StringBuilder svg = open(title);
        int plotW = WIDTH - LEFT - RIGHT;
        int plotH = HEIGHT - TOP - BOTTOM;
        axes(svg, xLabel, yLabel);
        for (int t = 0; t <= 4; t++) {
            double v = maxY * t / 4;
            double y = TOP + plotH - plotH * t / 4.0;
            svg.append(String.format(Locale.ROOT,
                    "<line x1='%d' y1='%.1f' x2='%d' y2='%.1f' stroke='#ddd'/><text x='%d' y='%.1f' text-anchor='end' font-size='11'>%s</text>%n",
                    LEFT, y, WIDTH - RIGHT, y, LEFT - 6, y + 4, Html.escape(number(v))));
        }
        if (logX) {
            for (int decade = (int) Math.ceil(minX); decade <= Math.floor(maxX); decade++) {
                double px = LEFT + plotW * (decade - minX) / (maxX - minX);
                svg.append(String.format(Locale.ROOT,
                        "<line x1='%.1f' y1='%d' x2='%.1f' y2='%d' stroke='#eee'/><text x='%.1f' y='%d' text-anchor='middle' font-size='11'>%s</text>%n",
                        px, TOP, px, TOP + plotH, px, TOP + plotH + 16, Html.escape(xTickLabel.apply(Math.pow(10, decade)))));
            }
        } else {
            for (int t = 0; t <= 5; t++) {
                double v = minX + (maxX - minX) * t / 5;
                double px = LEFT + plotW * t / 5.0;
                svg.append(String.format(Locale.ROOT, "<text x='%.1f' y='%d' text-anchor='middle' font-size='11'>%s</text>%n",
                        px, TOP + plotH + 16, Html.escape(xTickLabel.apply(v))));
            }
        }
        List<String> names = series.stream().map(Series::name).toList();
        svg.append(legend(names));
        for (int i = 0; i < series.size(); i++) {
            Series s = series.get(i);
            String colour = PALETTE.get(i % PALETTE.size());
            // a NaN value is a gap: the line stops before it and starts again after it
            List<String> segments = new ArrayList<>();
            StringBuilder points = new StringBuilder();
            for (int p = 0; p <= s.xs().length; p++) {
                if (p == s.xs().length || Double.isNaN(s.ys()[p])) {
                    if (!points.isEmpty()) {
                        segments.add(points.toString().trim());
                        points.setLength(0);
                    }
                    continue;
                }
                double x = logX ? Math.log10(s.xs()[p]) : s.xs()[p];
                double px = LEFT + plotW * (x - minX) / (maxX - minX);
                double py = TOP + plotH - plotH * Math.min(s.ys()[p], maxY) / maxY;
                points.append(String.format(Locale.ROOT, "%.1f,%.1f ", px, py));
            }
            for (String segment : segments.isEmpty() ? List.of("") : segments) {
                svg.append(String.format(Locale.ROOT,
                        "<polyline class='series' data-series='%s' fill='none' stroke='%s' stroke-width='1.6' points='%s'/>%n",
                        Html.escape(s.name()), colour, segment));
            }
        }
        return close(svg, names.size(), names);
    }

    /**
     * A stacked bar chart with integer values and an optional horizontal reference line
     * ({@code referenceValue < 0}: none).
     */
    public static String barChart(String title, String xLabel, String yLabel, List<String> categories,
                                  List<Stack> stacks, long referenceValue, String referenceLabel,
                                  LongFunction<String> valueLabel) {
        long max = Math.max(1, referenceValue);
        for (int c = 0; c < categories.size(); c++) {
            long sum = 0;
            for (Stack s : stacks) {
                sum += s.values()[c];
            }
            max = Math.max(max, sum);
        }
        max = (long) niceCeiling(max);
        StringBuilder svg = open(title);
        int plotW = WIDTH - LEFT - RIGHT;
        int plotH = HEIGHT - TOP - BOTTOM;
        axes(svg, xLabel, yLabel);
        for (int t = 0; t <= 4; t++) {
            long v = max * t / 4;
            long y = TOP + plotH - (long) plotH * t / 4;
            svg.append(String.format(Locale.ROOT,
                    "<line x1='%d' y1='%d' x2='%d' y2='%d' stroke='#ddd'/><text x='%d' y='%d' text-anchor='end' font-size='11'>%s</text>%n",
                    LEFT, y, WIDTH - RIGHT, y, LEFT - 6, y + 4, Html.escape(valueLabel.apply(v))));
        }
        int slot = plotW / Math.max(1, categories.size());
        int barW = Math.max(4, slot * 6 / 10);
        for (int c = 0; c < categories.size(); c++) {
            int x = LEFT + slot * c + (slot - barW) / 2;
            long base = 0;
            long total = 0;
            for (int s = 0; s < stacks.size(); s++) {
                long v = stacks.get(s).values()[c];
                long y0 = TOP + plotH - plotH * base / max;
                long y1 = TOP + plotH - plotH * (base + v) / max;
                svg.append(String.format(Locale.ROOT,
                        "<rect class='bar' x='%d' y='%d' width='%d' height='%d' fill='%s'><title>%s: %s</title></rect>%n",
                        x, y1, barW, y0 - y1, PALETTE.get(s % PALETTE.size()),
                        Html.escape(stacks.get(s).name()), Html.escape(valueLabel.apply(v))));
                base += v;
                total += v;
            }
            long top = TOP + plotH - plotH * base / max;
            svg.append(String.format(Locale.ROOT,
                    "<text x='%d' y='%d' text-anchor='middle' font-size='10'>%s</text><text x='%d' y='%d' text-anchor='middle' font-size='11'>%s</text>%n",
                    x + barW / 2, top - 3, Html.escape(valueLabel.apply(total)),
                    x + barW / 2, TOP + plotH + 16, Html.escape(categories.get(c))));
        }
        if (referenceValue >= 0) {
            long y = TOP + plotH - plotH * referenceValue / max;
            svg.append(String.format(Locale.ROOT,
                    "<line x1='%d' y1='%d' x2='%d' y2='%d' stroke='#000' stroke-dasharray='5,4'/><text x='%d' y='%d' text-anchor='end' font-size='11'>%s</text>%n",
                    LEFT, y, WIDTH - RIGHT, y, WIDTH - RIGHT, y - 4, Html.escape(referenceLabel)));
        }
        List<String> names = stacks.stream().map(Stack::name).toList();
        svg.append(legend(names));
        return close(svg, names.size(), names);
    }

    private static final int LEGEND_ROW = 16;

    /** Legend entries laid out left to right in as many rows as they need, below the x axis label. */
    private static String legend(List<String> names) {
        StringBuilder out = new StringBuilder();
        int x = LEFT;
        int row = 0;
        for (int i = 0; i < names.size(); i++) {
            int width = 24 + 7 * names.get(i).length();
            if (x > LEFT && x + width > WIDTH - RIGHT) {
                x = LEFT;
                row++;
            }
            int y = HEIGHT - 16 + row * LEGEND_ROW;
            out.append(String.format(Locale.ROOT,
                    "<rect x='%d' y='%d' width='10' height='10' fill='%s'/><text x='%d' y='%d' font-size='11'>%s</text>%n",
                    x, y, PALETTE.get(i % PALETTE.size()), x + 14, y + 9, Html.escape(names.get(i))));
            x += width;
        }
        return out.toString();
    }

    private static int legendRows(List<String> names) {
        int x = LEFT;
        int rows = names.isEmpty() ? 0 : 1;
        for (String name : names) {
            int width = 24 + 7 * name.length();
            if (x > LEFT && x + width > WIDTH - RIGHT) {
                x = LEFT;
                rows++;
            }
            x += width;
        }
        return rows;
    }

    /** Ends the chart, growing its height for legend rows beyond the first. */
    private static String close(StringBuilder svg, int entries, List<String> names) {
        int extra = Math.max(0, legendRows(names) - 1) * LEGEND_ROW;
        String text = svg.append("</svg>\n").toString();
        if (extra == 0) {
            return text;
        }
        int height = HEIGHT + extra;
        return text.replaceFirst("height='" + HEIGHT + "' viewBox='0 0 " + WIDTH + " " + HEIGHT + "'",
                "height='" + height + "' viewBox='0 0 " + WIDTH + " " + height + "'");
    }

    private static StringBuilder open(String title) {
        StringBuilder svg = new StringBuilder();
        svg.append(String.format(Locale.ROOT,
                "<svg xmlns='http://www.w3.org/2000/svg' class='chart' width='%d' height='%d' viewBox='0 0 %d %d' font-family='sans-serif'>%n",
                WIDTH, HEIGHT, WIDTH, HEIGHT));
        svg.append(String.format(Locale.ROOT, "<text x='%d' y='18' font-size='14' font-weight='bold'>%s</text>%n",
                LEFT, Html.escape(title)));
        return svg;
    }

    private static void axes(StringBuilder svg, String xLabel, String yLabel) {
        int plotH = HEIGHT - TOP - BOTTOM;
        svg.append(String.format(Locale.ROOT,
                "<line x1='%d' y1='%d' x2='%d' y2='%d' stroke='#333'/><line x1='%d' y1='%d' x2='%d' y2='%d' stroke='#333'/>%n",
                LEFT, TOP, LEFT, TOP + plotH, LEFT, TOP + plotH, WIDTH - RIGHT, TOP + plotH));
        svg.append(String.format(Locale.ROOT, "<text x='%d' y='%d' text-anchor='middle' font-size='11'>%s</text>%n",
                LEFT + (WIDTH - LEFT - RIGHT) / 2, TOP + plotH + 32, Html.escape(xLabel)));
        svg.append(String.format(Locale.ROOT,
                "<text x='14' y='%d' text-anchor='middle' font-size='11' transform='rotate(-90 14 %d)'>%s</text>%n",
                TOP + plotH / 2, TOP + plotH / 2, Html.escape(yLabel)));
    }

    /** The smallest 1, 2 or 5 times a power of ten at or above {@code v} (at least 1). */
    static double niceCeiling(double v) {
        if (v <= 1) {
            return 1;
        }
        double magnitude = Math.pow(10, Math.floor(Math.log10(v)));
        for (double step : new double[] {1, 2, 2.5, 5, 10}) {
            if (step * magnitude >= v) {
                return step * magnitude;
            }
        }
        return 10 * magnitude;
    }

    private static String number(double v) {
        if (v == Math.rint(v)) {
            return String.format(Locale.ROOT, "%,d", (long) v);
        }
        return String.format(Locale.ROOT, "%.2f", v);
    }
}
