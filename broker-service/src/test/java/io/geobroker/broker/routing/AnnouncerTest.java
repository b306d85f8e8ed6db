package io.geobroker.broker.routing;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;

import static org.assertj.core.api.Assertions.assertThat;

class AnnouncerTest {

    /** A request the test has not let end yet. */
    private record Call(String region, String path, List<?> rows, CompletableFuture<Boolean> done) {
    }

    private final List<Call> calls = new ArrayList<>();
    /** Retries the announcer scheduled, run by the test when it wants them due. */
    private final List<Runnable> retries = new ArrayList<>();

    private Announcer announcer(int inFlight) {
        return new Announcer((region, path, body) -> {
            CompletableFuture<Boolean> done = new CompletableFuture<>();
            calls.add(new Call(region, path, (List<?>) body, done));
            return done;
        }, (task, delay) -> {
            assertThat(delay).isEqualTo(Announcer.RETRY_DELAY_MILLIS);
            retries.add(task);
        }, inFlight);
    }

    private void runRetries() {
        List<Runnable> due = List.copyOf(retries);
        retries.clear();
        due.forEach(Runnable::run);
    }

    private static Forwarded.InboxRow row(String home) {
        return new Forwarded.InboxRow(home, 1, UUID.randomUUID(), UUID.randomUUID(), "sydney", null, 1);
    }

    @Test
    void sends_at_once_while_a_request_is_free_then_the_waiting_rows_together() {
        Announcer announcer = announcer(2);
        announcer.announce(row("nvirginia"));
        announcer.announce(row("nvirginia"));
        announcer.announce(row("nvirginia"));
        announcer.announce(row("nvirginia"));
        assertThat(calls).hasSize(2).allSatisfy(c -> assertThat(c.rows()).hasSize(1));
        assertThat(calls.get(0).path()).isEqualTo("/internal/v1/inbox/batch");

        calls.get(0).done().complete(true);
        assertThat(calls).hasSize(3);
        assertThat(calls.get(2).rows()).hasSize(2);

        calls.get(1).done().complete(true);
        calls.get(2).done().complete(true);
        assertThat(calls).as("nothing left to send").hasSize(3);
        announcer.announce(row("nvirginia"));
        assertThat(calls).hasSize(4);
    }

    @Test
    void each_region_has_its_own_requests() {
        Announcer announcer = announcer(1);
        announcer.announce(row("nvirginia"));
        announcer.announce(row("frankfurt"));
        announcer.announce(row("nvirginia"));
        assertThat(calls).extracting(Call::region).containsExactly("nvirginia", "frankfurt");
        calls.get(0).done().complete(true);
        assertThat(calls).extracting(Call::region).containsExactly("nvirginia", "frankfurt", "nvirginia");
    }

    @Test
    void a_request_holds_at_most_the_batch_limit_and_the_rest_follows() {
        Announcer announcer = announcer(1);
        for (int i = 0; i < 1 + Announcer.MAX_BATCH + 3; i++) {
            announcer.announce(row("nvirginia"));
        }
        calls.get(0).done().complete(true);
        assertThat(calls.get(1).rows()).hasSize(Announcer.MAX_BATCH);
        calls.get(1).done().complete(true);
        assertThat(calls.get(2).rows()).hasSize(3);
    }

    @Test
    void a_request_that_did_not_get_through_is_sent_again_first_once_a_retry_is_due() {
        Announcer announcer = announcer(1);
        Forwarded.InboxRow first = row("nvirginia");
        announcer.announce(first);
        announcer.announce(row("nvirginia"));
        calls.get(0).done().complete(false);
        assertThat(calls).as("nothing while the region is failing").hasSize(1);
        assertThat(retries).hasSize(1);
        announcer.announce(row("nvirginia"));
        assertThat(calls).hasSize(1);

        runRetries();
        assertThat(calls).as("one probe").hasSize(2);
        assertThat(calls.get(1).rows()).hasSize(3).first().isEqualTo(first);
        calls.get(1).done().completeExceptionally(new IllegalStateException("still cut off"));
        assertThat(calls).hasSize(2);
        runRetries();
        assertThat(calls.get(2).rows()).hasSize(3).first().isEqualTo(first);

        calls.get(2).done().complete(true);
        assertThat(retries).isEmpty();
        announcer.announce(row("nvirginia"));
        assertThat(calls).as("back to sending at once").hasSize(4);
    }

    @Test
    void a_backlog_after_a_cut_drains_with_more_requests_at_a_time() {
        Announcer announcer = announcer(1);
        announcer.announce(row("nvirginia"));
        calls.get(0).done().complete(false);
        for (int i = 0; i < 40 * Announcer.MAX_BATCH; i++) {
            announcer.announce(row("nvirginia"));
        }
        runRetries();
        assertThat(calls).hasSize(2);
        calls.get(1).done().complete(true);
        assertThat(calls.subList(2, calls.size())).as("up to the drain limit at once")
                .hasSize(Announcer.DRAIN_IN_FLIGHT).allSatisfy(c -> assertThat(c.rows()).hasSize(Announcer.MAX_BATCH));
        for (int i = 2; i < calls.size(); i++) {
            calls.get(i).done().complete(true);
        }
        int rows = calls.stream().skip(1).mapToInt(c -> c.rows().size()).sum();
        assertThat(rows).as("every row sent once after the cut").isEqualTo(1 + 40 * Announcer.MAX_BATCH);
    }

    @Test
    void a_refused_request_is_not_sent_again() {
        Announcer announcer = announcer(1);
        announcer.announce(row("nvirginia"));
        calls.get(0).done().complete(true);
        assertThat(retries).isEmpty();
        announcer.announce(row("nvirginia"));
        assertThat(calls).hasSize(2);
        assertThat(calls.get(1).rows()).hasSize(1);
    }

    @Test
    void beyond_the_queue_bound_the_oldest_waiting_rows_are_dropped() {
        Announcer announcer = announcer(1);
        announcer.announce(row("nvirginia"));
        calls.get(0).done().complete(false);
        List<Forwarded.InboxRow> waiting = new ArrayList<>();
        for (int i = 0; i < Announcer.MAX_QUEUED + 5; i++) {
            Forwarded.InboxRow r = row("nvirginia");
            waiting.add(r);
            announcer.announce(r);
        }
        runRetries();
        assertThat(calls.get(1).rows().get(0)).as("the failed row and the five oldest waiting were dropped")
                .isEqualTo(waiting.get(5));
    }
}
