package io.geobroker.broker.matching;

import com.datastax.oss.driver.api.core.DefaultConsistencyLevel;
import com.datastax.oss.driver.api.core.servererrors.DefaultWriteType;
import com.datastax.oss.driver.api.core.servererrors.WriteTimeoutException;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class BatchLogBypassTest {

    @Test
    void the_window_is_closed_until_a_batch_log_cannot_be_written() {
        BatchLogBypass bypass = new BatchLogBypass();
        assertThat(bypass.active()).isFalse();

        assertThat(bypass.opensOn(timeout(DefaultWriteType.BATCH))).as("the batch itself timed out: it may be applied")
                .isFalse();
        assertThat(bypass.opensOn(new IllegalStateException("no node"))).isFalse();
        assertThat(bypass.active()).isFalse();

        assertThat(bypass.opensOn(timeout(DefaultWriteType.BATCH_LOG))).isTrue();
        assertThat(bypass.active()).isTrue();
    }

    private static WriteTimeoutException timeout(DefaultWriteType type) {
        return new WriteTimeoutException(null, DefaultConsistencyLevel.TWO, 1, 2, type);
    }
}
