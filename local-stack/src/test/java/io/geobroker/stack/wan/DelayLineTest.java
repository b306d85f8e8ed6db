package io.geobroker.stack.wan;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class DelayLineTest {

    private static final long DELAY = TimeUnit.MILLISECONDS.toNanos(115);

    @Test
    void holds_a_packet_until_the_delay_has_passed() {
        DelayLine line = new DelayLine(DELAY, 1 << 20);
        line.offer(0, new byte[] {1}, 1_000);

        assertThat(line.pollDue(1_000)).isNull();
        assertThat(line.pollDue(1_000 + DELAY - 1)).isNull();
        DelayLine.Packet p = line.pollDue(1_000 + DELAY);
        assertThat(p).isNotNull();
        assertThat(p.data()).containsExactly(1);
        assertThat(p.source()).isZero();
        assertThat(line.size()).isZero();
    }

    @Test
    void releases_packets_in_arrival_order() {
        DelayLine line = new DelayLine(DELAY, 1 << 20);
        for (int i = 0; i < 100; i++) {
            line.offer(i % 3, new byte[] {(byte) i}, i * 10L);
        }

        long later = 100 * 10L + DELAY;
        for (int i = 0; i < 100; i++) {
            DelayLine.Packet p = line.pollDue(later);
            assertThat(p.data()[0]).isEqualTo((byte) i);
            assertThat(p.source()).isEqualTo(i % 3);
        }
        assertThat(line.pollDue(later)).isNull();
    }

    @Test
    void releases_only_the_packets_already_due() {
        DelayLine line = new DelayLine(DELAY, 1 << 20);
        line.offer(0, new byte[] {1}, 0);
        line.offer(0, new byte[] {2}, 50);

        assertThat(line.pollDue(DELAY + 49).data()).containsExactly(1);
        assertThat(line.pollDue(DELAY + 49)).isNull();
        assertThat(line.pollDue(DELAY + 50).data()).containsExactly(2);
    }

    @Test
    void drops_packets_beyond_its_byte_capacity_and_counts_them() {
        DelayLine line = new DelayLine(DELAY, 10);

        assertThat(line.offer(0, new byte[6], 0)).isTrue();
        assertThat(line.offer(0, new byte[6], 0)).isFalse();
        assertThat(line.offer(0, new byte[4], 0)).isTrue();
        assertThat(line.dropped()).isEqualTo(1);

        line.pollDue(DELAY);
        assertThat(line.offer(0, new byte[6], 0)).isTrue();
    }

    @Test
    void take_waits_at_least_the_delay() throws InterruptedException {
        long delay = TimeUnit.MILLISECONDS.toNanos(20);
        DelayLine line = new DelayLine(delay, 1 << 20);
        long offered = System.nanoTime();
        line.offer(1, new byte[] {7}, offered);

        DelayLine.Packet p = line.take();

        assertThat(System.nanoTime() - offered).isGreaterThanOrEqualTo(delay);
        assertThat(p.data()).containsExactly(7);
    }

    @Test
    void rejects_a_negative_delay() {
        assertThatThrownBy(() -> new DelayLine(-1, 10)).isInstanceOf(IllegalArgumentException.class);
    }
}
