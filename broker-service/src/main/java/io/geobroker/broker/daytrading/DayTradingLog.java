package io.geobroker.broker.daytrading;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.cql.PreparedStatement;
import com.datastax.oss.driver.api.core.cql.Row;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.geobroker.broker.matching.ProjectionBarrier;
import io.geobroker.domain.Region;
import org.springframework.stereotype.Component;

import javax.xml.stream.XMLOutputFactory;
import javax.xml.stream.XMLStreamException;
import javax.xml.stream.XMLStreamWriter;
import java.io.IOException;
import java.io.OutputStream;
import java.util.List;

/**
 * The region's day-trading audit log as XML valid against the course's {@code logfile.xsd}
 * (with its timestamp bound widened: {@code geobroker/day-trading-logfile.xsd}), streamed from
 * Cassandra page by page: a dump of any size needs no more memory than a page of rows (a row is
 * one user's events of one group commit). A user's log is its hours in order, each in the order its
 * events were logged; the whole log is every user's, hour by hour.
 * Amounts and prices are decimals of the region's currency.
 */
@Component
public class DayTradingLog {

    /** Rows of events per page: a row holds a user's events of one group commit (up to a few thousand). */
    private static final int ROWS_PER_PAGE = 50;
    private static final ObjectMapper EVENTS = new ObjectMapper();
    private static final TypeReference<List<LogEvent>> EVENT_LIST = new TypeReference<>() {
    };

    private final CqlSession session;
    private final String region;
    private final PreparedStatement selectDays;
    private final PreparedStatement selectUsersOfDay;
    private final PreparedStatement selectHoursOfUser;
    private final PreparedStatement selectEvents;

    private final ProjectionBarrier barrier;

    public DayTradingLog(CqlSession session, Region region, ProjectionBarrier barrier) {
        this.session = session;
        this.barrier = barrier;
        this.region = region.name();
        selectDays = session.prepare("SELECT day FROM day_trading_log_days WHERE region = ?");
        selectUsersOfDay = session.prepare("SELECT hour, customer_id FROM day_trading_log_users WHERE region = ? AND day = ?");
        selectHoursOfUser = session.prepare("SELECT hour FROM day_trading_log_hours WHERE region = ? AND customer_id = ?");
        selectEvents = session.prepare("SELECT events FROM day_trading_log WHERE region = ? AND customer_id = ? AND hour = ?");
    }

    /** Writes the whole log of the region ({@code user} null) or one user's. */
    public void write(String user, int minorDigits, OutputStream out) throws IOException {
        barrier.awaitAll();
        try {
            XMLStreamWriter xml = XMLOutputFactory.newFactory().createXMLStreamWriter(out, "UTF-8");
            xml.writeStartDocument("UTF-8", "1.0");
            xml.writeCharacters("\n");
            xml.writeStartElement("log");
            xml.writeCharacters("\n");
            if (user == null) {
                for (Row day : session.execute(selectDays.bind(region))) {
                    for (Row r : session.execute(selectUsersOfDay.bind(region, day.getLong("day")))) {
                        writeHour(xml, r.getString("customer_id"), r.getLong("hour"), minorDigits);
                    }
                }
            } else {
                for (Row r : session.execute(selectHoursOfUser.bind(region, user))) {
                    writeHour(xml, user, r.getLong("hour"), minorDigits);
                }
            }
            xml.writeEndElement();
            xml.writeCharacters("\n");
            xml.writeEndDocument();
            xml.flush();
            xml.close();
        } catch (XMLStreamException e) {
            throw new IOException("writing the day-trading log failed", e);
        }
    }

    private void writeHour(XMLStreamWriter xml, String user, long hour, int digits) throws XMLStreamException, IOException {
        for (Row row : session.execute(selectEvents.bind(region, user, hour).setPageSize(ROWS_PER_PAGE))) {
            for (LogEvent e : EVENTS.readValue(row.getString("events"), EVENT_LIST)) {
                writeEvent(xml, user, e, digits);
            }
        }
    }

    private void writeEvent(XMLStreamWriter xml, String user, LogEvent e, int digits) throws XMLStreamException {
        xml.writeCharacters("  ");
        xml.writeStartElement(e.kind());
        element(xml, "timestamp", Long.toString(e.timestampMillis()));
        element(xml, "server", region);
        element(xml, "transactionNum", Long.toString(e.transactionNum()));
        switch (e.kind()) {
            case "quoteServer" -> {
                element(xml, "price", Dollars.format(e.price(), digits));
                element(xml, "stockSymbol", e.stockSymbol());
                element(xml, "username", user);
                element(xml, "quoteServerTime", Long.toString(e.quoteServerTime()));
                element(xml, "cryptokey", e.cryptokey());
            }
            case "accountTransaction" -> {
                element(xml, "action", e.action());
                element(xml, "username", user);
                element(xml, "funds", Dollars.format(e.funds(), digits));
            }
            default -> {
                element(xml, "command", e.command());
                if (!user.isEmpty()) {
                    element(xml, "username", user);
                }
                optional(xml, "stockSymbol", e.stockSymbol());
                optional(xml, "filename", e.filename());
                if (e.funds() != null) {
                    element(xml, "funds", Dollars.format(e.funds(), digits));
                }
                if (e.kind().equals("errorEvent")) {
                    optional(xml, "errorMessage", e.message());
                } else if (e.kind().equals("debugEvent")) {
                    optional(xml, "debugMessage", e.message());
                }
            }
        }
        xml.writeEndElement();
        xml.writeCharacters("\n");
    }

    private static void optional(XMLStreamWriter xml, String name, String value) throws XMLStreamException {
        if (value != null) {
            element(xml, name, value);
        }
    }

    private static void element(XMLStreamWriter xml, String name, String value) throws XMLStreamException {
        xml.writeStartElement(name);
        xml.writeCharacters(value);
        xml.writeEndElement();
    }
}
