package io.geobroker.broker.daytrading;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.cql.PreparedStatement;
import com.datastax.oss.driver.api.core.cql.Row;
import io.geobroker.domain.Region;
import org.springframework.stereotype.Component;

import javax.xml.stream.XMLOutputFactory;
import javax.xml.stream.XMLStreamException;
import javax.xml.stream.XMLStreamWriter;
import java.io.IOException;
import java.io.OutputStream;

/**
 * The region's day-trading audit log as XML valid against the course's {@code logfile.xsd}
 * (with its timestamp bound widened: {@code geobroker/day-trading-logfile.xsd}), streamed from
 * Cassandra page by page: a dump of any size needs no more memory than a page. A user's log is its
 * hours in order, each in transaction-number order; the whole log is every user's, hour by hour.
 * Amounts and prices are decimals of the region's currency.
 */
@Component
public class DayTradingLog {

    private final CqlSession session;
    private final String region;
    private final PreparedStatement selectDays;
    private final PreparedStatement selectUsersOfDay;
    private final PreparedStatement selectHoursOfUser;
    private final PreparedStatement selectEvents;

    public DayTradingLog(CqlSession session, Region region) {
        this.session = session;
        this.region = region.name();
        selectDays = session.prepare("SELECT day FROM day_trading_log_days WHERE region = ?");
        selectUsersOfDay = session.prepare("SELECT hour, customer_id FROM day_trading_log_users WHERE region = ? AND day = ?");
        selectHoursOfUser = session.prepare("SELECT hour FROM day_trading_log_hours WHERE region = ? AND customer_id = ?");
        selectEvents = session.prepare("SELECT * FROM day_trading_log WHERE region = ? AND customer_id = ? AND hour = ?");
    }

    /** Writes the whole log of the region ({@code user} null) or one user's. */
    public void write(String user, int minorDigits, OutputStream out) throws IOException {
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

    private void writeHour(XMLStreamWriter xml, String user, long hour, int digits) throws XMLStreamException {
        for (Row e : session.execute(selectEvents.bind(region, user, hour))) {
            String kind = e.getString("kind");
            xml.writeCharacters("  ");
            xml.writeStartElement(kind);
            element(xml, "timestamp", Long.toString(e.getInstant("logged_at").toEpochMilli()));
            element(xml, "server", region);
            element(xml, "transactionNum", Long.toString(e.getLong("transaction_num")));
            switch (kind) {
                case "quoteServer" -> {
                    element(xml, "price", Dollars.format(e.getLong("price"), digits));
                    element(xml, "stockSymbol", e.getString("stock_symbol"));
                    element(xml, "username", user);
                    element(xml, "quoteServerTime", Long.toString(e.getLong("quote_server_time")));
                    element(xml, "cryptokey", e.getString("cryptokey"));
                }
                case "accountTransaction" -> {
                    element(xml, "action", e.getString("action"));
                    element(xml, "username", user);
                    element(xml, "funds", Dollars.format(e.getLong("funds"), digits));
                }
                default -> {
                    element(xml, "command", e.getString("command"));
                    if (!user.isEmpty()) {
                        element(xml, "username", user);
                    }
                    optional(xml, "stockSymbol", e.getString("stock_symbol"));
                    optional(xml, "filename", e.getString("filename"));
                    if (!e.isNull("funds")) {
                        element(xml, "funds", Dollars.format(e.getLong("funds"), digits));
                    }
                    if (kind.equals("errorEvent")) {
                        optional(xml, "errorMessage", e.getString("message"));
                    } else if (kind.equals("debugEvent")) {
                        optional(xml, "debugMessage", e.getString("message"));
                    }
                }
            }
            xml.writeEndElement();
            xml.writeCharacters("\n");
        }
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
