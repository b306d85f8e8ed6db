package io.geobroker.stack.wan;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class WanStatusTest {

    @Test
    void the_bytes_carried_each_way_are_read_from_the_forwarders_status() {
        String status = "sydney-nvirginia=up dropped-to-sydney=0 dropped-to-nvirginia=3 "
                + "carried-sydney-to-nvirginia=1200 carried-nvirginia-to-sydney=34";

        assertThat(WanEmulator.carriedIn(status))
                .containsExactlyInAnyOrderEntriesOf(java.util.Map.of("sydney->nvirginia", 1200L, "nvirginia->sydney", 34L));
    }

    @Test
    void region_names_with_dashes_and_a_status_without_counts() {
        assertThat(WanEmulator.carriedIn("carried-wanit-west-to-wanit-east=7"))
                .containsExactlyEntriesOf(java.util.Map.of("wanit-west->wanit-east", 7L));
        assertThat(WanEmulator.carriedIn("a-b=cut dropped-to-a=0")).isEmpty();
    }
}
