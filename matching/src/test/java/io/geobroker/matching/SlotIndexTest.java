package io.geobroker.matching;

import org.junit.jupiter.api.Test;

import java.util.HashMap;
import java.util.Map;
import java.util.SplittableRandom;

import static org.assertj.core.api.Assertions.assertThat;

class SlotIndexTest {

    @Test
    void agrees_with_a_hash_map_through_random_puts_and_removes_and_growth() {
        SplittableRandom random = new SplittableRandom(7);
        int slots = 4_096;
        long[] ids = new long[slots];
        boolean[] inUse = new boolean[slots];
        SlotIndex index = new SlotIndex(16);
        Map<Long, Integer> expected = new HashMap<>();

        for (int step = 0; step < 200_000; step++) {
            int slot = random.nextInt(slots);
            if (inUse[slot]) {
                assertThat(index.remove(ids[slot], ids)).isEqualTo(slot);
                expected.remove(ids[slot]);
                inUse[slot] = false;
            } else {
                // Few distinct ids in a small range force long probe chains and wrap-arounds.
                long id = random.nextInt(3) == 0 ? random.nextLong() : random.nextInt(20_000);
                if (expected.containsKey(id)) {
                    assertThat(index.get(id, ids)).isEqualTo(expected.get(id));
                    continue;
                }
                assertThat(index.get(id, ids)).isEqualTo(-1);
                ids[slot] = id;
                index.put(slot, ids);
                expected.put(id, slot);
                inUse[slot] = true;
            }
            assertThat(index.size()).isEqualTo(expected.size());
        }
        for (Map.Entry<Long, Integer> entry : expected.entrySet()) {
            assertThat(index.get(entry.getKey(), ids)).isEqualTo(entry.getValue());
        }
    }
}
