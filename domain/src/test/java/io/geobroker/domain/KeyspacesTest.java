package io.geobroker.domain;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class KeyspacesTest {

    @Test
    void a_dcs_keyspace_is_the_keyspace_and_the_dcs_name_in_lower_case() {
        assertThat(Keyspaces.ofDataCenter("geobroker", "NorthVirginiaDC")).isEqualTo("geobroker_northvirginiadc");
        assertThat(Keyspaces.ofDataCenter("geobroker", "ap-southeast-2")).isEqualTo("geobroker_ap_southeast_2");
        assertThat(Keyspaces.ofDataCenter("GeoBroker", "dc1.a")).isEqualTo("geobroker_dc1_a");
    }

    @Test
    void a_name_too_long_is_cut_and_ends_with_a_hash_of_the_whole() {
        String keyspace = "it_a_test_class_with_a_long_name_of_its_own_x";
        String sydney = Keyspaces.ofDataCenter(keyspace, "SydneyDC");
        String virginia = Keyspaces.ofDataCenter(keyspace, "NorthVirginiaDC");
        assertThat(sydney).hasSize(Keyspaces.MAX_LENGTH).startsWith(keyspace.substring(0, 39)).matches(".*_[0-9a-f]{8}");
        assertThat(virginia).hasSize(Keyspaces.MAX_LENGTH).isNotEqualTo(sydney);
        assertThat(Keyspaces.ofDataCenter(keyspace, "SydneyDC")).isEqualTo(sydney);
    }

    @Test
    void a_keyspace_and_a_dc_are_needed() {
        assertThatThrownBy(() -> Keyspaces.ofDataCenter("", "SydneyDC")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> Keyspaces.ofDataCenter("geobroker", " ")).isInstanceOf(IllegalArgumentException.class);
    }
}
