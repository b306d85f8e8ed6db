package io.geobroker.broker.it;

import com.fasterxml.jackson.databind.JsonNode;
import io.geobroker.broker.order.OrderIds;
import io.geobroker.testsupport.StackContext;
import io.geobroker.testsupport.WithLocalStack;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;
import static org.awaitility.Awaitility.await;

/**
 * One order per (customer, clientOrderId) whatever region it is placed through and when: a Sydney
 * broker and an N. Virginia broker on the shared two-DC stack (Cassandra replicating across the
 * emulated WAN), the same client order ids of an ASX limit order placed through both at once — the
 * client retrying against the other region inside the replication window — then cancelled through
 * either. Every region must end with the home's decision (Sydney's), one list entry per order, and
 * Sydney's cash reservation matching the orders it holds open.
 */
@WithLocalStack
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ClientOrderIdRaceIT {

    private static final String SYMBOL = "BHP";
    private static final long LIMIT = 100;
    private static final long QUANTITY = 10;
    /** Well above the replication across the emulated WAN and an inbox tail read; the goal is 10 s. */
    private static final Duration SETTLED = Duration.ofSeconds(10);

    private final String peerToken = "peer-" + UUID.randomUUID();
    private TestStack stack;
    private InProcessBroker sydney;
    private InProcessBroker nvirginia;
    private ExecutorService clients;

    @BeforeAll
    void start(StackContext context) {
        stack = TestStack.of(context);
        String sydneyAddress = stack.testAddress(30);
        String nvirginiaAddress = stack.testAddress(31);
        Map<String, Object> extra = TestStack.peeredBrokers(sydneyAddress, nvirginiaAddress, peerToken);
        // The sweep, which finds inbox rows the tail missed, at its default (15 s) would come after the
        // checks: the rows this test makes must be taken by the announcement or the tail.
        sydney = new InProcessBroker(stack, "sydney", sydneyAddress, extra);
        nvirginia = new InProcessBroker(stack, "nvirginia", nvirginiaAddress, extra);
        clients = Executors.newFixedThreadPool(20);
    }

    @AfterAll
    void stop() {
        clients.shutdownNow();
        if (nvirginia != null) {
            nvirginia.close();
        }
        if (sydney != null) {
            sydney.close();
        }
    }

    /**
     * A placement's idempotency read looks one order id up in every sstable of its customer's
     * partition, which holds all the customer's orders: the local stack's nodes index a partition's
     * rows every KiB (BTI's default is 16), so a lookup reads past a few rows, not tens.
     */
    @Test
    void every_dc_indexes_a_partitions_rows_every_kib() {
        for (String region : List.of("sydney", "nvirginia")) {
            var row = stack.session(region)
                    .execute("SELECT value FROM system_views.settings WHERE name = 'column_index_size'").one();
            assertThat(row).as(region).isNotNull();
            assertThat(row.getString("value")).as(region).isEqualTo("1KiB");
        }
    }

    /**
     * From a 512 MB heap on, a node's memtables may take half of it, so they are flushed less often
     * and the customers' partitions spread over fewer sstables (the local stack's CassandraNode).
     */
    @Test
    void every_dc_keeps_half_of_a_512_mb_heap_for_memtables() {
        int heapMb = Integer.getInteger("geobroker.stack.cassandra-heap-mb", 512);
        assumeThat(heapMb).as("the tests' stack runs Cassandra with at least 512 MB of heap").isGreaterThanOrEqualTo(512);
        for (String region : List.of("sydney", "nvirginia")) {
            var row = stack.session(region)
                    .execute("SELECT value FROM system_views.settings WHERE name = 'memtable_heap_space'").one();
            assertThat(row).as(region).isNotNull();
            assertThat(row.getString("value")).as(region).isEqualTo(heapMb / 2 + "MiB");
        }
    }

    @Test
    void the_same_client_order_id_placed_through_both_regions_at_once_is_one_order_everywhere() throws Exception {
        String token = customerWithAud("race-" + UUID.randomUUID().toString().substring(0, 8), 10_000_000);
        List<String> ids = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            ids.add("pair-" + i);
        }
        Map<String, Set<Integer>> statuses = new HashMap<>();
        for (String id : ids) {
            statuses.put(id, placeConcurrently(token, id, 1, 1));
        }
        String single = "many";
        Set<Integer> manyStatuses = placeConcurrently(token, single, 10, 10);
        ids.add(single);

        for (Set<Integer> s : statuses.values()) {
            assertThat(s).isSubsetOf(200, 201, 202);
        }
        assertThat(manyStatuses).isSubsetOf(200, 201, 202);
        long started = System.nanoTime();
        await().atMost(SETTLED).pollInterval(Duration.ofMillis(200)).untilAsserted(() -> assertSettled(token, ids, Set.of()));
        System.out.printf("race: %d orders placed through both regions settled in %d ms%n", ids.size(),
                (System.nanoTime() - started) / 1_000_000);
        await().during(Duration.ofSeconds(3)).atMost(Duration.ofSeconds(5)).pollInterval(Duration.ofMillis(500))
                .untilAsserted(() -> assertSettled(token, ids, Set.of()));
    }

    @Test
    void an_order_placed_through_both_regions_and_cancelled_through_either_is_cancelled_everywhere() throws Exception {
        String customerId = "cancel-" + UUID.randomUUID().toString().substring(0, 8);
        String token = customerWithAud(customerId, 10_000_000);
        List<String> ids = List.of("c-0", "c-1", "c-2", "c-3");
        for (String id : ids) {
            placeConcurrently(token, id, 1, 1);
        }
        for (int i = 0; i < ids.size(); i++) {
            InProcessBroker through = i % 2 == 0 ? nvirginia : sydney;
            String orderId = OrderIds.orderId(customerId, ids.get(i)).toString();
            BrokerApi.Response cancelled = through.api.cancel(token, orderId);
            assertThat(cancelled.status()).as(ids.get(i) + " " + cancelled.body()).isEqualTo(200);
        }
        await().atMost(SETTLED).pollInterval(Duration.ofMillis(200))
                .untilAsserted(() -> assertSettled(token, ids, new HashSet<>(ids)));
        await().during(Duration.ofSeconds(3)).atMost(Duration.ofSeconds(5)).pollInterval(Duration.ofMillis(500))
                .untilAsserted(() -> assertSettled(token, ids, new HashSet<>(ids)));
    }

    /** Places one client order id through Sydney and N. Virginia at the same moment; the statuses answered. */
    private Set<Integer> placeConcurrently(String token, String clientOrderId, int throughSydney, int throughNvirginia)
            throws Exception {
        CountDownLatch go = new CountDownLatch(1);
        List<Future<Integer>> answers = new ArrayList<>();
        for (int i = 0; i < throughSydney + throughNvirginia; i++) {
            InProcessBroker broker = i < throughSydney ? sydney : nvirginia;
            answers.add(clients.submit(() -> {
                go.await();
                return broker.api.place(token, clientOrderId, SYMBOL, "BUY", "LIMIT", QUANTITY, "limitPrice", LIMIT,
                        "timeInForce", "GTC").status();
            }));
        }
        go.countDown();
        Set<Integer> statuses = new HashSet<>();
        for (Future<Integer> answer : answers) {
            statuses.add(answer.get());
        }
        return statuses;
    }

    /**
     * Both regions: each order once in the list and with the status Sydney decided (OPEN, or
     * CANCELLED for those given), and Sydney's AUD reservation exactly that of its open orders.
     */
    private void assertSettled(String token, List<String> clientOrderIds, Set<String> cancelled) {
        for (InProcessBroker broker : List.of(sydney, nvirginia)) {
            List<JsonNode> listed = list(broker, token);
            Map<String, Integer> entries = new HashMap<>();
            for (JsonNode o : listed) {
                entries.merge(o.path("clientOrderId").asText(), 1, Integer::sum);
            }
            for (String id : clientOrderIds) {
                String where = broker == sydney ? "sydney" : "nvirginia";
                assertThat(entries.get(id)).as(where + " list entries of " + id).isEqualTo(1);
                JsonNode order = listed.stream().filter(o -> o.path("clientOrderId").asText().equals(id)).findFirst()
                        .orElseThrow();
                assertThat(order.path("status").asText()).as(where + " status of " + id)
                        .isEqualTo(cancelled.contains(id) ? "CANCELLED" : "OPEN");
                assertThat(order.path("homeRegion").asText()).isEqualTo("sydney");
            }
        }
        long open = clientOrderIds.stream().filter(id -> !cancelled.contains(id)).count();
        assertThat(sydney.api.cash(token, "AUD")[1]).as("AUD reserved in Sydney").isEqualTo(open * QUANTITY * LIMIT);
    }

    private static List<JsonNode> list(InProcessBroker broker, String token) {
        List<JsonNode> all = new ArrayList<>();
        String pageToken = null;
        do {
            BrokerApi.Response page = broker.api.get(token, "/api/v1/orders?pageSize=500"
                    + (pageToken == null ? "" : "&pageToken=" + pageToken));
            assertThat(page.status()).isEqualTo(200);
            page.body().path("items").forEach(all::add);
            pageToken = page.body().hasNonNull("nextPageToken") ? page.body().path("nextPageToken").asText() : null;
        } while (pageToken != null);
        return all;
    }

    /** A customer created in Sydney, known to N. Virginia once replicated, with AUD cash in Sydney. */
    private String customerWithAud(String customerId, long aud) {
        String token = sydney.api.customer(customerId);
        BrokerApi.Response deposit = sydney.api.send("POST", "/api/v1/account/deposits", token,
                Map.of("currency", "AUD", "amount", aud));
        assertThat(deposit.status()).isEqualTo(201);
        await().atMost(Duration.ofSeconds(10)).untilAsserted(() ->
                assertThat(nvirginia.api.get(token, "/api/v1/account/balances").status()).isEqualTo(200));
        return token;
    }
}
