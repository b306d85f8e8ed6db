package io.geobroker.broker.matching;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.cql.BoundStatement;
import com.datastax.oss.driver.api.core.cql.PreparedStatement;
import com.datastax.oss.driver.api.core.cql.Row;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.annotation.JsonAutoDetect;
import com.fasterxml.jackson.annotation.PropertyAccessor;

import io.geobroker.broker.daytrading.LogEvent;

import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

/**
 * The engine's day-trading reads and writes: users' stored state (read when first needed) and the
 * statements of the audit log, written in the group that makes their command durable.
 */
final class DayTradingStore {

    /** The user's log events of one group in one hour, written as one row when the group commits. */
    final class Chunk implements Supplier<BoundStatement> {
        final String customerId;
        final long hour;
        final long firstSeq;
        final List<LogEvent> events = new ArrayList<>();

        Chunk(String customerId, long hour, long firstSeq) {
            this.customerId = customerId;
            this.hour = hour;
            this.firstSeq = firstSeq;
        }

        @Override
        public BoundStatement get() {
            try {
                return insertChunk.bind(region, customerId, hour, firstSeq, JSON.writeValueAsString(events));
            } catch (JsonProcessingException e) {
                throw new UncheckedIOException(e);
            }
        }
    }

    private static final ObjectMapper JSON = JsonMapper.builder()
            .visibility(PropertyAccessor.FIELD, JsonAutoDetect.Visibility.ANY)
            .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
            .build();

    private final CqlSession session;
    private final String region;
    private final PreparedStatement selectUser;
    private final PreparedStatement insertUser;
    private final PreparedStatement insertChunk;
    private final PreparedStatement insertHour;
    private final PreparedStatement insertUserHour;
    private final PreparedStatement insertDay;

    DayTradingStore(CqlSession session, String region) {
        this.session = session;
        this.region = region;
        selectUser = session.prepare("SELECT state FROM day_trading_users WHERE region = ? AND customer_id = ?");
        insertUser = session.prepare("INSERT INTO day_trading_users (region, customer_id, state) VALUES (?, ?, ?)");
        insertChunk = session.prepare("INSERT INTO day_trading_log (region, customer_id, hour, first_seq, events) "
                + "VALUES (?, ?, ?, ?, ?)");
        insertHour = session.prepare("INSERT INTO day_trading_log_hours (region, customer_id, hour) VALUES (?, ?, ?)");
        insertUserHour = session.prepare("INSERT INTO day_trading_log_users (region, day, hour, customer_id) VALUES (?, ?, ?, ?)");
        insertDay = session.prepare("INSERT INTO day_trading_log_days (region, day) VALUES (?, ?)");
    }

    /** A user's stored state, or null when it has none. */
    DayTrader.State user(String customerId) {
        Row r = session.execute(selectUser.bind(region, customerId)).one();
        if (r == null || r.isNull("state")) {
            return null;
        }
        try {
            return JSON.readValue(r.getString("state"), DayTrader.State.class);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("the stored day-trading state of " + customerId + " does not parse", e);
        }
    }

    BoundStatement user(DayTrader trader) {
        try {
            return insertUser.bind(region, trader.customerId, JSON.writeValueAsString(trader.state()));
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The index rows that let a dump find the user's partition of {@code hour}. */
    BoundStatement hour(String customerId, long hour) {
        return insertHour.bind(region, customerId, hour);
    }

    BoundStatement userHour(String customerId, long hour) {
        return insertUserHour.bind(region, Math.floorDiv(hour, 24), hour, customerId);
    }

    BoundStatement day(long day) {
        return insertDay.bind(region, day);
    }
}
