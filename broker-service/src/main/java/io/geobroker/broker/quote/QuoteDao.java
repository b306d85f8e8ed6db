package io.geobroker.broker.quote;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.cql.PreparedStatement;
import com.datastax.oss.driver.api.core.cql.Row;
import io.geobroker.domain.SymbolDirectory;
import org.springframework.stereotype.Repository;

import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * The latest ticker per symbol, as its home broker's engine made it durable: the {@code quote_*}
 * columns of {@code symbol_state} (schema V005), written with the symbol's progress in each group
 * commit and replicated to every DC like the rest of the keyspace.
 */
@Repository
public class QuoteDao {

    /** The latest price of a symbol: minor units, the volume available at it, and when the exchange sent it. */
    public record Quote(String symbol, String exchange, long price, long volume, long sequence,
                        long exchangeTimeMicros, Instant updatedAt) {
    }

    private static final String COLUMNS = "symbol, quote_price, quote_volume, quote_sequence, "
            + "quote_exchange_time_micros, quote_updated_at";

    private final CqlSession session;
    private final SymbolDirectory directory;
    private final PreparedStatement one;
    private final PreparedStatement all;

    public QuoteDao(CqlSession session, SymbolDirectory directory) {
        this.session = session;
        this.directory = directory;
        one = session.prepare("SELECT " + COLUMNS + " FROM symbol_state WHERE symbol = ?");
        all = session.prepare("SELECT " + COLUMNS + " FROM symbol_state");
    }

    public Optional<Quote> find(String symbol) {
        return Optional.ofNullable(session.execute(one.bind(symbol)).one()).flatMap(this::map);
    }

    /** Every quote; the table has one small row per symbol any region has written. */
    public Map<String, Quote> all() {
        Map<String, Quote> quotes = new LinkedHashMap<>();
        for (Row r : session.execute(all.bind())) {
            map(r).ifPresent(q -> quotes.put(q.symbol(), q));
        }
        return quotes;
    }

    /** A row's quote, if the symbol has had a ticker and is listed. */
    private Optional<Quote> map(Row r) {
        if (r.isNull("quote_sequence")) {
            return Optional.empty();
        }
        String symbol = r.getString("symbol");
        return directory.symbol(symbol).map(info -> new Quote(symbol, info.exchange(), r.getLong("quote_price"),
                r.getLong("quote_volume"), r.getLong("quote_sequence"), r.getLong("quote_exchange_time_micros"),
                r.getInstant("quote_updated_at")));
    }
}
