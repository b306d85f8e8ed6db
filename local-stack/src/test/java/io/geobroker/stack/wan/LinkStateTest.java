package io.geobroker.stack.wan;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class LinkStateTest {

    @Test
    void a_cut_applies_to_both_directions_of_one_link_only() {
        LinkState links = new LinkState(3);

        links.set(0, 2, true);

        assertThat(links.isCut(0, 2)).isTrue();
        assertThat(links.isCut(2, 0)).isTrue();
        assertThat(links.isCut(0, 1)).isFalse();
        assertThat(links.isCut(1, 2)).isFalse();
    }

    @Test
    void restore_reopens_the_link() {
        LinkState links = new LinkState(2);
        links.set(0, 1, true);

        links.set(1, 0, false);

        assertThat(links.isCut(0, 1)).isFalse();
        assertThat(links.isCut(1, 0)).isFalse();
    }
}
