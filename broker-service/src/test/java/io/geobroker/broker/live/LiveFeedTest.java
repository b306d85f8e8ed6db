package io.geobroker.broker.live;

import io.geobroker.domain.Fill;
import io.geobroker.domain.OrderEvent;
import io.geobroker.domain.OrderStatus;
import io.geobroker.domain.OrderType;
import io.geobroker.domain.Region;
import io.geobroker.domain.Side;
import io.geobroker.domain.SymbolDirectory;
import io.geobroker.domain.Topics;
import io.geobroker.domain.WireFormat;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.web.servlet.mvc.method.annotation.SseEmitter;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * What the live feed pushes to which page: a fill or order event only to the pages of its customer,
 * whether it came from this region's engine or from another region's Kafka, and a record from
 * another region that does not decode is skipped. The pages are emitters that keep what they are sent.
 */
class LiveFeedTest {

    private static final SymbolDirectory DIRECTORY = SymbolDirectory.standard();
    private static final Topics TOPICS = new Topics("t.");
    private static final RemoteRegions.Source NVIRGINIA = new RemoteRegions.Source("nvirginia", "127.0.0.1:1",
            List.of(TOPICS.tickers("NYSE"), TOPICS.tickers("NASDAQ")), TOPICS.fills(), TOPICS.orderEvents());

    private final LiveFeed feed = new LiveFeed(null, DIRECTORY,
            new Region("sydney", "SydneyDC", List.of("ASX"), "ap-southeast-2"), new SimpleMeterRegistry());

    /** A page's stream that keeps the text of every event it is sent. */
    static final class Page extends SseEmitter {
        final List<String> events = new CopyOnWriteArrayList<>();

        @Override
        public void send(SseEventBuilder builder) {
            StringBuilder text = new StringBuilder();
            builder.build().forEach(d -> text.append(d.getData()));
            events.add(text.toString());
        }

        boolean got(String name, String content) {
            return events.stream().anyMatch(e -> e.contains("event:" + name) && e.contains(content));
        }
    }

    /**
     * A page whose request the servlet container has already failed: every write, and completing it
     * from another thread, is refused with the container's {@link IllegalStateException}.
     */
    static final class GonePage extends SseEmitter {
        final AtomicInteger writes = new AtomicInteger();
        volatile boolean gone;

        @Override
        public void send(SseEventBuilder builder) {
            if (gone) {
                writes.incrementAndGet();
                throw new IllegalStateException("the request's asynchronous context has failed");
            }
        }

        @Override
        public void complete() {
            throw new IllegalStateException("completed from an application thread after the error");
        }

        @Override
        public void completeWithError(Throwable ex) {
            throw new IllegalStateException("completed from an application thread after the error");
        }
    }

    @AfterEach
    void stop() {
        feed.stop();
    }

    private static OrderEvent cancelled(String customerId, String orderId) {
        return new OrderEvent("e-" + orderId, OrderStatus.CANCELLED, orderId, customerId, "c-" + orderId, "AAPL",
                "NASDAQ", Side.BUY, OrderType.LIMIT, 3, 1, 19_900, "USD", 1_700_000_000_000_000L, "nvirginia");
    }

    private static Fill fill(String customerId, String orderId) {
        return new Fill("f-" + orderId, orderId, customerId, "AAPL", "NASDAQ", Side.BUY, OrderType.LIMIT, 19_900, 3,
                "USD", 7, 1, 2, "nvirginia", "c-" + orderId, 3L, 3L, 59_700L);
    }

    @Test
    void fills_and_order_events_reach_only_their_customers_pages() throws Exception {
        feed.start();
        Page alice = new Page();
        Page bob = new Page();
        feed.subscribe("alice", alice);
        feed.subscribe("bob", bob);
        assertThat(alice.got("hello", "pushedRegions")).isTrue();

        feed.ended(List.of(cancelled("alice", "o-local")));
        assertThat(RemoteRegions.dispatch(feed, DIRECTORY, TOPICS.orderEvents(),
                WireFormat.encode(cancelled("alice", "o-remote")), NVIRGINIA)).isTrue();
        assertThat(RemoteRegions.dispatch(feed, DIRECTORY, TOPICS.fills(), WireFormat.encode(fill("alice", "o-filled")),
                NVIRGINIA)).isTrue();
        assertThat(RemoteRegions.dispatch(feed, DIRECTORY, TOPICS.fills(), WireFormat.encode(fill("bob", "o-bob")),
                NVIRGINIA)).isTrue();

        await().atMost(Duration.ofSeconds(5)).untilAsserted(() -> {
            assertThat(alice.got("orders", "o-local")).isTrue();
            assertThat(alice.got("orders", "o-remote")).isTrue();
            assertThat(alice.got("fills", "o-filled")).isTrue();
            assertThat(alice.got("fills", "orderFilledQuantity=3")).as("the order's totals, for its row").isTrue();
            assertThat(bob.got("fills", "o-bob")).isTrue();
        });
        assertThat(bob.events).noneMatch(e -> e.contains("o-local") || e.contains("o-remote") || e.contains("o-filled"));
        assertThat(alice.events).noneMatch(e -> e.contains("o-bob"));
    }

    @Test
    void a_page_whose_request_failed_is_dropped_and_the_other_pages_are_still_pushed() throws Exception {
        feed.start();
        Page alice = new Page();
        GonePage bob = new GonePage();
        feed.subscribe("bob", bob);
        feed.subscribe("alice", alice);
        bob.gone = true;

        feed.ended(List.of(cancelled("bob", "o-bob")));
        await().atMost(Duration.ofSeconds(5)).until(() -> feed.subscribers() == 1);
        feed.ended(List.of(cancelled("alice", "o-after")));
        await().atMost(Duration.ofSeconds(5)).untilAsserted(() -> assertThat(alice.got("orders", "o-after")).isTrue());
        assertThat(bob.writes).as("one refused write, then nothing more is tried").hasValue(1);
    }

    @Test
    void another_regions_records_that_do_not_decode_are_skipped() throws Exception {
        feed.start();
        Page alice = new Page();
        feed.subscribe("alice", alice);
        byte[] garbage = "{\"fillId\":".getBytes(StandardCharsets.UTF_8);
        assertThat(RemoteRegions.dispatch(feed, DIRECTORY, TOPICS.fills(), garbage, NVIRGINIA)).isFalse();
        assertThat(RemoteRegions.dispatch(feed, DIRECTORY, TOPICS.orderEvents(), WireFormat.encode(fill("alice", "o-1")),
                NVIRGINIA)).as("a fill is no order event").isFalse();
        assertThat(RemoteRegions.dispatch(feed, DIRECTORY, TOPICS.tickers("NYSE"), garbage, NVIRGINIA)).isFalse();
        assertThat(RemoteRegions.dispatch(feed, DIRECTORY, TOPICS.orderEvents(),
                WireFormat.encode(cancelled("alice", "o-after")), NVIRGINIA)).as("the next record goes on").isTrue();
        await().atMost(Duration.ofSeconds(5)).untilAsserted(() -> assertThat(alice.got("orders", "o-after")).isTrue());
        assertThat(alice.events).noneMatch(e -> e.contains("o-1"));
    }
}
