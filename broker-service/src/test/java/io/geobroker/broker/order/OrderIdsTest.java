package io.geobroker.broker.order;

import static org.assertj.core.api.Assertions.assertThat;

import io.geobroker.domain.OrderStatus;
import java.nio.charset.StandardCharsets;
import java.util.Random;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** The ids are the name-based UUIDs stored rows and published fills already carry: the JDK's version 3 UUIDs. */
class OrderIdsTest {

    @Test
    void a_name_based_uuid_is_the_jdks_for_any_name() {
        Random random = new Random(24);
        for (int length = 0; length < 300; length++) {
            byte[] name = new byte[length];
            random.nextBytes(name);
            assertThat(OrderIds.nameUuid(name)).as("a name of %d bytes", length).isEqualTo(UUID.nameUUIDFromBytes(name));
        }
    }

    @Test
    void order_fill_and_event_ids_are_unchanged() {
        UUID order = OrderIds.orderId("alice_1", "buy-42");
        assertThat(order).isEqualTo(UUID.nameUUIDFromBytes("order\u0000alice_1\u0000buy-42".getBytes(StandardCharsets.UTF_8)));
        assertThat(order.version()).isEqualTo(3);
        assertThat(OrderIds.fillId(order, 7)).isEqualTo(
                UUID.nameUUIDFromBytes(("fill\u0000" + order + "\u00007").getBytes(StandardCharsets.UTF_8)));
        assertThat(OrderIds.eventId(order, OrderStatus.CANCELLED)).isEqualTo(
                UUID.nameUUIDFromBytes(("order-event\u0000" + order + "\u0000CANCELLED").getBytes(StandardCharsets.UTF_8)));
    }

    @Test
    void threads_hashing_at_once_each_get_their_own_ids() throws InterruptedException {
        Thread[] threads = new Thread[4];
        boolean[] right = new boolean[threads.length];
        for (int t = 0; t < threads.length; t++) {
            int n = t;
            threads[t] = new Thread(() -> {
                boolean all = true;
                for (int i = 0; i < 5_000; i++) {
                    String client = "c" + n + "-" + i;
                    all &= OrderIds.orderId("cust" + n, client).equals(UUID.nameUUIDFromBytes(
                            ("order\u0000cust" + n + "\u0000" + client).getBytes(StandardCharsets.UTF_8)));
                }
                right[n] = all;
            });
            threads[t].start();
        }
        for (Thread t : threads) {
            t.join();
        }
        assertThat(right).containsOnly(true);
    }
}
