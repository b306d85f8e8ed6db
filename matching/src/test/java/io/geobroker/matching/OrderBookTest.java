package io.geobroker.matching;

import io.geobroker.domain.OrderType;
import io.geobroker.matching.RecordingSink.Expired;
import io.geobroker.matching.RecordingSink.Fill;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;

import static io.geobroker.domain.Side.BUY;
import static io.geobroker.domain.Side.SELL;
import static io.geobroker.matching.RestingOrder.limit;
import static io.geobroker.matching.RestingOrder.stop;
import static io.geobroker.matching.RestingOrder.stopLimit;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

class OrderBookTest {

    private final OrderBook book = new OrderBook("AAPL");
    private final RecordingSink sink = new RecordingSink();

    @AfterEach
    void bookStaysConsistent() {
        book.validateInternalState();
    }

    private void accept(RestingOrder order) {
        assertThat(book.add(order)).isEqualTo(AddResult.ACCEPTED);
    }

    private int ticker(long price, long volume) {
        sink.clear();
        return book.onTicker(price, volume, sink);
    }

    @Nested
    class Boundaries {

        @Test
        void buy_limit_fills_at_its_limit_and_not_one_tick_above() {
            accept(limit(1, BUY, 10_000, 10, 1));

            assertThat(ticker(10_001, 100)).isZero();
            assertThat(ticker(10_000, 100)).isEqualTo(1);

            assertThat(sink.fills).containsExactly(new Fill(1, 10, 10_000, 0));
            assertThat(book.size()).isZero();
        }

        @Test
        void buy_limit_fills_at_the_ticker_price_below_its_limit() {
            accept(limit(1, BUY, 10_000, 10, 1));

            ticker(9_950, 100);

            assertThat(sink.fills).containsExactly(new Fill(1, 10, 9_950, 0));
        }

        @Test
        void sell_limit_fills_at_its_limit_and_not_one_tick_below() {
            accept(limit(1, SELL, 10_000, 10, 1));

            assertThat(ticker(9_999, 100)).isZero();
            assertThat(ticker(10_000, 100)).isEqualTo(1);

            assertThat(sink.fills).containsExactly(new Fill(1, 10, 10_000, 0));
        }

        @Test
        void buy_stop_triggers_at_its_stop_and_not_one_tick_below_then_fills_at_the_ticker_price() {
            accept(stop(1, BUY, 10_000, 10, 1));

            ticker(9_999, 100);
            assertThat(sink.triggered).isEmpty();
            assertThat(sink.fills).isEmpty();

            ticker(10_000, 100);
            assertThat(sink.triggered).containsExactly(1L);
            assertThat(sink.fills).containsExactly(new Fill(1, 10, 10_000, 0));
        }

        @Test
        void buy_stop_triggered_by_a_jump_fills_at_the_higher_ticker_price() {
            accept(stop(1, BUY, 10_000, 10, 1));

            ticker(10_500, 100);

            assertThat(sink.fills).containsExactly(new Fill(1, 10, 10_500, 0));
        }

        @Test
        void sell_stop_triggers_at_its_stop_and_not_one_tick_above() {
            accept(stop(1, SELL, 10_000, 10, 1));

            ticker(10_001, 100);
            assertThat(sink.triggered).isEmpty();

            ticker(10_000, 100);
            assertThat(sink.triggered).containsExactly(1L);
            assertThat(sink.fills).containsExactly(new Fill(1, 10, 10_000, 0));
        }

        @Test
        void buy_stop_limit_triggers_and_fills_on_the_same_ticker_when_its_limit_is_crossed() {
            accept(stopLimit(1, BUY, 10_000, 10_010, 10, 1));

            ticker(10_005, 100);

            assertThat(sink.triggered).containsExactly(1L);
            assertThat(sink.fills).containsExactly(new Fill(1, 10, 10_005, 0));
        }

        @Test
        void buy_stop_limit_triggered_above_its_limit_rests_as_a_limit_order() {
            accept(stopLimit(1, BUY, 10_000, 10_010, 10, 1));

            ticker(10_011, 100);
            assertThat(sink.triggered).containsExactly(1L);
            assertThat(sink.fills).isEmpty();
            assertThat(book.remaining(1)).isEqualTo(10);

            ticker(10_020, 100);
            assertThat(sink.triggered).isEmpty();
            assertThat(sink.fills).isEmpty();

            ticker(10_010, 100);
            assertThat(sink.fills).containsExactly(new Fill(1, 10, 10_010, 0));
        }

        @Test
        void sell_stop_limit_triggered_below_its_limit_rests_then_fills_when_the_price_comes_back() {
            accept(stopLimit(1, SELL, 10_000, 9_990, 10, 1));

            ticker(9_980, 100);
            assertThat(sink.triggered).containsExactly(1L);
            assertThat(sink.fills).isEmpty();

            ticker(10_050, 100);
            assertThat(sink.triggered).isEmpty();
            assertThat(sink.fills).containsExactly(new Fill(1, 10, 10_050, 0));
        }

        @Test
        void a_ticker_that_crosses_nothing_changes_nothing() {
            accept(limit(1, BUY, 9_990, 10, 1));
            accept(limit(2, SELL, 10_010, 10, 2));
            accept(stop(3, BUY, 10_020, 10, 3));
            accept(stop(4, SELL, 9_980, 10, 4));

            assertThat(ticker(10_000, 1_000)).isZero();

            assertThat(sink.fills).isEmpty();
            assertThat(sink.triggered).isEmpty();
            assertThat(book.size()).isEqualTo(4);
        }
    }

    @Nested
    class Priority {

        @Test
        void better_buy_limit_fills_first_even_when_placed_later() {
            accept(limit(1, BUY, 10_000, 10, 1));
            accept(limit(2, BUY, 10_005, 10, 2));

            ticker(10_000, 10);

            assertThat(sink.filledIds()).containsExactly(2L);
            assertThat(book.remaining(1)).isEqualTo(10);
        }

        @Test
        void better_sell_limit_fills_first_even_when_placed_later() {
            accept(limit(1, SELL, 10_000, 10, 1));
            accept(limit(2, SELL, 9_995, 10, 2));

            ticker(10_000, 10);

            assertThat(sink.filledIds()).containsExactly(2L);
        }

        @Test
        void equal_limits_fill_by_sequence_whatever_the_order_they_were_added_in() {
            accept(limit(1, BUY, 10_000, 10, 30));
            accept(limit(2, BUY, 10_000, 10, 10));
            accept(limit(3, BUY, 10_000, 10, 20));

            ticker(10_000, 25);

            assertThat(sink.fills).containsExactly(
                    new Fill(2, 10, 10_000, 0), new Fill(3, 10, 10_000, 0), new Fill(1, 5, 10_000, 5));
        }

        @Test
        void triggered_stops_fill_before_better_limits() {
            accept(limit(1, BUY, 10_100, 10, 1));
            accept(stop(2, BUY, 10_000, 10, 2));

            ticker(10_000, 10);

            assertThat(sink.filledIds()).containsExactly(2L);
        }

        @Test
        void across_sides_the_larger_improvement_on_the_ticker_price_fills_first() {
            accept(limit(1, BUY, 10_002, 10, 1));
            accept(limit(2, SELL, 9_995, 10, 2));

            ticker(10_000, 15);

            assertThat(sink.fills).containsExactly(new Fill(2, 10, 10_000, 0), new Fill(1, 5, 10_000, 5));
        }

        @Test
        void across_sides_equal_improvements_fill_by_sequence() {
            accept(limit(1, SELL, 9_995, 10, 5));
            accept(limit(2, BUY, 10_005, 10, 3));
            accept(limit(3, BUY, 10_005, 10, 7));

            ticker(10_000, 100);

            assertThat(sink.filledIds()).containsExactly(2L, 1L, 3L);
        }

        @Test
        void stops_triggered_on_one_ticker_fill_by_sequence_not_by_stop_price() {
            accept(stop(1, BUY, 10_000, 10, 2));
            accept(stop(2, BUY, 10_003, 10, 1));

            ticker(10_005, 10);

            assertThat(sink.triggered).containsExactlyInAnyOrder(1L, 2L);
            assertThat(sink.fills).containsExactly(new Fill(2, 10, 10_005, 0));
        }
    }

    @Nested
    class Volume {

        @Test
        void the_ticker_volume_is_shared_and_the_remainder_rests() {
            accept(limit(1, BUY, 10_000, 30, 1));
            accept(limit(2, BUY, 10_000, 30, 2));

            assertThat(ticker(10_000, 40)).isEqualTo(2);

            assertThat(sink.fills).containsExactly(new Fill(1, 30, 10_000, 0), new Fill(2, 10, 10_000, 20));
            assertThat(book.remaining(1)).isEqualTo(-1);
            assertThat(book.remaining(2)).isEqualTo(20);
            assertThat(book.lastVolumeLeft()).isZero();
        }

        @Test
        void a_partly_filled_order_keeps_its_time_priority() {
            accept(limit(1, BUY, 10_000, 30, 1));
            accept(limit(2, BUY, 10_000, 30, 2));
            ticker(10_000, 10);

            ticker(10_000, 30);

            assertThat(sink.fills).containsExactly(new Fill(1, 20, 10_000, 0), new Fill(2, 10, 10_000, 20));
        }

        @Test
        void volume_flows_on_to_worse_levels_once_the_better_ones_are_filled() {
            accept(limit(1, SELL, 9_990, 10, 1));
            accept(limit(2, SELL, 9_995, 10, 2));
            accept(limit(3, SELL, 10_000, 10, 3));
            accept(limit(4, SELL, 10_001, 10, 4));

            ticker(10_000, 1_000);

            assertThat(sink.filledIds()).containsExactly(1L, 2L, 3L);
            assertThat(book.lastVolumeLeft()).isEqualTo(970);
        }

        @Test
        void a_zero_volume_ticker_triggers_stops_but_fills_nothing() {
            accept(stop(1, SELL, 10_000, 10, 1));
            accept(limit(2, BUY, 10_000, 10, 2));

            assertThat(ticker(9_990, 0)).isZero();

            assertThat(sink.triggered).containsExactly(1L);
            assertThat(book.size()).isEqualTo(2);
        }

        @Test
        void a_triggered_stop_without_volume_fills_on_the_next_ticker_at_its_price() {
            accept(stop(1, BUY, 10_000, 10, 1));
            ticker(10_000, 4);
            assertThat(sink.fills).containsExactly(new Fill(1, 4, 10_000, 6));

            ticker(9_900, 100);

            assertThat(sink.triggered).isEmpty();
            assertThat(sink.fills).containsExactly(new Fill(1, 6, 9_900, 0));
        }
    }

    @Nested
    class AllOrNone {

        @Test
        void an_all_or_none_order_that_does_not_fit_is_skipped_and_the_volume_goes_on() {
            accept(limit(1, BUY, 10_010, 50, 1).allOrNoneOrder());
            accept(limit(2, BUY, 10_010, 20, 2));
            accept(limit(3, BUY, 10_000, 20, 3));

            ticker(10_000, 30);

            assertThat(sink.fills).containsExactly(new Fill(2, 20, 10_000, 0), new Fill(3, 10, 10_000, 10));
            assertThat(book.remaining(1)).isEqualTo(50);
        }

        @Test
        void an_all_or_none_order_fills_whole_when_the_volume_covers_it() {
            accept(limit(1, SELL, 10_000, 50, 1).allOrNoneOrder());

            ticker(10_000, 49);
            assertThat(sink.fills).isEmpty();

            ticker(10_000, 50);
            assertThat(sink.fills).containsExactly(new Fill(1, 50, 10_000, 0));
        }

        @Test
        void an_all_or_none_order_keeps_its_place_after_being_skipped() {
            accept(limit(1, BUY, 10_000, 50, 1).allOrNoneOrder());
            accept(limit(2, BUY, 10_000, 10, 2));
            ticker(10_000, 30);
            accept(limit(3, BUY, 10_000, 10, 3));

            ticker(10_000, 55);

            assertThat(sink.filledIds()).containsExactly(1L, 3L);
        }

        @Test
        void a_triggered_all_or_none_stop_waits_for_enough_volume() {
            accept(stop(1, SELL, 10_000, 100, 1).allOrNoneOrder());

            ticker(10_000, 99);
            assertThat(sink.triggered).containsExactly(1L);
            assertThat(sink.fills).isEmpty();

            ticker(10_200, 100);
            assertThat(sink.fills).containsExactly(new Fill(1, 100, 10_200, 0));
        }
    }

    @Nested
    class CancelAndExpiry {

        @Test
        void cancel_returns_the_unfilled_quantity_and_the_order_never_fills() {
            accept(limit(1, BUY, 10_000, 30, 1));
            ticker(10_000, 10);

            assertThat(book.cancel(1)).isEqualTo(20);
            assertThat(book.cancel(1)).isEqualTo(-1);
            assertThat(ticker(10_000, 100)).isZero();
        }

        @Test
        void cancel_of_an_unknown_order_returns_minus_one() {
            assertThat(book.cancel(42)).isEqualTo(-1);
        }

        @Test
        void cancel_works_for_every_queue() {
            accept(limit(1, BUY, 9_000, 10, 1));
            accept(stop(2, BUY, 11_000, 10, 2));
            accept(stopLimit(3, SELL, 9_500, 9_400, 10, 3));
            accept(stop(4, SELL, 10_000, 10, 4));
            ticker(10_000, 0);

            assertThat(book.cancel(4)).isEqualTo(10);
            assertThat(book.cancel(3)).isEqualTo(10);
            assertThat(book.cancel(2)).isEqualTo(10);
            assertThat(book.cancel(1)).isEqualTo(10);
            assertThat(book.size()).isZero();
        }

        @Test
        void day_orders_expire_at_their_expiry_and_not_a_microsecond_earlier() {
            accept(limit(1, BUY, 10_000, 10, 1).expiringAt(1_000));
            accept(stop(2, SELL, 9_000, 10, 2).expiringAt(2_000));
            accept(limit(3, SELL, 11_000, 10, 3));

            assertThat(book.expireUpTo(999, sink)).isZero();
            assertThat(book.expireUpTo(1_000, sink)).isEqualTo(1);
            assertThat(sink.expired).containsExactly(new Expired(1, 10));

            assertThat(book.expireUpTo(Long.MAX_VALUE - 1, sink)).isEqualTo(1);
            assertThat(sink.expired).containsExactly(new Expired(1, 10), new Expired(2, 10));
            assertThat(book.size()).isEqualTo(1);
            assertThat(ticker(10_000, 100)).isZero();
        }

        @Test
        void expiry_reports_the_unfilled_quantity_and_skips_filled_or_cancelled_orders() {
            accept(limit(1, BUY, 10_000, 30, 1).expiringAt(1_000));
            accept(limit(2, BUY, 10_500, 30, 2).expiringAt(1_000));
            accept(limit(3, BUY, 8_000, 30, 3).expiringAt(1_000));
            ticker(10_500, 30);
            ticker(10_000, 10);
            book.cancel(3);
            sink.clear();

            assertThat(book.expireUpTo(1_000, sink)).isEqualTo(1);

            assertThat(sink.expired).containsExactly(new Expired(1, 20));
            assertThat(book.size()).isZero();
        }
    }

    @Nested
    class Adding {

        @Test
        void a_duplicate_id_is_rejected_and_leaves_the_book_unchanged() {
            accept(limit(1, BUY, 10_000, 10, 1));

            assertThat(book.add(limit(1, SELL, 9_000, 99, 2))).isEqualTo(AddResult.DUPLICATE_ID);

            assertThat(book.size()).isEqualTo(1);
            assertThat(book.remaining(1)).isEqualTo(10);
            ticker(9_000, 100);
            assertThat(sink.fills).containsExactly(new Fill(1, 10, 9_000, 0));
        }

        @Test
        void an_id_can_be_used_again_once_its_order_left_the_book() {
            accept(limit(1, BUY, 10_000, 10, 1));
            ticker(10_000, 10);

            assertThat(book.add(limit(1, BUY, 10_000, 10, 2))).isEqualTo(AddResult.ACCEPTED);
        }

        @Test
        void a_market_order_in_the_book_fills_on_the_next_ticker_first() {
            accept(limit(1, SELL, 9_000, 10, 1));
            accept(new RestingOrder(2, BUY, OrderType.MARKET, 0, 0, 10, false, 2,
                    RestingOrder.GOOD_TILL_CANCELLED));

            ticker(10_000, 15);

            assertThat(sink.fills).containsExactly(new Fill(2, 10, 10_000, 0), new Fill(1, 5, 10_000, 5));
        }

        @Test
        void the_book_grows_past_its_initial_capacity() {
            OrderBook small = new OrderBook("MSFT", 0);
            for (int i = 0; i < 10_000; i++) {
                assertThat(small.add(limit(i, i % 2 == 0 ? BUY : SELL, 5_000 + i % 2 * 10_000 + i % 97, 1, i)))
                        .isEqualTo(AddResult.ACCEPTED);
            }
            small.validateInternalState();
            assertThat(small.size()).isEqualTo(10_000);
            assertThat(small.footprintBytes()).isGreaterThan(10_000L * 65);
        }

        @Test
        void invalid_orders_cannot_be_built() {
            assertThatThrownBy(() -> limit(1, BUY, 10_000, 0, 1)).isInstanceOf(IllegalArgumentException.class);
            assertThatThrownBy(() -> limit(1, BUY, 0, 10, 1)).isInstanceOf(IllegalArgumentException.class);
            assertThatThrownBy(() -> new RestingOrder(1, BUY, OrderType.LIMIT, 10_000, 9_000, 10, false, 1,
                    RestingOrder.GOOD_TILL_CANCELLED)).isInstanceOf(IllegalArgumentException.class);
            assertThatThrownBy(() -> stopLimit(1, BUY, 10_000, 0, 10, 1))
                    .isInstanceOf(IllegalArgumentException.class);
            assertThatThrownBy(() -> limit(1, BUY, 10_000, 10, 1).expiringAt(0))
                    .isInstanceOf(IllegalArgumentException.class);
        }

        @Test
        void a_bad_ticker_is_rejected() {
            assertThatThrownBy(() -> book.onTicker(0, 10, sink)).isInstanceOf(IllegalArgumentException.class);
            assertThatThrownBy(() -> book.onTicker(10, -1, sink)).isInstanceOf(IllegalArgumentException.class);
        }

        @Test
        void a_sink_that_throws_leaves_the_book_consistent_with_what_it_was_told() {
            accept(stop(1, BUY, 10_000, 10, 1));
            accept(stop(2, BUY, 10_000, 10, 2));
            accept(limit(3, SELL, 9_000, 10, 3));
            FillSink failing = new FillSink() {
                @Override
                public void onFill(long orderId, long quantity, long price, long remaining) {
                    throw new IllegalStateException("downstream failure");
                }

                @Override
                public void onTriggered(long orderId) {
                    sink.onTriggered(orderId);
                    if (orderId == 1) {
                        throw new IllegalStateException("downstream failure");
                    }
                }
            };

            assertThatThrownBy(() -> book.onTicker(10_000, 100, failing)).isInstanceOf(IllegalStateException.class);
            book.validateInternalState();
            assertThat(sink.triggered).containsExactly(1L);
            assertThat(book.size()).isEqualTo(3);

            assertThat(book.onTicker(10_000, 100, sink)).isEqualTo(3);
            assertThat(sink.triggered).containsExactly(1L, 2L);
            assertThat(sink.filledIds()).containsExactly(1L, 2L, 3L);
        }

        @Test
        void a_sink_may_not_call_back_into_the_book() {
            accept(limit(1, BUY, 10_000, 10, 1));
            FillSink reentrant = new FillSink() {
                @Override
                public void onFill(long orderId, long quantity, long price, long remaining) {
                    book.add(limit(2, BUY, 10_000, 10, 2));
                }

                @Override
                public void onTriggered(long orderId) {
                }
            };

            assertThatThrownBy(() -> book.onTicker(10_000, 10, reentrant)).isInstanceOf(IllegalStateException.class);
            assertThat(book.size()).isZero();
        }
    }

    @Nested
    class Allocation {

        @Test
        void tickers_allocate_nothing_per_ticker_once_the_levels_exist() {
            ThreadMXBean threads = ManagementFactory.getThreadMXBean();
            assumeTrue(threads instanceof com.sun.management.ThreadMXBean,
                    "this JVM does not count allocated bytes per thread");
            com.sun.management.ThreadMXBean allocation = (com.sun.management.ThreadMXBean) threads;
            // Orders too big to ever fill completely keep every level alive: a steady state.
            long big = 1_000_000_000_000L;
            for (int i = 0; i < 20; i++) {
                accept(limit(100 + i, BUY, 9_990 - i, big, i));
                accept(limit(200 + i, SELL, 10_010 + i, big, 100 + i));
                accept(stop(300 + i, BUY, 10_010 + i, big, 200 + i));
                accept(stopLimit(400 + i, SELL, 9_990 - i, 9_980 - i, big, 300 + i).allOrNoneOrder());
            }
            CountingSink counting = new CountingSink();
            long[] tape = {10_000, 9_985, 10_000, 10_015, 9_970, 10_030, 10_001};
            for (int i = 0; i < 20_000; i++) {
                book.onTicker(tape[i % tape.length], 500, counting);
            }

            long before = allocation.getCurrentThreadAllocatedBytes();
            for (int i = 0; i < 10_000; i++) {
                book.onTicker(tape[i % tape.length], 500, counting);
            }
            long allocated = allocation.getCurrentThreadAllocatedBytes() - before;

            assertThat(counting.fills).isGreaterThan(10_000);
            // Less than one byte per ticker: any per-ticker object (a boxed long, an iterator) would
            // cost at least 16 bytes each time; the slack absorbs rare JVM-internal allocations
            // charged to this thread (a few hundred bytes now and then).
            assertThat(allocated).as("bytes allocated by 10,000 tickers").isLessThan(10_000);
        }
    }

    /** Counts without allocating, unlike {@link RecordingSink}. */
    private static final class CountingSink implements FillSink {
        long fills;
        long triggered;

        @Override
        public void onFill(long orderId, long quantity, long price, long remaining) {
            fills++;
        }

        @Override
        public void onTriggered(long orderId) {
            triggered++;
        }
    }

    @Nested
    class MarketOrders {

        @Test
        void a_market_order_takes_what_the_last_ticker_left() {
            accept(limit(1, BUY, 10_000, 30, 1));
            ticker(10_000, 100);

            assertThat(book.lastPrice()).isEqualTo(10_000);
            assertThat(book.takeFromLastTicker(50, false)).isEqualTo(50);
            assertThat(book.takeFromLastTicker(50, false)).isEqualTo(20);
            assertThat(book.takeFromLastTicker(50, false)).isZero();
        }

        @Test
        void an_all_or_none_market_order_takes_all_or_nothing() {
            ticker(10_000, 100);

            assertThat(book.takeFromLastTicker(101, true)).isZero();
            assertThat(book.takeFromLastTicker(100, true)).isEqualTo(100);
        }

        @Test
        void nothing_fills_before_the_first_ticker() {
            assertThat(book.lastPrice()).isZero();
            assertThat(book.takeFromLastTicker(1, false)).isZero();
        }
    }
}
