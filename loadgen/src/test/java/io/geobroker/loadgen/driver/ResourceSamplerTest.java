package io.geobroker.loadgen.driver;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

public class ResourceSamplerTest {

    @Test
    void consumer_lag_is_the_largest_records_lag_max_of_the_brokers_consumers() {
        String page = """
                # HELP kafka_consumer_fetch_manager_records_lag_max The maximum lag in terms of number of records
                # TYPE kafka_consumer_fetch_manager_records_lag_max gauge
                kafka_consumer_fetch_manager_records_lag_max{client_id="consumer-geobroker-sydney-1",kafka_version="4.3.1",} 12.0
                kafka_consumer_fetch_manager_records_lag_max{client_id="consumer-geobroker-sydney-1",partition="0",topic="tickers.ASX",} 37.0
                kafka_consumer_fetch_manager_records_lag_max{client_id="consumer-geobroker-sydney-2",kafka_version="4.3.1",} NaN
                kafka_consumer_fetch_manager_records_lag_max_other 999.0
                kafka_consumer_fetch_manager_records_lag{client_id="consumer-geobroker-sydney-1",} 500.0
                """;

        assertThat(ResourceSampler.gaugeMax(page, ResourceSampler.RECORDS_LAG_MAX)).hasValue(37.0);
    }

    @Test
    void a_page_without_the_gauge_or_with_only_nan_gives_none() {
        assertThat(ResourceSampler.gaugeMax("jvm_threads_live_threads 40.0\n", ResourceSampler.RECORDS_LAG_MAX)).isEmpty();
        assertThat(ResourceSampler.gaugeMax("kafka_consumer_fetch_manager_records_lag_max{client_id=\"c\",} NaN\n",
                ResourceSampler.RECORDS_LAG_MAX)).isEmpty();
    }
}
