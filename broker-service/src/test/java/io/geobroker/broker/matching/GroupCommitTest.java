package io.geobroker.broker.matching;

import io.geobroker.broker.order.OrderIds;
import io.geobroker.domain.OrderEvent;
import io.geobroker.domain.OrderStatus;
import io.geobroker.domain.Side;
import io.geobroker.domain.WireFormat;
import org.junit.jupiter.api.Test;

import java.time.Instant;

import static org.assertj.core.api.Assertions.assertThat;

class GroupCommitTest {

    @Test
    void a_symbol_keeps_pointing_at_the_group_in_flight_until_kafka_acknowledged_its_fills() {
        assertThat(GroupCommit.lastGroupFirstSequence(120, 97L)).isEqualTo(97);
    }

    @Test
    void a_symbol_without_fills_in_flight_points_at_this_group() {
        assertThat(GroupCommit.lastGroupFirstSequence(120, null)).isEqualTo(120);
    }

    @Test
    void a_cancelled_order_becomes_an_order_event_with_its_totals_and_a_stable_id() throws Exception {
        OrderState o = TestOrders.order("AAPL", Side.BUY, 10, 19_000);
        o.status = OrderStatus.CANCELLED;
        o.filledQuantity = 4;
        o.filledNotional = 76_004;
        o.updatedAt = Instant.parse("2026-11-26T06:00:00.123Z");
        OrderEvent e = GroupCommit.event(o, "nvirginia");
        assertThat(e.eventId()).isEqualTo(OrderIds.eventId(o.id, OrderStatus.CANCELLED).toString())
                .isEqualTo(GroupCommit.event(o, "nvirginia").eventId())
                .isNotEqualTo(OrderIds.eventId(o.id, OrderStatus.EXPIRED).toString());
        assertThat(e.status()).isEqualTo(OrderStatus.CANCELLED);
        assertThat(e.orderId()).isEqualTo(o.id.toString());
        assertThat(e.customerId()).isEqualTo("c1");
        assertThat(e.clientOrderId()).isEqualTo(o.clientOrderId);
        assertThat(e.quantity()).isEqualTo(10);
        assertThat(e.filledQuantity()).isEqualTo(4);
        assertThat(e.filledNotional()).isEqualTo(76_004);
        assertThat(e.leavesQuantity()).isEqualTo(6);
        assertThat(e.eventTimeMicros()).isEqualTo(Instant.parse("2026-11-26T06:00:00.123Z").toEpochMilli() * 1_000);
        assertThat(e.region()).isEqualTo("nvirginia");
        assertThat(WireFormat.decodeOrderEvent(WireFormat.encode(e))).isEqualTo(e);
    }
}
