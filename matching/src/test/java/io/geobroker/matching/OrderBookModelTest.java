package io.geobroker.matching;

import io.geobroker.domain.OrderType;
import io.geobroker.domain.Side;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Drives the book and a deliberately naive model of SPEC §2 (sort every eligible order by
 * priority, fill in that order) with the same random adds, cancels, expiries and tickers, and
 * requires the same fills, triggers and expiries from both.
 */
class OrderBookModelTest {

    private static final long MID = 10_000;

    @Test
    void matches_a_naive_model_over_random_operations() {
        for (long seed = 1; seed <= 20; seed++) {
            run(new SplittableRandom(seed));
        }
    }

    private void run(SplittableRandom random) {
        OrderBook book = new OrderBook("TEST", 4);
        Model model = new Model();
        RecordingSink sink = new RecordingSink();
        RecordingSink expected = new RecordingSink();
        long nextId = 1;
        long now = 1_000;

        for (int step = 0; step < 3_000; step++) {
            int action = random.nextInt(10);
            if (action < 5) {
                RestingOrder order = randomOrder(random, nextId++, now);
                assertThat(book.add(order)).isEqualTo(AddResult.ACCEPTED);
                model.add(order);
            } else if (action < 6 && nextId > 1) {
                long id = 1 + random.nextLong(nextId - 1);
                assertThat(book.cancel(id)).isEqualTo(model.cancel(id));
            } else if (action < 7) {
                now += random.nextInt(50);
                sink.clear();
                expected.clear();
                book.expireUpTo(now, sink);
                model.expireUpTo(now, expected);
                assertThat(sink.expired).containsExactlyInAnyOrderElementsOf(expected.expired);
            } else {
                long price = MID + random.nextInt(-40, 41);
                long volume = random.nextInt(0, 120);
                sink.clear();
                expected.clear();
                int fills = book.onTicker(price, volume, sink);
                model.onTicker(price, volume, expected);
                assertThat(sink.fills).isEqualTo(expected.fills);
                assertThat(fills).isEqualTo(expected.fills.size());
                assertThat(sink.triggered).containsExactlyInAnyOrderElementsOf(expected.triggered);
            }
            assertThat(book.size()).isEqualTo(model.orders.size());
            if (step % 100 == 0) {
                book.validateInternalState();
            }
        }
        book.validateInternalState();
        for (Map.Entry<Long, ModelOrder> entry : model.orders.entrySet()) {
            assertThat(book.remaining(entry.getKey())).isEqualTo(entry.getValue().remaining);
        }
    }

    private static RestingOrder randomOrder(SplittableRandom random, long id, long now) {
        Side side = random.nextBoolean() ? Side.BUY : Side.SELL;
        OrderType type = switch (random.nextInt(8)) {
            case 0 -> OrderType.MARKET;
            case 1, 2 -> OrderType.STOP;
            case 3 -> OrderType.STOP_LIMIT;
            default -> OrderType.LIMIT;
        };
        long limit = type.hasLimitPrice() ? MID + random.nextInt(-30, 31) : 0;
        long stop = type.hasStopPrice() ? MID + random.nextInt(-30, 31) : 0;
        long quantity = 1 + random.nextInt(random.nextInt(4) == 0 ? 200 : 30);
        boolean allOrNone = random.nextInt(4) == 0;
        // Sequences are unique but not always increasing, as when a book is rebuilt out of order.
        long sequence = id * 4 - random.nextInt(random.nextInt(10) == 0 ? 400 : 1);
        long expires = random.nextBoolean() ? RestingOrder.GOOD_TILL_CANCELLED : now + random.nextInt(1, 300);
        return new RestingOrder(id, side, type, limit, stop, quantity, allOrNone, sequence * 1_000 + id % 1_000,
                expires);
    }

    private static final class ModelOrder {
        final RestingOrder order;
        long remaining;
        boolean triggered;

        ModelOrder(RestingOrder order) {
            this.order = order;
            this.remaining = order.quantity();
        }

        boolean isMarket() {
            return order.type() == OrderType.MARKET || order.type() == OrderType.STOP && triggered;
        }

        boolean isLimit() {
            return order.type() == OrderType.LIMIT || order.type() == OrderType.STOP_LIMIT && triggered;
        }

        boolean isWaitingStop() {
            return order.type().hasStopPrice() && !triggered;
        }
    }

    private static final class Model {
        final Map<Long, ModelOrder> orders = new LinkedHashMap<>();

        void add(RestingOrder order) {
            orders.put(order.id(), new ModelOrder(order));
        }

        long cancel(long id) {
            ModelOrder removed = orders.remove(id);
            return removed == null ? -1 : removed.remaining;
        }

        void expireUpTo(long now, RecordingSink sink) {
            orders.values().removeIf(o -> {
                if (o.order.expiresAtMicros() <= now) {
                    sink.onExpired(o.order.id(), o.remaining);
                    return true;
                }
                return false;
            });
        }

        void onTicker(long price, long volume, RecordingSink sink) {
            for (ModelOrder o : orders.values()) {
                if (o.isWaitingStop()) {
                    long stop = o.order.stopPrice();
                    if (o.order.side() == Side.BUY ? price >= stop : price <= stop) {
                        o.triggered = true;
                        sink.onTriggered(o.order.id());
                    }
                }
            }
            List<ModelOrder> eligible = new ArrayList<>();
            for (ModelOrder o : orders.values()) {
                if (o.isMarket() || o.isLimit() && improvement(o, price) >= 0) {
                    eligible.add(o);
                }
            }
            eligible.sort(Comparator.<ModelOrder>comparingInt(o -> o.isMarket() ? 0 : 1)
                    .thenComparing(o -> o.isMarket() ? 0 : -improvement(o, price))
                    .thenComparingLong(o -> o.order.sequence()));
            long left = volume;
            for (ModelOrder o : eligible) {
                if (left == 0) {
                    break;
                }
                if (o.remaining <= left) {
                    left -= o.remaining;
                    orders.remove(o.order.id());
                    sink.onFill(o.order.id(), o.remaining, price, 0);
                } else if (!o.order.allOrNone()) {
                    o.remaining -= left;
                    sink.onFill(o.order.id(), left, price, o.remaining);
                    left = 0;
                }
            }
        }

        private static long improvement(ModelOrder o, long price) {
            return o.order.side() == Side.BUY ? o.order.limitPrice() - price : price - o.order.limitPrice();
        }
    }
}
