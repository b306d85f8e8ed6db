package io.geobroker.loadgen.driver;

import org.junit.jupiter.api.Test;

import java.util.HashSet;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

class DriverTest {

    @Test
    void each_run_of_a_driver_numbers_its_orders_under_its_own_prefix() {
        assertThat(Driver.clientOrderIdPrefix("lgmkz1", 0)).isEqualTo("lgmkz1");
        Set<String> ids = new HashSet<>();
        for (int run = 0; run < 5; run++) {
            String prefix = Driver.clientOrderIdPrefix("lgmkz1", run);
            assertThat(prefix).startsWith("lgmkz1");
            for (int i = 0; i < 20; i++) {
                ids.add(prefix + "-" + i);
            }
        }
        // a sweep's steps: no two runs' orders share a client order id
        assertThat(ids).hasSize(100);
    }
}
