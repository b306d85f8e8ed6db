package io.geobroker.broker.it;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.cql.Row;
import com.datastax.oss.driver.api.core.cql.SimpleStatement;

import java.util.List;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/** Checks that a ticker's fills were written as one group through the region's redo journal, which ended cleared. */
final class JournalChecks {

    private JournalChecks() {
    }

    static void assertOneGroupThroughTheJournal(CqlSession session, String region, String symbol, long sequence,
                                                int fills) {
        List<Long> written = session.execute(SimpleStatement.newInstance("SELECT writetime(price) AS written "
                + "FROM symbol_fills WHERE symbol = ? AND ticker_sequence = ?", symbol, sequence)).all().stream()
                .map(r -> r.getLong("written")).toList();
        assertThat(written).hasSize(fills);
        assertThat(Set.copyOf(written)).as("one group, one write timestamp").hasSize(1);
        Row header = session.execute(SimpleStatement.newInstance(
                "SELECT group_timestamp, parts FROM engine_journal WHERE region = ? LIMIT 1", region)).one();
        assertThat(header).as("the group went through the journal").isNotNull();
        assertThat(header.getInt("parts")).as("the journal was cleared").isZero();
        assertThat(header.getLong("group_timestamp")).as("the journal held the fill group")
                .isEqualTo(written.get(0));
        assertThat(session.execute(SimpleStatement.newInstance("SELECT part FROM engine_journal WHERE region = ? "
                + "AND part >= 0 AND part_timestamp = ? ALLOW FILTERING", region, header.getLong("group_timestamp")))
                .all()).as("the journal's parts").isNotEmpty();
    }
}
