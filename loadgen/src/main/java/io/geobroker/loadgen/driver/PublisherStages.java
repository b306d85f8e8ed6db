package io.geobroker.loadgen.driver;

import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What the ticker service did over the measured phase, from two readings of its timers (all
 * exchanges together): how far behind their exchange time it handed tickers to Kafka's producers,
 * and how long Kafka then took to acknowledge them. With the brokers' delivery timer it splits a
 * ticker's way to the broker into the publisher's delay, Kafka's write and the rest (Kafka to the
 * consumer). With a ticker service that reports them, also which regions' tickers lingered at the
 * end (its {@code producer.linger-from}) and how often a region's tickers changed producer.
 */
public record PublisherStages(BrokerHistogram lateness, BrokerHistogram acknowledgements, double elapsedSeconds,
                              Map<String, Boolean> lingeringAtEnd, double switches) {

    /** From a ticker's exchange (scheduled) time to handing it to the producer. */
    public static final String LATENESS = "geobroker_ticker_publish_lateness_seconds";
    /** From handing a ticker to the producer to Kafka's acknowledgement. */
    public static final String SEND = "geobroker_ticker_send_latency_seconds";
    /** Per region: 1 while its tickers go to the lingering producer. */
    static final String LINGERING = "geobroker_ticker_producer_lingering";
    /** Per region: how often its tickers changed producer. */
    static final String SWITCHES = "geobroker_ticker_producer_switches_total";
    private static final Pattern REGION = Pattern.compile("region=\"([^\"]*)\"");

    /** The ticker service's work between two of its Prometheus pages; empty when either lacks the timers. */
    public static Optional<PublisherStages> between(String before, String after, double elapsedSeconds) {
        Optional<BrokerHistogram> lateness = BrokerHistogram.between(before, after, LATENESS);
        Optional<BrokerHistogram> sends = BrokerHistogram.between(before, after, SEND);
        if (lateness.isEmpty() || sends.isEmpty() || elapsedSeconds <= 0) {
            return Optional.empty();
        }
        return Optional.of(new PublisherStages(lateness.get(), sends.get(), elapsedSeconds, lingering(after),
                Math.max(0, EngineStages.counter(after, SWITCHES) - EngineStages.counter(before, SWITCHES))));
    }

    /** Per region of the page, whether its tickers linger (empty for a service without the gauge). */
    static Map<String, Boolean> lingering(String page) {
        Map<String, Boolean> regions = new TreeMap<>();
        for (String line : page.split("\n")) {
            if (line.startsWith(LINGERING + "{")) {
                Matcher region = REGION.matcher(line);
                if (region.find()) {
                    try {
                        double value = Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1).trim());
                        regions.put(region.group(1), value > 0);
                    } catch (NumberFormatException e) {
                        // not a sample line
                    }
                }
            }
        }
        return regions;
    }

    /** One line for the report (times in ms; percentiles as the service's bucket bounds). */
    public String describe() {
        if (lateness.count() <= 0) {
            return "no ticker published";
        }
        StringBuilder line = new StringBuilder(String.format(Locale.ROOT,
                "%.0f tickers/s, each handed to Kafka's producer mean %.1f ms (p50 <= %.1f ms) after its exchange time",
                lateness.count() / elapsedSeconds, mean(lateness), lateness.upperBoundSeconds(0.5) * 1000));
        if (acknowledgements.count() > 0) {
            line.append(String.format(Locale.ROOT, ", then acknowledged by Kafka mean %.1f ms (p50 <= %.1f ms) later",
                    mean(acknowledgements), acknowledgements.upperBoundSeconds(0.5) * 1000));
        }
        if (!lingeringAtEnd.isEmpty()) {
            List<String> lingering = lingeringAtEnd.entrySet().stream()
                    .filter(Map.Entry::getValue).map(Map.Entry::getKey).toList();
            line.append(String.format(Locale.ROOT,
                    "; at the end the tickers of %s lingered, %d producer switches in the phase",
                    lingering.isEmpty() ? "no region" : String.join(", ", lingering), Math.round(switches)));
        }
        return line.toString();
    }

    private static double mean(BrokerHistogram h) {
        return h.sumSeconds() / h.count() * 1000;
    }
}
