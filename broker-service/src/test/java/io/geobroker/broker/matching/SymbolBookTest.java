package io.geobroker.broker.matching;

import io.geobroker.domain.OrderStatus;
import io.geobroker.domain.OrderType;
import io.geobroker.domain.Side;
import io.geobroker.domain.TimeInForce;
import io.geobroker.matching.RestingOrder;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;

class SymbolBookTest {

    private long sequence;

    private OrderState order(Side side, OrderType type, Long limit, Long stop, long bookLimit, long quantity,
                             Instant expiresAt) {
        OrderState o = new OrderState(UUID.randomUUID(), "c1", "x" + sequence, "AAPL", "NASDAQ", "USD", side, type,
                expiresAt == null ? TimeInForce.GTC : TimeInForce.DAY, false, quantity, limit, stop, bookLimit,
                expiresAt, Instant.EPOCH, "nvirginia", "nvirginia", sequence++);
        o.status = OrderStatus.OPEN;
        return o;
    }

    private record Event(String kind, OrderState order, long quantity) {
    }

    private static List<Event> tick(SymbolBook book, long price, long volume) {
        List<Event> events = new ArrayList<>();
        book.onTicker(price, volume, new SymbolBook.Sink() {
            @Override
            public void onTrigger(OrderState order) {
                events.add(new Event("trigger", order, 0));
            }

            @Override
            public void onFill(OrderState order, long quantity, long price) {
                order.filledQuantity += quantity;
                events.add(new Event("fill", order, quantity));
            }
        });
        return events;
    }

    @Test
    void buy_stop_rests_as_a_stop_limit_at_its_protection_price() {
        OrderState o = order(Side.BUY, OrderType.STOP, null, 10_000L, 10_500, 5, null);
        RestingOrder r = SymbolBook.resting(o);
        assertThat(r.type()).isEqualTo(OrderType.STOP_LIMIT);
        assertThat(r.limitPrice()).isEqualTo(10_500);
        assertThat(r.stopPrice()).isEqualTo(10_000);
    }

    @Test
    void triggered_orders_are_restored_as_what_they_became() {
        OrderState sellStop = order(Side.SELL, OrderType.STOP, null, 9_000L, 0, 5, null);
        sellStop.triggered = true;
        assertThat(SymbolBook.resting(sellStop).type()).isEqualTo(OrderType.MARKET);
        OrderState stopLimit = order(Side.BUY, OrderType.STOP_LIMIT, 9_500L, 9_000L, 9_500, 5, null);
        stopLimit.triggered = true;
        assertThat(SymbolBook.resting(stopLimit).type()).isEqualTo(OrderType.LIMIT);
        assertThat(SymbolBook.resting(stopLimit).limitPrice()).isEqualTo(9_500);
    }

    @Test
    void buy_stop_does_not_fill_above_its_protection_price() {
        SymbolBook book = new SymbolBook("AAPL");
        OrderState o = order(Side.BUY, OrderType.STOP, null, 10_000L, 10_500, 5, null);
        book.add(o);
        List<Event> gap = tick(book, 11_000, 100);
        assertThat(gap).extracting(Event::kind).containsExactly("trigger");
        List<Event> back = tick(book, 10_400, 100);
        assertThat(back).extracting(Event::kind).containsExactly("fill");
        assertThat(book.size()).isZero();
    }

    @Test
    void ticker_volume_is_shared_and_reported_left() {
        SymbolBook book = new SymbolBook("AAPL");
        book.add(order(Side.BUY, OrderType.LIMIT, 10_000L, null, 10_000, 30, null));
        book.add(order(Side.SELL, OrderType.LIMIT, 10_000L, null, 10_000, 30, null));
        List<Event> events = tick(book, 10_000, 50);
        assertThat(events).extracting(Event::quantity).containsExactly(30L, 20L);
        assertThat(book.lastVolumeLeft()).isZero();
        assertThat(book.size()).isEqualTo(1);
    }

    @Test
    void day_orders_expire_and_are_handed_back() {
        SymbolBook book = new SymbolBook("AAPL");
        Instant close = Instant.parse("2026-11-23T21:00:00Z");
        OrderState day = order(Side.BUY, OrderType.LIMIT, 10_000L, null, 10_000, 5, close);
        OrderState gtc = order(Side.BUY, OrderType.LIMIT, 10_000L, null, 10_000, 5, null);
        book.add(day);
        book.add(gtc);
        List<OrderState> expired = new ArrayList<>();
        book.expireUpTo(close.minusSeconds(1), expired::add);
        assertThat(expired).isEmpty();
        book.expireUpTo(close, expired::add);
        assertThat(expired).containsExactly(day);
        assertThat(book.orders()).containsExactly(gtc);
    }
}
