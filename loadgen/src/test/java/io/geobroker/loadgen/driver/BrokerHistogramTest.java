package io.geobroker.loadgen.driver;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

/** Reading a broker's Prometheus histogram and the difference between two readings. */
class BrokerHistogramTest {

    private static final String NAME = "geobroker_inbox_accept_lag_seconds";

    private static String page(double b1, double b2, double inf, double sum, double max) {
        return """
                # HELP geobroker_inbox_accept_lag_seconds Placement elsewhere to matchable here
                # TYPE geobroker_inbox_accept_lag_seconds histogram
                geobroker_inbox_accept_lag_seconds_bucket{region="nvirginia",le="0.1"} %s
                geobroker_inbox_accept_lag_seconds_bucket{region="nvirginia",le="0.2"} %s
                geobroker_inbox_accept_lag_seconds_bucket{region="nvirginia",le="+Inf"} %s
                geobroker_inbox_accept_lag_seconds_count{region="nvirginia"} %s
                geobroker_inbox_accept_lag_seconds_sum{region="nvirginia"} %s
                geobroker_inbox_accept_lag_seconds_max{region="nvirginia"} %s
                geobroker_orders_resting{region="nvirginia"} 12.0
                """.formatted(b1, b2, inf, inf, sum, max);
    }

    @Test
    void parses_buckets_count_sum_and_max() {
        BrokerHistogram h = BrokerHistogram.parse(page(2, 8, 10, 1.5, 0.31), NAME).orElseThrow();

        assertThat(h.count()).isEqualTo(10);
        assertThat(h.sumSeconds()).isEqualTo(1.5);
        assertThat(h.maxSeconds()).isEqualTo(0.31);
        assertThat(h.upperBoundSeconds(0.2)).isEqualTo(0.1);
        assertThat(h.upperBoundSeconds(0.5)).isEqualTo(0.2);
        assertThat(h.upperBoundSeconds(0.99)).isInfinite();
    }

    @Test
    void the_difference_of_two_readings_holds_only_what_happened_between_them() {
        BrokerHistogram before = BrokerHistogram.parse(page(2, 8, 10, 1.5, 0.31), NAME).orElseThrow();
        BrokerHistogram after = BrokerHistogram.parse(page(2, 18, 20, 3.0, 0.18), NAME).orElseThrow();

        BrokerHistogram run = after.minus(before);

        assertThat(run.count()).isEqualTo(10);
        assertThat(run.sumSeconds()).isCloseTo(1.5, within(1e-9));
        assertThat(run.upperBoundSeconds(0.5)).isEqualTo(0.2);
        assertThat(run.describe()).isEqualTo("10 orders, mean 150.0 ms, p50 <= 200.0 ms, p99 <= 200.0 ms, max 180.0 ms");
    }

    @Test
    void a_page_without_the_histogram_gives_nothing() {
        assertThat(BrokerHistogram.parse("geobroker_orders_resting 3.0\n", NAME)).isEmpty();
        assertThat(BrokerHistogram.parse(page(0, 0, 0, 0, 0), NAME).orElseThrow().describe()).isEqualTo("none");
    }

    @Test
    void a_label_selects_its_own_label_sets() {
        String page = """
                geobroker_engine_stage_seconds_count{region="sydney",stage="persist"} 4.0
                geobroker_engine_stage_seconds_sum{region="sydney",stage="persist"} 2.0
                geobroker_engine_stage_seconds_count{region="sydney",stage="consume"} 40.0
                geobroker_engine_stage_seconds_sum{region="sydney",stage="consume"} 8.0
                geobroker_engine_stage_seconds_count{region="sydney",backstage="persist"} 400.0
                """;

        BrokerHistogram persist = BrokerHistogram.parse(page, "geobroker_engine_stage_seconds", "stage", "persist").orElseThrow();
        BrokerHistogram all = BrokerHistogram.parse(page, "geobroker_engine_stage_seconds").orElseThrow();

        assertThat(persist.count()).isEqualTo(4);
        assertThat(persist.sumSeconds()).isEqualTo(2);
        assertThat(all.count()).isEqualTo(444);
        assertThat(BrokerHistogram.parse(page, "geobroker_engine_stage_seconds", "stage", "publish")).isEmpty();
    }

    @Test
    void a_scrape_of_named_metrics_asks_the_broker_for_those_only() {
        assertThat(BrokerHistogram.scrapeUri("http://127.0.1.200:8080",
                List.of("kafka_consumer_fetch_manager_records_lag_max", "jvm_threads_live_threads")).toString())
                .isEqualTo("http://127.0.1.200:8080/actuator/prometheus?includedNames="
                        + "kafka_consumer_fetch_manager_records_lag_max%2Cjvm_threads_live_threads");
        assertThatThrownBy(() -> BrokerHistogram.scrapeUri("http://b", List.of()))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
