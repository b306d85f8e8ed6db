package io.geobroker.broker.it;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.cql.ExecutionInfo;
import com.datastax.oss.driver.api.core.cql.ResultSet;
import com.datastax.oss.driver.api.core.cql.Row;
import com.datastax.oss.driver.api.core.cql.SimpleStatement;
import com.datastax.oss.driver.api.core.cql.TraceEvent;
import io.geobroker.testsupport.StackContext;
import io.geobroker.testsupport.WithLocalStack;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import java.time.Duration;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Reading a symbol's open orders stays clear of tombstones however many orders were filled or
 * cancelled: after {@code FILLS} fills the broker's start-up read of the symbol's current
 * open_orders partition is traced, and Cassandra's own count of tombstone cells it read is checked.
 * {@code -Dgeobroker.it.tombstone-fills=1000000} runs the same check at a million fills (hours of
 * REST calls on a laptop; the bound does not depend on the count).
 */
@WithLocalStack
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class TombstoneIT {

    private static final int DELETIONS_PER_GENERATION = 25;
    private static final int FILLS = Integer.getInteger("geobroker.it.tombstone-fills", 300);
    private static final Pattern READ = Pattern.compile("Read (\\d+) live rows? and (\\d+) tombstone cells?");

    private TestStack stack;
    private InProcessBroker broker;
    private Exchange exchange;

    @BeforeAll
    void start(StackContext context) {
        stack = TestStack.of(context);
        broker = new InProcessBroker(stack, "nvirginia", stack.testAddress(22),
                Map.of("geobroker.engine.deletions-per-generation", DELETIONS_PER_GENERATION));
        exchange = new Exchange(stack.kafkaBootstrap("nvirginia"), stack.topics());
    }

    @AfterAll
    void stop() {
        if (exchange != null) {
            exchange.close();
        }
        if (broker != null) {
            broker.close();
        }
    }

    @Test
    void reading_open_orders_after_many_fills_touches_few_tombstones() {
        BrokerApi api = broker.api;
        String token = api.customer("tomb", (long) FILLS * 10_000 * 2);
        int resting = 10;
        for (int i = 0; i < FILLS + resting; i++) {
            BrokerApi.Response r = api.place(token, "t" + i, "ORCL", "BUY", "LIMIT", 1, "limitPrice",
                    i < FILLS ? 10_000 : 5_000, "timeInForce", "GTC");
            assertThat(r.status()).isEqualTo(201);
        }
        long tickers = 0;
        for (int filled = 0; filled < FILLS; filled += 7) {
            tickers = exchange.tick("ORCL", 10_000, Math.min(7, FILLS - filled));
        }
        long last = tickers;
        CqlSession session = stack.session("nvirginia");
        await().atMost(Duration.ofSeconds(120)).until(() -> lastTicker(session) >= last);

        Row state = session.execute(SimpleStatement.newInstance(
                "SELECT generation, deletions FROM symbol_state WHERE symbol = 'ORCL'")).one();
        int generation = state.getInt("generation");
        assertThat(generation).as("the symbol moved to new generations").isGreaterThanOrEqualTo(FILLS / (DELETIONS_PER_GENERATION * 2));

        ResultSet rs = session.execute(SimpleStatement.newInstance(
                "SELECT order_id FROM open_orders WHERE symbol = 'ORCL' AND generation = ?", generation).setTracing(true));
        int live = rs.all().size();
        ExecutionInfo info = rs.getExecutionInfo();
        long tombstones = 0;
        long liveRead = 0;
        for (TraceEvent event : info.getQueryTrace().getEvents()) {
            Matcher m = READ.matcher(event.getActivity());
            if (m.find()) {
                liveRead += Long.parseLong(m.group(1));
                tombstones += Long.parseLong(m.group(2));
            }
        }
        System.out.printf("tombstones: %d fills, generation %d, current partition read %d live rows and %d tombstone cells%n",
                FILLS, generation, liveRead, tombstones);
        assertThat(live).isEqualTo(resting);
        assertThat(api.get(token, "/api/v1/orders?status=OPEN&pageSize=500").body().path("items")).hasSize(resting);
        assertThat(liveRead).as("the trace reported the read").isEqualTo(resting);
        assertThat(tombstones).as("bounded by deletions per generation plus one group, not by the fill count")
                .isLessThan(DELETIONS_PER_GENERATION + 100L);
        assertThat(session.execute(SimpleStatement.newInstance(
                "SELECT order_id FROM open_orders WHERE symbol = 'ORCL' AND generation = 0")).all())
                .as("the first generation was dropped").isEmpty();
    }

    private static long lastTicker(CqlSession session) {
        Row row = session.execute(SimpleStatement.newInstance(
                "SELECT last_ticker_sequence FROM symbol_state WHERE symbol = 'ORCL'")).one();
        return row == null ? 0 : row.getLong("last_ticker_sequence");
    }
}
