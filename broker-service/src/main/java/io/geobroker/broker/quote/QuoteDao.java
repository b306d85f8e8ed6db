package io.geobroker.broker.quote;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.cql.PreparedStatement;
import com.datastax.oss.driver.api.core.cql.Row;
import org.springframework.stereotype.Repository;

import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/** The latest ticker per symbol ({@code quotes}), written by each symbol's home broker. */
@Repository
public class QuoteDao {

    /** The latest price of a symbol: minor units, the volume available at it, and when the exchange sent it. */
    public record Quote(String symbol, String exchange, long price, long volume, long sequence,
                        long exchangeTimeMicros, Instant updatedAt) {
    }

    private final CqlSession session;
    private final PreparedStatement one;
    private final PreparedStatement all;

    public QuoteDao(CqlSession session) {
        this.session = session;
        one = session.prepare("SELECT * FROM quotes WHERE symbol = ?");
        all = session.prepare("SELECT * FROM quotes");
    }

    public Optional<Quote> find(String symbol) {
        return Optional.ofNullable(session.execute(one.bind(symbol)).one()).map(QuoteDao::map);
    }

    /** Every quote; the table has one small row per listed symbol. */
    public Map<String, Quote> all() {
        Map<String, Quote> quotes = new LinkedHashMap<>();
        for (Row r : session.execute(all.bind())) {
            Quote q = map(r);
            quotes.put(q.symbol(), q);
        }
        return quotes;
    }

    private static Quote map(Row r) {
        return new Quote(r.getString("symbol"), r.getString("exchange"), r.getLong("price"), r.getLong("volume"),
                r.getLong("sequence"), r.getLong("exchange_time_micros"), r.getInstant("updated_at"));
    }
}
