package io.geobroker.loadgen.driver;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** The engine's commits and ticker waits between two readings of a broker's stage timers. */
class EngineStagesTest {

    /** A page with the four stages; persist and consume as given, match and publish as noise. */
    private static String page(double commits, double persistSum, double persistUnder200ms,
                               double tickers, double consumeSum, double consumeUnder100ms) {
        return """
                # HELP geobroker_engine_stage_seconds Time spent per engine stage
                # TYPE geobroker_engine_stage_seconds histogram
                geobroker_engine_stage_seconds_bucket{region="nvirginia",stage="consume",le="0.1"} %s
                geobroker_engine_stage_seconds_bucket{region="nvirginia",stage="consume",le="0.4"} %s
                geobroker_engine_stage_seconds_bucket{region="nvirginia",stage="consume",le="+Inf"} %s
                geobroker_engine_stage_seconds_count{region="nvirginia",stage="consume"} %s
                geobroker_engine_stage_seconds_sum{region="nvirginia",stage="consume"} %s
                geobroker_engine_stage_seconds_bucket{region="nvirginia",stage="match",le="0.1"} 999.0
                geobroker_engine_stage_seconds_bucket{region="nvirginia",stage="match",le="+Inf"} 999.0
                geobroker_engine_stage_seconds_count{region="nvirginia",stage="match"} 999.0
                geobroker_engine_stage_seconds_sum{region="nvirginia",stage="match"} 99.0
                geobroker_engine_stage_seconds_bucket{region="nvirginia",stage="persist",le="0.2"} %s
                geobroker_engine_stage_seconds_bucket{region="nvirginia",stage="persist",le="0.5"} %s
                geobroker_engine_stage_seconds_bucket{region="nvirginia",stage="persist",le="+Inf"} %s
                geobroker_engine_stage_seconds_count{region="nvirginia",stage="persist"} %s
                geobroker_engine_stage_seconds_sum{region="nvirginia",stage="persist"} %s
                geobroker_engine_stage_seconds_max{region="nvirginia",stage="persist"} 0.45
                """.formatted(consumeUnder100ms, tickers, tickers, tickers, consumeSum,
                persistUnder200ms, commits, commits, commits, persistSum);
    }

    @Test
    void reports_commits_batch_time_and_ticker_wait_of_the_phase_only() {
        String before = page(100, 10, 100, 1_000, 20, 1_000);
        // 120 commits in 60 s taking 24 s (40 under 200 ms, all under 500 ms); 4 800 tickers waiting 1 200 s in all
        String after = page(220, 34, 140, 5_800, 1_220, 2_200);

        EngineStages e = EngineStages.between(before, after, 60).orElseThrow();

        assertThat(e.commits()).isEqualTo(120);
        assertThat(e.tickers()).isEqualTo(4_800);
        assertThat(e.describe()).isEqualTo("2.0 commits/s, logged batch mean 200 ms (p50 <= 500 ms, p99 <= 500 ms), "
                + "waiting on batches 40 % of the time; 80 tickers/s, 40 per commit, each waiting mean 250 ms "
                + "(p50 <= 400 ms) from the consumer to the engine");
    }

    @Test
    void with_writes_under_way_side_by_side_the_engine_waits_only_for_its_wait_stage() {
        // 120 batches taking 24 s in all, while the engine waited 1.2 s of the 60 (its pipeline full)
        String before = page(100, 10, 100, 1_000, 20, 1_000) + waited(3.0);
        String after = page(220, 34, 140, 5_800, 1_220, 2_200) + waited(4.2);

        EngineStages e = EngineStages.between(before, after, 60).orElseThrow();

        assertThat(e.batchSeconds()).isEqualTo(24);
        assertThat(e.waitSeconds()).isCloseTo(1.2, org.assertj.core.data.Offset.offset(1e-9));
        assertThat(e.describe()).startsWith("2.0 commits/s, logged batch mean 200 ms (p50 <= 500 ms, p99 <= 500 ms), "
                + "waiting on batches 2 % of the time;");
    }

    private static String waited(double sum) {
        return """
                geobroker_engine_stage_seconds_bucket{region="nvirginia",stage="wait",le="+Inf"} 10.0
                geobroker_engine_stage_seconds_count{region="nvirginia",stage="wait"} 10.0
                geobroker_engine_stage_seconds_sum{region="nvirginia",stage="wait"} %s
                """.formatted(sum);
    }

    @Test
    void the_statements_of_the_phase_are_shown_per_commit() {
        String before = page(100, 10, 100, 1_000, 20, 1_000) + statements(100, 30_000);
        String after = page(220, 34, 140, 5_800, 1_220, 2_200) + statements(220, 66_000);

        EngineStages e = EngineStages.between(before, after, 60).orElseThrow();

        assertThat(e.statements()).isEqualTo(36_000);
        assertThat(e.describe()).startsWith("2.0 commits/s, logged batch mean 200 ms (p50 <= 500 ms, p99 <= 500 ms) "
                + "of 300 statements on average, waiting on batches 40 % of the time; 80 tickers/s");
    }

    @Test
    void the_partitions_of_the_phase_are_shown_per_commit_beside_the_statements() {
        String before = page(100, 10, 100, 1_000, 20, 1_000) + statements(100, 30_000) + partitions(100, 4_000);
        String after = page(220, 34, 140, 5_800, 1_220, 2_200) + statements(220, 66_000) + partitions(220, 10_000);

        EngineStages e = EngineStages.between(before, after, 60).orElseThrow();

        assertThat(e.partitions()).isEqualTo(6_000);
        assertThat(e.mutations()).isEqualTo(6_000);
        assertThat(e.describe()).startsWith("2.0 commits/s, logged batch mean 200 ms (p50 <= 500 ms, p99 <= 500 ms) "
                + "of 300 statements in 50 partitions on average, waiting on batches 40 % of the time");
    }

    @Test
    void the_tickers_way_to_the_consumer_is_shown_before_their_wait_for_the_engine() {
        String before = page(100, 10, 100, 1_000, 20, 1_000) + deliveries(1_000, 5, 900);
        // 4 800 tickers delivered in 33.6 s in all (7 ms each), 4 000 of them within 5 ms
        String after = page(220, 34, 140, 5_800, 1_220, 2_200) + deliveries(5_800, 38.6, 4_900);

        EngineStages e = EngineStages.between(before, after, 60).orElseThrow();

        assertThat(e.deliveries().count()).isEqualTo(4_800);
        assertThat(e.describe()).endsWith("; 80 tickers/s, 40 per commit, each delivered mean 7.0 ms (p50 <= 5.0 ms) "
                + "from its exchange time to the consumer, then waiting mean 250 ms (p50 <= 400 ms) from the consumer "
                + "to the engine");
    }

    /** The broker's ticker delivery timer as Micrometer writes it for Prometheus. */
    private static String deliveries(double tickers, double sumSeconds, double within5ms) {
        return """
                # HELP geobroker_ticker_delivery_seconds Exchange time of a ticker to this broker's consumer receiving it
                # TYPE geobroker_ticker_delivery_seconds histogram
                geobroker_ticker_delivery_seconds_bucket{region="nvirginia",le="0.001"} 0.0
                geobroker_ticker_delivery_seconds_bucket{region="nvirginia",le="0.005"} %s
                geobroker_ticker_delivery_seconds_bucket{region="nvirginia",le="0.05"} %s
                geobroker_ticker_delivery_seconds_bucket{region="nvirginia",le="+Inf"} %s
                geobroker_ticker_delivery_seconds_count{region="nvirginia"} %s
                geobroker_ticker_delivery_seconds_sum{region="nvirginia"} %s
                geobroker_ticker_delivery_seconds_max{region="nvirginia"} 0.04
                """.formatted(within5ms, tickers, tickers, tickers, sumSeconds);
    }

    /** The engine's partitions-per-group summary as Micrometer writes it for Prometheus. */
    private static String partitions(double groups, double sum) {
        return """
                # HELP geobroker_engine_group_partitions Partitions (Cassandra mutations) one group commit writes
                # TYPE geobroker_engine_group_partitions summary
                geobroker_engine_group_partitions_count{region="nvirginia"} %s
                geobroker_engine_group_partitions_sum{region="nvirginia"} %s
                """.formatted(groups, sum);
    }

    /** The engine's statements-per-group summary as Micrometer writes it for Prometheus. */
    private static String statements(double groups, double sum) {
        return """
                # HELP geobroker_engine_group_statements CQL statements one group commit writes
                # TYPE geobroker_engine_group_statements summary
                geobroker_engine_group_statements_count{region="nvirginia"} %s
                geobroker_engine_group_statements_sum{region="nvirginia"} %s
                # HELP geobroker_engine_group_statements_max CQL statements one group commit writes
                # TYPE geobroker_engine_group_statements_max gauge
                geobroker_engine_group_statements_max{region="nvirginia"} 2400.0
                """.formatted(groups, sum);
    }

    @Test
    void the_other_stages_do_not_count() {
        EngineStages e = EngineStages.between(page(0, 0, 0, 0, 0, 0), page(10, 1, 10, 0, 0, 0), 10).orElseThrow();

        assertThat(e.batchSeconds()).isEqualTo(1);
        assertThat(e.describe()).isEqualTo("1.0 commits/s, logged batch mean 100 ms (p50 <= 200 ms, p99 <= 200 ms), "
                + "waiting on batches 10 % of the time");
    }

    /** The engine's projection meters as Micrometer writes them for Prometheus. */
    private static String projection(double rounds, double partitions, double statements, double dropped) {
        return """
                # TYPE geobroker_engine_projection_seconds summary
                geobroker_engine_projection_seconds_count{region="nvirginia"} %s
                geobroker_engine_projection_seconds_sum{region="nvirginia"} 1.5
                geobroker_engine_projection_partitions_count{region="nvirginia"} %s
                geobroker_engine_projection_partitions_sum{region="nvirginia"} %s
                geobroker_engine_projection_statements_count{region="nvirginia"} %s
                geobroker_engine_projection_statements_sum{region="nvirginia"} %s
                # TYPE geobroker_engine_projection_dropped_total counter
                geobroker_engine_projection_dropped_total{region="nvirginia"} %s
                """.formatted(rounds, rounds, partitions, rounds, statements, dropped);
    }

    @Test
    void projection_rounds_are_reported_with_what_they_wrote_and_dropped() {
        String before = page(0, 0, 0, 0, 0, 0) + projection(4, 40, 400, 100);
        String after = page(10, 1, 10, 0, 0, 0) + projection(24, 240, 2_400, 2_100);

        EngineStages e = EngineStages.between(before, after, 10).orElseThrow();

        assertThat(e.projected()).isEqualTo(new EngineStages.Projected(20, 200, 2_000, 2_000));
        assertThat(e.mutations()).isEqualTo(200);
        assertThat(e.describe()).endsWith("; symbol rows projected 2.0 times/s, 10 partitions and 100 statements a round, "
                + "50 % of the logged statements not written (overwritten or deleted later)");
    }

    @Test
    void log_slots_in_the_dcs_own_keyspace_are_not_counted_as_mutations_other_dcs_receive() {
        String before = page(100, 10, 100, 1_000, 20, 1_000) + partitions(100, 100) + projection(4, 40, 400, 100)
                + unreplicated(90);
        String after = page(220, 34, 140, 5_800, 1_220, 2_200) + partitions(220, 230) + projection(24, 240, 2_400, 2_100)
                + unreplicated(200);

        EngineStages e = EngineStages.between(before, after, 60).orElseThrow();

        assertThat(e.partitions()).isEqualTo(130);
        assertThat(e.unreplicated()).isEqualTo(110);
        assertThat(e.mutations()).as("130 groups' partitions less 110 slots, and 200 projected").isEqualTo(220);
    }

    /** The engine's counter of its groups' partitions in its DC's own keyspace, as Micrometer writes it. */
    private static String unreplicated(double slots) {
        return """
                # TYPE geobroker_engine_group_unreplicated_partitions_total counter
                geobroker_engine_group_unreplicated_partitions_total{region="nvirginia"} %s
                """.formatted(slots);
    }

    @Test
    void nothing_committed_or_nothing_to_read_says_so() {
        String idle = page(5, 1, 5, 50, 1, 50);
        assertThat(EngineStages.between(idle, idle, 60).orElseThrow().describe()).isEqualTo("no group committed");
        assertThat(EngineStages.between("geobroker_orders_resting 3.0\n", idle, 60)).isEmpty();
        assertThat(EngineStages.between(idle, idle, 0)).isEmpty();
    }
}
