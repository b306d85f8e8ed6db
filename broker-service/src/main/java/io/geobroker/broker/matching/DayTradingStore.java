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

import java.io.UncheckedIOException;
import java.time.Instant;

/**
 * The engine's day-trading reads and writes: users' stored state (read when first needed) and the
 * statements of the audit log, written in the group that makes their command durable.
 */
final class DayTradingStore {

    /** One audit-log event as stored; null fields are left unset (no tombstones). */
    record Event(String customerId, long hour, long transactionNum, long seq, String kind, Instant loggedAt,
                 String command, String stockSymbol, String filename, Long funds, Long price, Long quoteServerTime,
                 String cryptokey, String action, String message) {
    }

    private static final ObjectMapper JSON = JsonMapper.builder()
            .visibility(PropertyAccessor.FIELD, JsonAutoDetect.Visibility.ANY)
            .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
            .build();

    private final CqlSession session;
    private final String region;
    private final PreparedStatement selectUser;
    private final PreparedStatement insertUser;
    private final PreparedStatement insertEvent;
    private final PreparedStatement insertHour;
    private final PreparedStatement insertUserHour;
    private final PreparedStatement insertDay;

    DayTradingStore(CqlSession session, String region) {
        this.session = session;
        this.region = region;
        selectUser = session.prepare("SELECT state FROM day_trading_users WHERE region = ? AND customer_id = ?");
        insertUser = session.prepare("INSERT INTO day_trading_users (region, customer_id, state) VALUES (?, ?, ?)");
        insertEvent = session.prepare("INSERT INTO day_trading_log (region, customer_id, hour, transaction_num, event_seq, "
                + "kind, logged_at, command, stock_symbol, filename, funds, price, quote_server_time, cryptokey, action, "
                + "message) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)");
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

    BoundStatement event(Event e) {
        return EngineStore.withoutNulls(insertEvent.bind(region, e.customerId(), e.hour(), e.transactionNum(), e.seq(),
                e.kind(), e.loggedAt(), e.command(), e.stockSymbol(), e.filename(), e.funds(), e.price(),
                e.quoteServerTime(), e.cryptokey(), e.action(), e.message()));
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
