package io.geobroker.loadgen.driver;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.net.ConnectException;
import java.net.http.HttpTimeoutException;
import java.util.concurrent.CompletionException;

import static org.assertj.core.api.Assertions.assertThat;

class OrderPlacerTest {

    @Test
    void names_why_an_order_failed_by_the_cause_inside_the_completion() {
        assertThat(OrderPlacer.errorCause(new CompletionException(new HttpTimeoutException("no answer")), null))
                .isEqualTo("timeout");
        assertThat(OrderPlacer.errorCause(new CompletionException(new ConnectException("refused")), null))
                .isEqualTo("connect");
        assertThat(OrderPlacer.errorCause(new IOException("reset"), null)).isEqualTo("io");
        assertThat(OrderPlacer.errorCause(new IllegalStateException("closed"), null)).isEqualTo("IllegalStateException");
    }

    @Test
    void an_answer_without_an_exception_is_named_by_its_status() {
        assertThat(OrderPlacer.errorCause(null, new BrokerClient.Answer(503, null))).isEqualTo("http-503");
    }
}
