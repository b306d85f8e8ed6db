package io.geobroker.broker.matching;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** When the engine commits the group it is building: the commit interval, or the shorter one for fills. */
class CommitDueTest {

    private static final long MS = 1_000_000;

    @Test
    void a_group_without_a_fill_waits_the_commit_interval_from_the_last_start() {
        assertThat(Engine.dueNanos(5_000 * MS, false, 10 * MS, 2 * MS)).isEqualTo(5_010 * MS);
    }

    @Test
    void a_group_holding_a_fill_waits_only_the_fill_commit_interval() {
        assertThat(Engine.dueNanos(5_000 * MS, true, 10 * MS, 2 * MS)).isEqualTo(5_002 * MS);
        assertThat(Engine.dueNanos(5_000 * MS, true, 10 * MS, 0)).isEqualTo(5_000 * MS);
    }

    @Test
    void a_fill_never_waits_longer_than_the_commit_interval() {
        assertThat(Engine.dueNanos(5_000 * MS, true, 10 * MS, 50 * MS)).isEqualTo(5_010 * MS);
    }

    @Test
    void works_across_the_sign_change_of_nano_time() {
        assertThat(Engine.dueNanos(Long.MAX_VALUE - MS, true, 10 * MS, 2 * MS) - (Long.MAX_VALUE - MS)).isEqualTo(2 * MS);
    }
}
