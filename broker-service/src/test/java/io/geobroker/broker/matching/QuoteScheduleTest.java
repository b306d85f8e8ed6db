package io.geobroker.broker.matching;

import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class QuoteScheduleTest {

    private static final long SECOND = 1_000_000_000L;

    private final QuoteSchedule quotes = new QuoteSchedule(Duration.ofSeconds(1), 0);
    private final SymbolState aapl = TestOrders.symbol("AAPL");

    @Test
    void a_new_quote_is_due_once_the_last_write_is_an_interval_old() {
        aapl.quoteSequence = 5;
        aapl.persistedQuoteSequence = 4;
        aapl.persistedAtNanos = 10 * SECOND;

        assertThat(quotes.due(aapl, 10 * SECOND + SECOND - 1)).isFalse();
        assertThat(quotes.due(aapl, 11 * SECOND)).isTrue();
    }

    @Test
    void a_quote_already_written_is_never_due() {
        aapl.quoteSequence = 5;
        aapl.persistedQuoteSequence = 5;
        aapl.persistedAtNanos = 0;

        assertThat(quotes.due(aapl, 100 * SECOND)).isFalse();
    }

    @Test
    void a_symbol_never_written_is_due_at_its_first_quote() {
        long now = System.nanoTime();
        assertThat(quotes.due(aapl, now)).isFalse();
        aapl.quoteSequence = 0;
        assertThat(quotes.due(aapl, now)).isTrue();
    }

    @Test
    void due_quotes_are_looked_for_every_quarter_interval() {
        Group group = new Group(new WriteClock());
        aapl.quoteSequence = 1;
        aapl.persistedAtNanos = -10 * SECOND;

        quotes.addDue(List.of(aapl), group, 0);
        assertThat(group.symbols).containsExactly(aapl);

        group.clear();
        quotes.addDue(List.of(aapl), group, SECOND / 4 - 1);
        assertThat(group.symbols).isEmpty();
        quotes.addDue(List.of(aapl), group, SECOND / 4);
        assertThat(group.symbols).containsExactly(aapl);
    }

    @Test
    void a_long_interval_is_still_checked_every_quarter_second_so_a_first_quote_is_written_soon() {
        QuoteSchedule hourly = new QuoteSchedule(Duration.ofHours(1), 0);
        Group group = new Group(new WriteClock());
        aapl.quoteSequence = aapl.persistedQuoteSequence;
        hourly.addDue(List.of(aapl), group, 0);
        assertThat(group.symbols).as("checked at once, before any quote").isEmpty();

        aapl.quoteSequence = 0;
        hourly.addDue(List.of(aapl), group, QuoteSchedule.MAX_CHECK_NANOS - 1);
        assertThat(group.symbols).isEmpty();
        hourly.addDue(List.of(aapl), group, QuoteSchedule.MAX_CHECK_NANOS);
        assertThat(group.symbols).as("a symbol never written is due at its first quote").containsExactly(aapl);
        assertThat(hourly.checkMillis()).isEqualTo(250);
    }

    @Test
    void only_an_interval_of_zero_writes_a_quote_with_its_ticker() {
        assertThat(new QuoteSchedule(Duration.ZERO, 0).writtenWithItsTicker()).isTrue();
        assertThat(new QuoteSchedule(Duration.ZERO, 0).checkMillis()).isEqualTo(1);
        assertThat(quotes.writtenWithItsTicker()).isFalse();
        assertThat(quotes.checkMillis()).isEqualTo(250);
        assertThat(new QuoteSchedule(Duration.ofMillis(200), 0).checkMillis()).isEqualTo(50);
    }
}
