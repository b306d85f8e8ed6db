package io.geobroker.benchmarks;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

class RequestCostTest {

    @Test
    void cpu_time_is_user_plus_system_even_when_the_command_name_holds_spaces_and_parentheses() {
        String stat = "28953 (java (Cassandra) x) S 1 28953 28953 0 -1 4194560 152718 0 12 0 4521 873 0 0 20 0 "
                + "97 0 123456 3000000000 250000 18446744073709551615";

        assertThat(RequestCost.cpuTicks(stat)).isEqualTo(4521 + 873);
    }

    @Test
    void the_idle_while_is_taken_off_before_dividing_by_the_requests() {
        // 600 ticks (6 s of CPU) measured, 200 of them idle, over 2,000 requests: 2 ms each
        assertThat(RequestCost.millisPerRequest(600, 200, 2_000)).isCloseTo(2.0, within(1e-9));
    }

    @Test
    void every_shape_batches_no_more_partitions_than_statements() {
        assertThat(RequestCost.SHAPES).allSatisfy(s -> assertThat(s.partitions()).isBetween(1, s.statements()));
        assertThat(RequestCost.SHAPES).filteredOn(s -> s.statements() == 1).allSatisfy(s -> assertThat(s.logged()).isFalse());
        assertThat(RequestCost.SHAPES).extracting(RequestCost.Shape::name).doesNotHaveDuplicates();
    }
}
