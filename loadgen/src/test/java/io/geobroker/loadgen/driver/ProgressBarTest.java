package io.geobroker.loadgen.driver;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class ProgressBarTest {

    @Test
    void draws_the_done_fraction_and_the_status() {
        assertThat(ProgressBar.render(15, 60, "measuring")).isEqualTo("[#######>......................]  25% measuring");
        assertThat(ProgressBar.render(0, 60, "")).startsWith("[>....");
        assertThat(ProgressBar.render(90, 60, "done")).isEqualTo("[##############################] 100% done");
    }
}
