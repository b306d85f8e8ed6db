package io.geobroker.loadgen.driver;

import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * One histogram a broker exposes on {@code /actuator/prometheus} (a Micrometer timer with a
 * percentile histogram): cumulative bucket counts by upper bound, count, sum and the recent maximum.
 * The load generator reads it before and after a run to report what only the broker can measure,
 * such as the time from an order's placement in one region to it being matchable in its home region.
 */
public record BrokerHistogram(TreeMap<Double, Double> buckets, double count, double sumSeconds, double maxSeconds) {

    /** The histogram {@code name} (without suffix) summed over its label sets; empty if absent. */
    public static Optional<BrokerHistogram> parse(String prometheusText, String name) {
        return parse(prometheusText, name, null, null);
    }

    /**
     * The histogram {@code name} summed over the label sets whose {@code labelKey} is
     * {@code labelValue} (all label sets when {@code labelKey} is null); empty if absent.
     */
    public static Optional<BrokerHistogram> parse(String prometheusText, String name, String labelKey, String labelValue) {
        TreeMap<Double, Double> buckets = new TreeMap<>();
        double count = 0;
        double sum = 0;
        double max = 0;
        boolean found = false;
        for (String line : prometheusText.split("\n")) {
            if (line.startsWith("#") || !line.startsWith(name + "_")) {
                continue;
            }
            int space = line.lastIndexOf(' ');
            if (space < 0) {
                continue;
            }
            double value;
            try {
                value = Double.parseDouble(line.substring(space + 1).trim());
            } catch (NumberFormatException e) {
                continue;
            }
            String metric = line.substring(0, space);
            if (labelKey != null && !labelValue.equals(label(metric, labelKey))) {
                continue;
            }
            String suffix = metric.substring(name.length() + 1, metric.contains("{") ? metric.indexOf('{') : metric.length());
            switch (suffix) {
                case "bucket" -> {
                    String le = label(metric, "le");
                    if (le != null) {
                        double bound = le.equals("+Inf") ? Double.POSITIVE_INFINITY : Double.parseDouble(le);
                        buckets.merge(bound, value, Double::sum);
                        found = true;
                    }
                }
                case "count" -> {
                    count += value;
                    found = true;
                }
                case "sum" -> sum += value;
                case "max" -> max = Math.max(max, value);
                default -> {
                }
            }
        }
        return found ? Optional.of(new BrokerHistogram(buckets, count, sum, max)) : Optional.empty();
    }

    /**
     * What histogram {@code name} recorded between two pages (summed over its label sets); empty
     * unless both pages have it.
     */
    public static Optional<BrokerHistogram> between(String before, String after, String name) {
        return parse(after, name).flatMap(a -> parse(before, name).map(a::minus));
    }

    /** What was recorded between {@code before} and this reading (the maximum is the broker's recent one). */
    public BrokerHistogram minus(BrokerHistogram before) {
        TreeMap<Double, Double> diff = new TreeMap<>();
        buckets.forEach((bound, n) -> diff.put(bound, n - before.buckets.getOrDefault(bound, 0.0)));
        return new BrokerHistogram(diff, count - before.count, sumSeconds - before.sumSeconds, maxSeconds);
    }

    /** The smallest bucket bound below which at least {@code quantile} of the observations fall. */
    public double upperBoundSeconds(double quantile) {
        double wanted = quantile * count;
        for (Map.Entry<Double, Double> e : buckets.entrySet()) {
            if (e.getValue() >= wanted) {
                return e.getKey();
            }
        }
        return Double.POSITIVE_INFINITY;
    }

    /** One line for the report: count, mean, p50 and p99 (as bucket bounds) and the maximum, in ms. */
    public String describe() {
        if (count <= 0) {
            return "none";
        }
        return String.format(Locale.ROOT, "%d orders, mean %.1f ms, p50 <= %.1f ms, p99 <= %.1f ms, max %.1f ms",
                Math.round(count), sumSeconds / count * 1000, upperBoundSeconds(0.5) * 1000,
                upperBoundSeconds(0.99) * 1000, maxSeconds * 1000);
    }

    /** Reads a broker's Prometheus page; empty if it does not answer in time. */
    public static Optional<String> scrape(HttpClient http, String brokerUrl, Duration timeout) {
        return get(http, URI.create(brokerUrl + "/actuator/prometheus"), timeout);
    }

    /**
     * Reads only the metrics {@code names} of a broker's Prometheus page ({@code includedNames}):
     * rendering the whole page (about a thousand lines) takes a broker's CPU in a burst that shows
     * in the latency of the fills it commits meanwhile.
     */
    public static Optional<String> scrape(HttpClient http, String brokerUrl, Duration timeout, List<String> names) {
        return get(http, scrapeUri(brokerUrl, names), timeout);
    }

    static URI scrapeUri(String brokerUrl, List<String> names) {
        if (names.isEmpty()) {
            throw new IllegalArgumentException("no metric names to read");
        }
        return URI.create(brokerUrl + "/actuator/prometheus?includedNames="
                + URLEncoder.encode(String.join(",", names), StandardCharsets.UTF_8));
    }

    private static Optional<String> get(HttpClient http, URI uri, Duration timeout) {
        try {
            HttpResponse<String> r = http.send(HttpRequest.newBuilder(uri).timeout(timeout).GET().build(),
                    HttpResponse.BodyHandlers.ofString());
            return r.statusCode() == 200 ? Optional.of(r.body()) : Optional.empty();
        } catch (IOException | IllegalArgumentException e) {
            return Optional.empty();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Optional.empty();
        }
    }

    private static String label(String metric, String key) {
        int at = metric.indexOf("{" + key + "=\"");
        if (at < 0) {
            at = metric.indexOf("," + key + "=\"");
        }
        if (at < 0) {
            return null;
        }
        int start = at + key.length() + 3;
        int end = metric.indexOf('"', start);
        return end < 0 ? null : metric.substring(start, end);
    }
}
