package io.geobroker.broker.matching;

import io.geobroker.broker.order.Order;
import io.geobroker.domain.OrderStatus;
import io.geobroker.domain.OrderType;
import io.geobroker.domain.Side;
import io.geobroker.domain.TimeInForce;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class RecoveryTest {

    private static Order stored(Side side, OrderType type, Long limit, Long stop, long quantity, long filled,
                                long reserved) {
        return new Order(UUID.randomUUID(), "c1", "x1", "AAPL", "NASDAQ", "USD", side, type, TimeInForce.GTC, false,
                quantity, limit, stop, false, OrderStatus.OPEN, filled, 0, reserved, null, null, Instant.EPOCH,
                Instant.EPOCH, "nvirginia", "nvirginia");
    }

    @Test
    void a_restored_buy_stop_trades_at_the_protection_price_it_reserved_at() {
        // 10 ordered, 4 filled: 6 left reserve 6 x 10 500
        assertThat(Recovery.bookLimitOf(stored(Side.BUY, OrderType.STOP, null, 10_000L, 10, 4, 63_000)))
                .isEqualTo(10_500);
    }

    @Test
    void a_restored_limit_order_trades_at_its_limit_and_a_sell_stop_at_any_price() {
        assertThat(Recovery.bookLimitOf(stored(Side.BUY, OrderType.LIMIT, 9_900L, null, 10, 0, 99_000)))
                .isEqualTo(9_900);
        assertThat(Recovery.bookLimitOf(stored(Side.SELL, OrderType.STOP_LIMIT, 9_800L, 9_900L, 10, 0, 10)))
                .isEqualTo(9_800);
        assertThat(Recovery.bookLimitOf(stored(Side.SELL, OrderType.STOP, null, 9_900L, 10, 0, 10))).isZero();
    }

    @Test
    void a_restored_quote_has_its_whole_volume_left_for_market_orders() {
        SymbolState aapl = TestOrders.symbol("AAPL");

        Recovery.restoreQuote(aapl, new EngineStore.QuoteRow(18_250, 300, 42, 1_000_000, Instant.EPOCH));

        assertThat(aapl.quotePrice).isEqualTo(18_250);
        assertThat(aapl.quoteSequence).isEqualTo(42);
        assertThat(aapl.quoteVolumeLeft).isEqualTo(300);
    }

    @Test
    void progress_is_restored_from_symbol_state() {
        SymbolState aapl = TestOrders.symbol("AAPL");

        Recovery.restoreProgress(aapl, new EngineStore.SymbolRow(7, 12, 500, 31, 498, Optional.empty()));

        assertThat(aapl.generation).isEqualTo(7);
        assertThat(aapl.deletions).isEqualTo(12);
        assertThat(aapl.lastTickerSequence).isEqualTo(500);
        assertThat(aapl.nextOrderSequence).isEqualTo(31);
        assertThat(aapl.lastGroupFirstSequence).isEqualTo(498);
    }

    @Test
    void fills_are_published_again_up_to_the_later_of_the_last_ticker_and_the_quote() {
        SymbolState aapl = TestOrders.symbol("AAPL");
        aapl.lastTickerSequence = 500;
        aapl.quoteSequence = 502;

        assertThat(Recovery.lastSequenceToRepublish(aapl)).isEqualTo(502);
    }

    @Test
    void reads_of_a_step_go_out_together_and_their_results_come_back_in_the_items_order() throws Exception {
        int n = 3 * Recovery.READS_AT_ONCE;
        List<Integer> items = IntStream.range(0, n).boxed().toList();
        ConcurrentSkipListMap<Integer, CompletableFuture<String>> pending = new ConcurrentSkipListMap<>();
        AtomicInteger underWay = new AtomicInteger();
        AtomicInteger mostUnderWay = new AtomicInteger();
        AtomicInteger sent = new AtomicInteger();
        // answers once as many reads as allowed are under way (or 200 ms passed), the latest sent first
        Thread node = new Thread(() -> {
            for (int answered = 0; answered < n; ) {
                long waitingSince = System.nanoTime();
                while (underWay.get() < Recovery.READS_AT_ONCE && sent.get() < n
                        && System.nanoTime() - waitingSince < 200_000_000L) {
                    Thread.onSpinWait();
                }
                Map.Entry<Integer, CompletableFuture<String>> read = pending.pollLastEntry();
                if (read != null) {
                    underWay.decrementAndGet();
                    read.getValue().complete("row " + read.getKey());
                    answered++;
                }
            }
        }, "node");
        node.setDaemon(true);
        node.start();

        List<String> results = Recovery.readAll(items, i -> {
            mostUnderWay.accumulateAndGet(underWay.incrementAndGet(), Math::max);
            CompletableFuture<String> read = new CompletableFuture<>();
            pending.put(i, read);
            sent.incrementAndGet();
            return read;
        });
        node.join(10_000);

        assertThat(results).isEqualTo(items.stream().map(i -> "row " + i).toList());
        assertThat(mostUnderWay.get()).isEqualTo(Recovery.READS_AT_ONCE);
    }

    @Test
    void a_failed_read_fails_the_rebuild_with_the_drivers_exception() {
        IllegalStateException timeout = new IllegalStateException("read timed out");

        assertThatThrownBy(() -> Recovery.readAll(List.of(1, 2, 3), i -> i == 2
                ? CompletableFuture.<String>failedFuture(timeout) : CompletableFuture.completedFuture("row " + i)))
                .isSameAs(timeout);
    }
}
