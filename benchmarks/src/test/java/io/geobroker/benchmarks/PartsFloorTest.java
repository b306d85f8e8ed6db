package io.geobroker.benchmarks;

import org.junit.jupiter.api.Test;

import java.io.ByteArrayInputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class PartsFloorTest {

    @Test
    void a_region_names_its_contact_point_its_dc_and_its_kafka() {
        PartsFloor.Region r = PartsFloor.Region.parse("127.31.1.1/SydneyDC@127.31.1.100:9092");

        assertThat(r.dc()).isEqualTo("SydneyDC");
        assertThat(r.kafka()).isEqualTo("127.31.1.100:9092");
        assertThat(r.contactAddress()).isEqualTo(new InetSocketAddress("127.31.1.1", 9042));
        assertThat(PartsFloor.Region.parse("127.31.2.1:19042/NorthVirginiaDC@k:9092").contactAddress().getPort())
                .isEqualTo(19042);
    }

    @Test
    void a_region_without_its_dc_or_its_kafka_is_refused() {
        assertThatThrownBy(() -> PartsFloor.Region.parse("127.31.1.1@127.31.1.100:9092"))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> PartsFloor.Region.parse("127.31.1.1/SydneyDC@"))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> PartsFloor.Region.parse("127.31.1.1/SydneyDC"))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void processes_keep_their_order_and_refuse_a_missing_pid() {
        assertThat(PartsFloor.processes("kafka=12,cassandra=7")).containsExactly(
                java.util.Map.entry("kafka", 12L), java.util.Map.entry("cassandra", 7L));
        assertThatThrownBy(() -> PartsFloor.processes("kafka")).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void a_steady_rate_counts_only_whole_events_due() {
        assertThat(PartsFloor.due(150, 0)).isZero();
        assertThat(PartsFloor.due(150, 6_000_000)).isZero();      // 0.9 of an order
        assertThat(PartsFloor.due(150, 6_700_000)).isEqualTo(1);  // 1.005
        assertThat(PartsFloor.due(3, 2_000_000_000L)).isEqualTo(6);
    }

    @Test
    void quantiles_are_nearest_rank() {
        long[] sorted = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10};

        assertThat(PartsFloor.quantile(sorted, 0.5)).isEqualTo(5);
        assertThat(PartsFloor.quantile(sorted, 0.99)).isEqualTo(10);
        assertThat(PartsFloor.quantile(sorted, 1.0)).isEqualTo(10);
        assertThat(PartsFloor.quantile(new long[0], 0.5)).isZero();
    }

    @Test
    void samples_past_their_capacity_are_dropped_not_thrown() {
        PartsFloor.Samples s = new PartsFloor.Samples(2);
        s.add(30);
        s.add(10);
        s.add(20);

        assertThat(s.sorted()).containsExactly(10, 30);
    }

    @Test
    void a_response_is_read_to_the_end_of_its_body_and_no_further() throws Exception {
        byte[] two = ("HTTP/1.1 201 Created\r\ncontent-length: 3\r\n\r\nabc"
                + "HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\n\r\n").getBytes(StandardCharsets.US_ASCII);
        ByteArrayInputStream in = new ByteArrayInputStream(two);

        assertThat(PartsFloor.readResponse(in)).isEqualTo(201);
        assertThat(PartsFloor.readResponse(in)).isEqualTo(400);
        assertThatThrownBy(() -> PartsFloor.readResponse(in)).isInstanceOf(java.io.IOException.class);
    }

    @Test
    void a_body_cut_short_is_an_error() {
        byte[] cut = "HTTP/1.1 201 Created\r\nContent-Length: 10\r\n\r\nabc".getBytes(StandardCharsets.US_ASCII);

        assertThatThrownBy(() -> PartsFloor.readResponse(new ByteArrayInputStream(cut)))
                .isInstanceOf(java.io.IOException.class);
    }
}
