package io.geobroker.broker.matching;

import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class BatchWriterTest {

    @Test
    void statements_are_cut_into_consecutive_batches_of_at_most_the_limit() {
        List<Integer> sizes = List.of(10, 20, 30, 40, 5, 5);

        assertThat(BatchWriter.chunks(sizes, Integer::intValue, 60))
                .containsExactly(List.of(10, 20, 30), List.of(40, 5, 5));
    }

    @Test
    void a_statement_larger_than_the_limit_is_a_batch_of_its_own() {
        assertThat(BatchWriter.chunks(List.of(10, 100, 10), Integer::intValue, 50))
                .containsExactly(List.of(10), List.of(100), List.of(10));
    }

    @Test
    void a_batch_may_fill_the_limit_exactly() {
        assertThat(BatchWriter.chunks(List.of(25, 25, 1), Integer::intValue, 50))
                .containsExactly(List.of(25, 25), List.of(1));
    }

    @Test
    void no_statements_make_no_batches() {
        assertThat(BatchWriter.chunks(List.<Integer>of(), Integer::intValue, 50)).isEmpty();
    }

    @Test
    void statements_are_grouped_by_partition_in_the_order_each_partition_first_appears() {
        // "customer:row": the partition key is the part before the colon
        List<String> statements = List.of("bob:cash", "ann:order", "bob:holding", "IBM:state", "ann:fill", "bob:fill");

        assertThat(BatchWriter.byPartition(statements,
                s -> ByteBuffer.wrap(s.substring(0, s.indexOf(':')).getBytes(StandardCharsets.UTF_8))))
                .containsExactly(List.of("bob:cash", "bob:holding", "bob:fill"), List.of("ann:order", "ann:fill"),
                        List.of("IBM:state"));
    }
}
