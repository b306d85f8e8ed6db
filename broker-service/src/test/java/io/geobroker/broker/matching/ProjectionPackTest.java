package io.geobroker.broker.matching;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class ProjectionPackTest {

    private static List<List<String>> partitions(int count, int statementsEach) {
        List<List<String>> chunks = new ArrayList<>();
        for (int p = 0; p < count; p++) {
            List<String> chunk = new ArrayList<>();
            for (int s = 0; s < statementsEach; s++) {
                chunk.add("p" + p + "s" + s);
            }
            chunks.add(chunk);
        }
        return chunks;
    }

    @Test
    void a_round_of_twenty_one_partitions_goes_ten_partitions_to_a_request() {
        List<List<String>> batches = Projection.pack(partitions(21, 3), s -> 100, 40_960, 10);

        assertThat(batches).extracting(List::size).containsExactly(30, 30, 3);
        assertThat(batches.get(0)).startsWith("p0s0", "p0s1", "p0s2", "p1s0").endsWith("p9s2");
        assertThat(batches.get(2)).containsExactly("p20s0", "p20s1", "p20s2");
    }

    @Test
    void a_batch_stays_within_the_byte_limit_and_a_partition_is_never_split_between_batches() {
        // 4 partitions of 3 statements of 100 bytes: 300 bytes each, 700 allowed: two to a batch
        List<List<String>> batches = Projection.pack(partitions(4, 3), s -> 100, 700, 10);

        assertThat(batches).extracting(List::size).containsExactly(6, 6);
        assertThat(batches.get(1)).allMatch(s -> s.startsWith("p2") || s.startsWith("p3"));
    }

    @Test
    void a_chunk_larger_than_the_limit_still_goes_alone_and_nothing_is_lost() {
        List<List<String>> chunks = List.of(List.of("small"), List.of("huge"), List.of("tail"));
        List<List<String>> batches = Projection.pack(chunks, s -> s.equals("huge") ? 50_000 : 10, 40_960, 10);

        assertThat(batches).containsExactly(List.of("small"), List.of("huge"), List.of("tail"));
        assertThat(Projection.pack(List.<List<String>>of(), s -> 1, 10, 10)).isEmpty();
    }

    @Test
    void one_partition_to_a_request_is_what_it_was() {
        assertThat(Projection.pack(partitions(3, 2), s -> 1, 40_960, 1)).extracting(List::size).containsExactly(2, 2, 2);
    }
}
