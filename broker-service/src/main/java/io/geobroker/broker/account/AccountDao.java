package io.geobroker.broker.account;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.cql.PreparedStatement;
import com.datastax.oss.driver.api.core.cql.ResultSet;
import com.datastax.oss.driver.api.core.cql.Row;
import io.geobroker.broker.matching.ProjectionBarrier;
import io.geobroker.broker.web.Page;
import org.springframework.stereotype.Repository;

import java.nio.ByteBuffer;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

import static io.geobroker.broker.config.CassandraConfiguration.requestRead;

/** Reads of a customer's cash, holdings and transactions; the engine does the writes. */
@Repository
public class AccountDao {

    /** Cash in one currency, minor units. */
    public record Balance(String currency, long available, long reserved) {
    }

    /** Shares of one symbol. */
    public record Position(String symbol, long available, long reserved) {
    }

    /** One ledger entry: a signed cash amount (minor units) and/or a signed share quantity. */
    public record Transaction(UUID transactionId, Instant time, String kind, String currency, long amount,
                              String symbol, Long quantity, Long price, UUID orderId, String region) {
    }

    private final CqlSession session;
    private final PreparedStatement cash;
    private final PreparedStatement holdings;
    private final PreparedStatement transactions;

    private final ProjectionBarrier barrier;

    public AccountDao(CqlSession session, ProjectionBarrier barrier) {
        this.session = session;
        this.barrier = barrier;
        cash = session.prepare("SELECT currency, available, reserved FROM cash WHERE customer_id = ?");
        holdings = session.prepare("SELECT symbol, available, reserved FROM holdings WHERE customer_id = ?");
        transactions = session.prepare("SELECT txn_id, txn_time, kind, currency, amount, symbol, quantity, price, "
                + "order_id, region FROM transactions WHERE customer_id = ?");
    }

    public List<Balance> balances(String customerId) {
        barrier.awaitCustomer(customerId);
        List<Balance> out = new ArrayList<>();
        for (Row r : session.execute(requestRead(cash.bind(customerId)))) {
            out.add(new Balance(r.getString("currency"), r.getLong("available"), r.getLong("reserved")));
        }
        return out;
    }

    public List<Position> holdings(String customerId) {
        barrier.awaitCustomer(customerId);
        List<Position> out = new ArrayList<>();
        for (Row r : session.execute(requestRead(holdings.bind(customerId)))) {
            if (r.getLong("available") != 0 || r.getLong("reserved") != 0) {
                out.add(new Position(r.getString("symbol"), r.getLong("available"), r.getLong("reserved")));
            }
        }
        return out;
    }

    public Page<Transaction> transactions(String customerId, int pageSize, ByteBuffer pagingState) {
        barrier.awaitCustomer(customerId);
        ResultSet rs = Page.withToken(pagingState,
                () -> session.execute(requestRead(transactions.bind(customerId)).setPageSize(pageSize)
                        .setPagingState(pagingState)));
        List<Transaction> out = new ArrayList<>();
        for (int i = rs.getAvailableWithoutFetching(); i > 0; i--) {
            Row r = rs.one();
            out.add(new Transaction(r.getUuid("txn_id"), r.getInstant("txn_time"), r.getString("kind"),
                    r.getString("currency"), r.getLong("amount"), r.getString("symbol"),
                    (Long) r.getObject("quantity"), (Long) r.getObject("price"), r.getUuid("order_id"),
                    r.getString("region")));
        }
        return new Page<>(out, rs.getExecutionInfo().getPagingState());
    }
}
