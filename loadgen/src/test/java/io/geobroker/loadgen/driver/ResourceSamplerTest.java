package io.geobroker.loadgen.driver;

import io.geobroker.loadgen.report.Resources;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

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

    @Test
    void a_soak_gets_each_jvms_live_heap_at_its_end_and_a_short_run_does_not() {
        try (ResourceSampler soak = ResourceSampler.start(ResourceSampler.Sources.none(), Map.of(), Duration.ofHours(1),
                60_000, Duration.ofMinutes(30))) {
            Resources resources = soak.finish();
            List<Resources.Series> live = resources.series().stream()
                    .filter(s -> s.quantity().equals(Resources.Quantity.LIVE_HEAP.key())).toList();
            assertThat(live).extracting(Resources.Series::source).containsExactly("load generator");
            assertThat(live.get(0).points()).hasSize(1);
            assertThat(live.get(0).points().get(0)[1]).as("live bytes after a full collection").isPositive();
        }
        try (ResourceSampler shortRun = ResourceSampler.start(ResourceSampler.Sources.none(), Map.of(), Duration.ofHours(1),
                0, Duration.ofSeconds(60))) {
            assertThat(shortRun.finish().series()).noneMatch(s -> s.quantity().equals(Resources.Quantity.LIVE_HEAP.key()));
        }
    }

    @Test
    void everything_is_read_once_before_the_phase_and_that_reading_is_not_recorded() {
        AtomicInteger cassandraReads = new AtomicInteger();
        ResourceSampler.Sources sources = new ResourceSampler.Sources(Map.of(), () -> {
            cassandraReads.incrementAndGet();
            return Map.of("SydneyDC 127.0.1.1", new CassandraCounters.Backlog(0, 0));
        });
        long startMillis = ResourceSampler.FIRST_READ_LEAD.toMillis() + 100;
        try (ResourceSampler sampler = ResourceSampler.start(sources, Map.of(), Duration.ofHours(1), startMillis,
                Duration.ofSeconds(60))) {
            await().atMost(Duration.ofSeconds(4)).until(() -> cassandraReads.get() > 0);
            Resources resources = sampler.finish();
            assertThat(cassandraReads.get()).as("the reading 100 ms in, before the phase").isEqualTo(1);
            assertThat(resources.series()).as("the phase had not started: nothing recorded").isEmpty();
        }
    }

    @Test
    void the_samples_fall_in_the_middle_of_their_intervals_none_as_the_phase_starts() {
        AtomicInteger reads = new AtomicInteger();
        try (ResourceSampler sampler = ResourceSampler.start(counted(reads), Map.of(), Duration.ofSeconds(2), 0,
                Duration.ofSeconds(4))) {
            // the unrecorded reading at once, then the samples at 1 s and 3 s
            await().atMost(Duration.ofSeconds(10)).until(() -> reads.get() >= 3);
            List<long[]> points = rssPoints(sampler.finish());
            assertThat(points).as("the samples at 1 s and 3 s").hasSize(2);
            assertThat(points).allSatisfy(p -> assertThat(p[0]).as("ms into the phase").isBetween(1_000L, 4_000L));
        }
    }

    @Test
    void a_phase_shorter_than_the_interval_gets_its_one_sample_in_its_middle() {
        AtomicInteger reads = new AtomicInteger();
        try (ResourceSampler sampler = ResourceSampler.start(counted(reads), Map.of(), Duration.ofSeconds(4), 0,
                Duration.ofSeconds(2))) {
            // the unrecorded reading at once, the sample 2 s in, and none 6 s in
            await().atMost(Duration.ofSeconds(10)).until(() -> reads.get() == 2);
            await().during(Duration.ofMillis(4_500)).atMost(Duration.ofSeconds(6)).until(() -> reads.get() == 2);
            List<long[]> points = rssPoints(sampler.finish());
            assertThat(points).as("one sample").hasSize(1);
            assertThat(points.get(0)[0]).as("ms into the phase, at most its end").isEqualTo(2_000L);
        }
    }

    /** Sources whose Cassandra backlog counts each reading. */
    private static ResourceSampler.Sources counted(AtomicInteger reads) {
        return new ResourceSampler.Sources(Map.of(), () -> {
            reads.incrementAndGet();
            return Map.of();
        });
    }

    private static List<long[]> rssPoints(Resources resources) {
        return resources.series().stream()
                .filter(s -> s.quantity().equals(Resources.Quantity.RSS.key()))
                .findFirst().orElseThrow().points();
    }
}
