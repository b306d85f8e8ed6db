package io.geobroker.broker.security;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.cql.PreparedStatement;
import com.datastax.oss.driver.api.core.cql.Row;
import org.springframework.stereotype.Repository;

import java.time.Instant;
import java.util.Optional;
import java.util.Set;

import static io.geobroker.broker.config.CassandraConfiguration.requestRead;

/** The {@code customers} table: display name and the SHA-256 of the customer's API token. */
@Repository
public class CustomerDao {

    private final CqlSession session;
    private final PreparedStatement insert;
    private final PreparedStatement select;
    private final PreparedStatement selectPlacingRegions;
    private final PreparedStatement addPlacingRegion;

    public CustomerDao(CqlSession session) {
        this.session = session;
        insert = session.prepare("INSERT INTO customers (customer_id, display_name, token_sha256, created_at) "
                + "VALUES (?, ?, ?, ?) IF NOT EXISTS");
        select = session.prepare("SELECT token_sha256 FROM customers WHERE customer_id = ?");
        selectPlacingRegions = session.prepare("SELECT placing_regions FROM customers WHERE customer_id = ?");
        addPlacingRegion = session.prepare(
                "UPDATE customers SET placing_regions = placing_regions + ? WHERE customer_id = ?");
    }

    /** Creates the customer unless the id is taken (compare-and-set at LOCAL_SERIAL); false if taken. */
    public boolean create(String customerId, String displayName, String tokenSha256, Instant now) {
        return session.execute(insert.bind(customerId, displayName, tokenSha256, now)).wasApplied();
    }

    public Optional<String> tokenSha256(String customerId) {
        Row row = session.execute(select.bind(customerId)).one();
        return Optional.ofNullable(row).map(r -> r.getString("token_sha256"));
    }

    /** The regions whose brokers have taken a placement of the customer, as this DC has them. */
    public Set<String> placingRegions(String customerId) {
        Row row = session.execute(requestRead(selectPlacingRegions.bind(customerId))).one();
        return row == null ? Set.of() : Set.copyOf(row.getSet("placing_regions", String.class));
    }

    /** Adds {@code region} to the customer's placing regions, durable in this DC when it returns. */
    public void addPlacingRegion(String customerId, String region) {
        session.execute(addPlacingRegion.bind(Set.of(region), customerId));
    }
}
