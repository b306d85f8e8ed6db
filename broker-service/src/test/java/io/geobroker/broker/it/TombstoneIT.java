package io.geobroker.broker.it;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.cql.ExecutionInfo;
import com.datastax.oss.driver.api.core.cql.ResultSet;
import com.datastax.oss.driver.api.core.cql.Row;
import com.datastax.oss.driver.api.core.cql.SimpleStatement;
import com.datastax.oss.driver.api.core.cql.TraceEvent;
import io.geobroker.broker.matching.Engine;
import io.geobroker.broker.matching.Outcomes;
import io.geobroker.broker.order.NewOrder;
import io.geobroker.domain.OrderType;
import io.geobroker.domain.Side;
import io.geobroker.domain.SymbolDirectory;
import io.geobroker.domain.SymbolInfo;
import io.geobroker.domain.TimeInForce;
import io.geobroker.testsupport.StackContext;
import io.geobroker.testsupport.WithLocalStack;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Reading a symbol's open orders stays clear of tombstones however many orders were filled or
 * cancelled: after {@code FILLS} fills the symbol's current generation in symbol_orders is read with
 * query tracing, and Cassandra's own count of tombstone cells it read is checked.
 *
 * <p>Orders are placed through REST by concurrent callers in rounds, each round then filled by
 * tickers of {@code PER_TICKER} shares. CI runs 300 fills in one round, 7 per ticker; larger runs
 * place one ticker's worth per round, so the broker never holds more than a round in memory and a
 * round's fills are one engine group. {@code -Dgeobroker.it.tombstone-fills=1000000} (run once for
 * the README: 19 minutes on the shared build machine) runs the same check at that size, 2 000 fills
 * per ticker unless {@code -Dgeobroker.it.tombstone-fills-per-ticker} says
 * otherwise.
 */
@WithLocalStack
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class TombstoneIT {

    private static final int DELETIONS_PER_GENERATION = 25;
    private static final int FILLS = Integer.getInteger("geobroker.it.tombstone-fills", 300);
    private static final int PER_TICKER = Integer.getInteger("geobroker.it.tombstone-fills-per-ticker",
            FILLS <= 1_000 ? 7 : 2_000);
    /** Orders placed before the tickers that fill them: all at once in CI, one ticker's worth in large runs. */
    private static final int ROUND = FILLS <= 1_000 ? FILLS : PER_TICKER;
    /** Concurrent REST callers: each placement waits for its group commit, so more callers make bigger groups. */
    private static final int CLIENTS = FILLS <= 1_000 ? 4 : 128;
    /** Spreads the fills' ledger entries over several customers' partitions. */
    private static final int FILLS_PER_CUSTOMER = 50_000;
    private static final long PRICE = 10_000;
    private static final Pattern READ = Pattern.compile("Read (\\d+) live rows? and (\\d+) tombstone cells?");

    private TestStack stack;
    private Map<String, Object> properties;
    @AutoClose
    private InProcessBroker broker;
    @AutoClose
    private Exchange exchange;
    @AutoClose("shutdownNow")
    private ExecutorService clients;

    @BeforeAll
    void start(StackContext context) {
        stack = TestStack.of(context);
        properties = new HashMap<>(Map.of(
                "geobroker.engine.deletions-per-generation", DELETIONS_PER_GENERATION));
        if (FILLS > 1_000) {
            // Large runs: big groups for the many concurrent placements; a round's fill group (about
            // 2 MB) then goes through the engine's journal and 1 MiB batches.
            properties.putAll(Map.of(
                    "geobroker.engine.max-group-commands", 512,
                    "geobroker.engine.max-group-statements", 4_000,
                    "geobroker.engine.max-batch-bytes", 1_048_576,
                    "server.tomcat.threads.max", CLIENTS + 32));
        }
        broker = new InProcessBroker(stack, "nvirginia", stack.testAddress(22), properties);
        exchange = new Exchange(stack.kafkaBootstrap("nvirginia"), stack.topics());
        clients = Executors.newFixedThreadPool(CLIENTS);
    }

    @Test
    void reading_open_orders_after_many_fills_touches_few_tombstones() throws Exception {
        BrokerApi api = broker.api;
        int customers = (FILLS + FILLS_PER_CUSTOMER - 1) / FILLS_PER_CUSTOMER;
        List<String> tokens = new ArrayList<>();
        List<String> customerIds = new ArrayList<>();
        for (int c = 0; c < customers; c++) {
            tokens.add(api.customer("tomb" + c, (FILLS_PER_CUSTOMER + 1L) * PRICE));
            customerIds.add("tomb" + c);
        }
        int resting = 10;
        String restingToken = api.customer("tomb-resting", resting * PRICE);
        for (int i = 0; i < resting; i++) {
            assertThat(api.place(restingToken, "r" + i, "ORCL", "BUY", "LIMIT", 1, "limitPrice", PRICE / 2,
                    "timeInForce", "GTC").status()).isEqualTo(201);
        }
        CqlSession session = stack.session("nvirginia");
        long started = System.nanoTime();
        long placingNanos = 0;
        for (int placed = 0; placed < FILLS; placed += ROUND) {
            int round = Math.min(ROUND, FILLS - placed);
            long roundStart = System.nanoTime();
            if (FILLS > 1_000) {
                placeThroughEngine(customerIds, placed, round);
            } else {
                place(api, tokens, placed, round);
            }
            placingNanos += System.nanoTime() - roundStart;
            long last = 0;
            for (int filled = 0; filled < round; filled += PER_TICKER) {
                last = exchange.tick("ORCL", PRICE, Math.min(PER_TICKER, round - filled));
            }
            long lastTicker = last;
            await().atMost(Duration.ofSeconds(300)).until(() -> settled(session, lastTicker));
            if (FILLS > 1_000 && (placed / ROUND) % 25 == 0) {
                System.out.printf("tombstones: %d of %d fills after %d s%n", placed + round, FILLS,
                        (System.nanoTime() - started) / 1_000_000_000);
            }
        }
        long seconds = (System.nanoTime() - started) / 1_000_000_000;

        Row state = session.execute(SimpleStatement.newInstance(
                "SELECT generation, deletions FROM symbol_state WHERE symbol = 'ORCL'")).one();
        int generation = state.getInt("generation");
        // a round's fills leave a book of the resting orders only: more deletions than both the fixed limit
        // and two per resting order, so at least one move per round
        assertThat(generation).as("the symbol moved to a new generation at least once per round")
                .isGreaterThanOrEqualTo((FILLS + ROUND - 1) / ROUND);

        ResultSet rs = session.execute(SimpleStatement.newInstance(
                "SELECT order_id FROM symbol_orders WHERE symbol = 'ORCL' AND generation = ?", generation).setTracing(true));
        int live = rs.all().size();
        ExecutionInfo info = rs.getExecutionInfo();
        long tombstones = 0;
        long liveRead = 0;
        StringBuilder trace = new StringBuilder();
        for (TraceEvent event : info.getQueryTrace().getEvents()) {
            trace.append("  ").append(event.getSourceElapsedMicros()).append(" us ").append(event.getActivity()).append('\n');
            Matcher m = READ.matcher(event.getActivity());
            if (m.find()) {
                liveRead += Long.parseLong(m.group(1));
                tombstones += Long.parseLong(m.group(2));
            }
        }
        System.out.printf("tombstones: %d fills (%d per ticker, %d customers) in %d s (placing %d s), generation %d, "
                        + "current partition read %d live rows and %d tombstone cells; trace:%n%s",
                FILLS, PER_TICKER, customers, seconds, placingNanos / 1_000_000_000, generation, liveRead, tombstones,
                trace);
        long filled = 0;
        for (String token : tokens) {
            filled += api.shares(token, "ORCL")[0];
        }
        assertThat(filled).as("every order filled").isEqualTo(FILLS);
        assertThat(live).isEqualTo(resting);
        assertThat(api.get(restingToken, "/api/v1/orders?status=OPEN&pageSize=500").body().path("items")).hasSize(resting);
        assertThat(liveRead).as("the trace reported the read").isEqualTo(resting);
        assertThat(tombstones).as("fewer row tombstones than deletions per generation, plus the two null cells "
                        + "(stop price, expiry) of each live GTC limit order; not the fill count, not one group's fills")
                .isLessThanOrEqualTo(DELETIONS_PER_GENERATION - 1 + 2L * liveRead);
        assertThat(session.execute(SimpleStatement.newInstance(
                "SELECT order_id FROM symbol_orders WHERE symbol = 'ORCL' AND generation = 0")).all())
                .as("the first generation was dropped").isEmpty();

        long republishFrom = session.execute(SimpleStatement.newInstance(
                "SELECT last_group_first_sequence FROM symbol_state WHERE symbol = 'ORCL'")).one().getLong(0);
        long kept = session.execute(SimpleStatement.newInstance(
                "SELECT count(*) FROM symbol_fills WHERE symbol = 'ORCL'")).one().getLong(0);
        long below = session.execute(SimpleStatement.newInstance("SELECT count(*) FROM symbol_fills "
                + "WHERE symbol = 'ORCL' AND ticker_sequence < ?", republishFrom)).one().getLong(0);
        System.out.printf("tombstones: symbol_fills keeps %d of the %d fills (from ticker %d on)%n", kept, FILLS,
                republishFrom);
        assertThat(below).as("no fill below the point a restart republishes from").isZero();
        assertThat(kept).as("the symbol's partition keeps the fills a restart may publish again, not all")
                .isPositive().isLessThan(FILLS);

        // A symbol's moves after its first since the start went in their groups' log slots: a broker
        // started again rebuilds the book from such a generation, and its resting orders fill.
        assertThat(generation).as("the symbol moved more than once").isGreaterThanOrEqualTo(2);
        broker.close();
        broker = new InProcessBroker(stack, "nvirginia", stack.testAddress(22), properties);
        exchange.tick("ORCL", PRICE / 2, resting);
        await().atMost(Duration.ofSeconds(60)).untilAsserted(() -> assertThat(
                broker.api.shares(restingToken, "ORCL")[0]).as("the resting orders filled after the restart")
                .isEqualTo(resting));
    }

    /** Places orders {@code first .. first+count-1} (one share at PRICE each) with CLIENTS concurrent callers. */
    private void place(BrokerApi api, List<String> tokens, int first, int count)
            throws InterruptedException, ExecutionException {
        List<Future<?>> calls = new ArrayList<>();
        for (int t = 0; t < CLIENTS; t++) {
            int lane = t;
            calls.add(clients.submit(() -> {
                for (int i = first + lane; i < first + count; i += CLIENTS) {
                    BrokerApi.Response r = api.place(tokens.get(i / FILLS_PER_CUSTOMER), "t" + i, "ORCL", "BUY",
                            "LIMIT", 1, "limitPrice", PRICE, "timeInForce", "GTC");
                    assertThat(r.status()).as("placing t%d: %s", i, r).isEqualTo(201);
                }
            }));
        }
        for (Future<?> call : calls) {
            call.get();
        }
    }

    /**
     * Large runs place straight into the engine (where the REST layer's placements end up, after validation):
     * what is measured is the symbol's generations in symbol_orders after the fills, and REST placement would take
     * most of an hour for a million orders on this machine.
     */
    private void placeThroughEngine(List<String> customerIds, int first, int count) {
        Engine engine = broker.bean(Engine.class);
        SymbolDirectory directory = SymbolDirectory.standard();
        SymbolInfo orcl = directory.symbol("ORCL").orElseThrow();
        List<CompletableFuture<Outcomes.Placement>> placements = new ArrayList<>();
        for (int i = first; i < first + count; i++) {
            String customer = customerIds.get(i / FILLS_PER_CUSTOMER);
            placements.add(engine.place(new NewOrder(UUID.randomUUID(), customer, "t" + i, orcl, directory.currencyOf(orcl), Side.BUY,
                    OrderType.LIMIT, TimeInForce.GTC, false, 1, PRICE, null, "nvirginia", "nvirginia")));
        }
        for (CompletableFuture<Outcomes.Placement> p : placements) {
            assertThat(p.join().result()).isEqualTo(Outcomes.PlaceResult.CREATED);
        }
    }

    /**
     * Whether the broker has made the ticker durable. Nothing more is awaited: a generation move is
     * part of the group that triggers it, so every durable state must already read clean.
     */
    private static boolean settled(CqlSession session, long ticker) {
        Row row = session.execute(SimpleStatement.newInstance(
                "SELECT last_ticker_sequence, deletions FROM symbol_state WHERE symbol = 'ORCL'")).one();
        return row != null && row.getLong("last_ticker_sequence") >= ticker;
    }
}
