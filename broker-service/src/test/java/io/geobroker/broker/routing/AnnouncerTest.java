package io.geobroker.broker.routing;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;

import static org.assertj.core.api.Assertions.assertThat;

class AnnouncerTest {

    /** A request the test has not let end yet. */
    private record Call(String region, String path, List<?> rows, CompletableFuture<Void> done) {
    }

    private final List<Call> calls = new ArrayList<>();

    private Announcer announcer(int inFlight) {
        return new Announcer((region, path, body) -> {
            CompletableFuture<Void> done = new CompletableFuture<>();
            calls.add(new Call(region, path, (List<?>) body, done));
            return done;
        }, inFlight);
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

        calls.get(0).done().complete(null);
        assertThat(calls).hasSize(3);
        assertThat(calls.get(2).rows()).hasSize(2);

        calls.get(1).done().complete(null);
        calls.get(2).done().complete(null);
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
        calls.get(0).done().complete(null);
        assertThat(calls).extracting(Call::region).containsExactly("nvirginia", "frankfurt", "nvirginia");
    }

    @Test
    void a_request_holds_at_most_the_batch_limit_and_the_rest_follows() {
        Announcer announcer = announcer(1);
        for (int i = 0; i < 1 + Announcer.MAX_BATCH + 3; i++) {
            announcer.announce(row("nvirginia"));
        }
        calls.get(0).done().complete(null);
        assertThat(calls.get(1).rows()).hasSize(Announcer.MAX_BATCH);
        calls.get(1).done().complete(null);
        assertThat(calls.get(2).rows()).hasSize(3);
    }

    @Test
    void a_failed_request_frees_its_place_like_an_answered_one() {
        Announcer announcer = announcer(1);
        announcer.announce(row("nvirginia"));
        announcer.announce(row("nvirginia"));
        calls.get(0).done().completeExceptionally(new IllegalStateException("cut off"));
        assertThat(calls).hasSize(2);
    }

    @Test
    void beyond_the_queue_bound_the_oldest_waiting_rows_are_dropped() {
        Announcer announcer = announcer(1);
        announcer.announce(row("nvirginia"));
        List<Forwarded.InboxRow> waiting = new ArrayList<>();
        for (int i = 0; i < Announcer.MAX_QUEUED + 5; i++) {
            Forwarded.InboxRow r = row("nvirginia");
            waiting.add(r);
            announcer.announce(r);
        }
        calls.get(0).done().complete(null);
        assertThat(calls.get(1).rows().get(0)).isEqualTo(waiting.get(5));
    }
}
