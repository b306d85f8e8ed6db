package io.geobroker.loadgen.driver;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** The ticker service's delay and Kafka's acknowledgements between two readings of its timers. */
class PublisherStagesTest {

    /** A page of the service's two timers for one exchange: count, sum and how many within 2 ms. */
    private static String page(String exchange, double tickers, double latenessSum, double lateWithin2ms,
                               double ackSum, double ackedWithin2ms) {
        return """
                geobroker_ticker_publish_lateness_seconds_bucket{exchange="%1$s",region="nvirginia",le="0.002"} %4$s
                geobroker_ticker_publish_lateness_seconds_bucket{exchange="%1$s",region="nvirginia",le="0.05"} %2$s
                geobroker_ticker_publish_lateness_seconds_bucket{exchange="%1$s",region="nvirginia",le="+Inf"} %2$s
                geobroker_ticker_publish_lateness_seconds_count{exchange="%1$s",region="nvirginia"} %2$s
                geobroker_ticker_publish_lateness_seconds_sum{exchange="%1$s",region="nvirginia"} %3$s
                geobroker_ticker_send_latency_seconds_bucket{exchange="%1$s",region="nvirginia",le="0.002"} %6$s
                geobroker_ticker_send_latency_seconds_bucket{exchange="%1$s",region="nvirginia",le="0.05"} %2$s
                geobroker_ticker_send_latency_seconds_bucket{exchange="%1$s",region="nvirginia",le="+Inf"} %2$s
                geobroker_ticker_send_latency_seconds_count{exchange="%1$s",region="nvirginia"} %2$s
                geobroker_ticker_send_latency_seconds_sum{exchange="%1$s",region="nvirginia"} %5$s
                """.formatted(exchange, tickers, latenessSum, lateWithin2ms, ackSum, ackedWithin2ms);
    }

    @Test
    void reports_the_phase_over_all_exchanges() {
        String before = page("NYSE", 1_000, 1, 1_000, 2, 1_000) + page("NASDAQ", 1_000, 1, 1_000, 2, 1_000);
        // 6 000 tickers in 60 s: handed over 18 s late in all (3 ms each), acknowledged 60 s later in all (10 ms each);
        // 4 000 handed over within 2 ms, 2 000 acknowledged within 2 ms
        String after = page("NYSE", 4_000, 10, 3_000, 32, 2_000) + page("NASDAQ", 4_000, 10, 3_000, 32, 2_000);

        PublisherStages p = PublisherStages.between(before, after, 60).orElseThrow();

        assertThat(p.lateness().count()).isEqualTo(6_000);
        assertThat(p.describe()).isEqualTo("100 tickers/s, each handed to Kafka's producer mean 3.0 ms (p50 <= 2.0 ms) "
                + "after its exchange time, then acknowledged by Kafka mean 10.0 ms (p50 <= 50.0 ms) later");
    }

    @Test
    void names_the_regions_whose_tickers_lingered_at_the_end_and_counts_the_switches() {
        String timers = page("ASX", 1_000, 1, 1_000, 2, 1_000);
        String before = timers + """
                geobroker_ticker_producer_lingering{region="nvirginia"} 0.0
                geobroker_ticker_producer_lingering{region="sydney"} 0.0
                geobroker_ticker_producer_switches_total{region="nvirginia"} 1.0
                geobroker_ticker_producer_switches_total{region="sydney"} 0.0
                """;
        String after = page("ASX", 7_000, 7, 7_000, 14, 7_000) + """
                geobroker_ticker_producer_lingering{region="nvirginia"} 1.0
                geobroker_ticker_producer_lingering{region="sydney"} 0.0
                geobroker_ticker_producer_switches_total{region="nvirginia"} 4.0
                geobroker_ticker_producer_switches_total{region="sydney"} 2.0
                """;

        PublisherStages p = PublisherStages.between(before, after, 60).orElseThrow();

        assertThat(p.lingeringAtEnd()).containsEntry("nvirginia", true).containsEntry("sydney", false).hasSize(2);
        assertThat(p.describe()).endsWith("; at the end the tickers of nvirginia lingered, 5 producer switches in the phase");
        assertThat(PublisherStages.between(timers, page("ASX", 7_000, 7, 7_000, 14, 7_000), 60).orElseThrow().describe())
                .as("a service without the gauge").doesNotContain("linger");
    }

    @Test
    void an_idle_service_or_a_page_without_the_timers_says_so() {
        String idle = page("ASX", 10, 1, 10, 1, 10);
        assertThat(PublisherStages.between(idle, idle, 60).orElseThrow().describe()).isEqualTo("no ticker published");
        assertThat(PublisherStages.between("geobroker_ticker_published_total 3.0\n", idle, 60)).isEmpty();
        assertThat(PublisherStages.between(idle, idle, 0)).isEmpty();
    }
}
