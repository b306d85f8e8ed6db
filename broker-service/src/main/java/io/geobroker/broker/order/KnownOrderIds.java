package io.geobroker.broker.order;

import io.geobroker.broker.config.BrokerProperties;
import io.geobroker.broker.routing.Routing;
import io.geobroker.broker.security.CustomerDao;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.stereotype.Component;

import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.LongSupplier;
import java.util.function.Predicate;

/**
 * Which placements must read {@code customer_orders} for an earlier order of the same client order
 * id (placing is idempotent on it), and which are known to be new without a read.
 *
 * <p>A customer's order rows come from the brokers that took its placements and from the homes of
 * those orders. While this region is the only one whose broker has taken placements of the
 * customer ({@code customers.placing_regions}), every order id of the customer went through this
 * broker: it reads the customer's ids once (at the customer's first placement after the broker
 * started) and adds each placement's id as it takes it, so a new client order id needs no read.
 * Once another region has taken a placement of the customer, every placement reads, as before.
 *
 * <p>The broker adds its region to the customer's placing regions, durably, before the customer's
 * first placement through it, and reads them again when they are older than {@code refresh} (not
 * once they name another region: they only grow). So a
 * repeat placed here of an order placed through another region is taken as new only when it comes
 * within {@code refresh} (plus the replication) of that region's first placement of the customer:
 * the same race as a repeat inside the replication window, which the order's home decides.
 * Client order ids of day trading's own orders ({@value #DAY_TRADING_PREFIX}) are always read: the
 * engine makes those orders, not a placement.
 *
 * <p>A market order another region's broker forwarded here, its symbol's home, is checked against
 * the same ids ({@link #forwardedMayExist}): the customer's ids in this DC, read once, and every id
 * placed or forwarded here since. What they lack was written by another region's broker, whose own
 * check looked in its DC before it forwarded the order (the placing broker's DC has its own rows at
 * once); a repeat of an order this broker took since its start is in the set, and one taken before
 * it is in this DC. So the home reads only a repeat, as the placing broker does.
 *
 * <p>At most {@code maxIds} ids are kept over all customers; the ids of the customers that placed
 * least recently are dropped first (read again at their next placement), and a customer with more
 * than a quarter of that is read at every placement.
 */
@Component
public class KnownOrderIds {

    /** Client order ids the day-trading engine gives its own orders. */
    static final String DAY_TRADING_PREFIX = "dt-";
    /** Customers remembered (their placing regions) at most; the least recent are forgotten. */
    static final int MAX_CUSTOMERS = 100_000;

    /** What the decision reads and writes in this region's DC. */
    interface Store {
        Set<String> placingRegions(String customerId);

        void addPlacingRegion(String customerId, String region);

        /** The customer's order ids, or empty if there are more than {@code limit}. */
        Optional<List<UUID>> orderIds(String customerId, int limit);
    }

    private static final class Customer {
        final ReentrantLock lock = new ReentrantLock();
        /** As last read (with this region added); null before the first read. */
        Set<String> regions;
        long regionsReadNanos;
        /** Every order id of the customer, while only this region places its orders; null when not held. */
        Set<UUID> ids;
        /** More ids than one customer may hold: always read. */
        boolean tooMany;
    }

    private final Store store;
    private final String region;
    private final long refreshNanos;
    private final int maxIds;
    private final LongSupplier nanoTime;
    private final Counter reads;
    private final Counter skipped;
    private final Counter forwardedReads;
    private final Counter forwardedSkipped;
    /** Access order: the customer that placed least recently first. Guards {@link #heldIds}. */
    private final LinkedHashMap<String, Customer> customers = new LinkedHashMap<>(256, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, Customer> eldest) {
            if (size() <= MAX_CUSTOMERS) {
                return false;
            }
            long dropped = dropIfIdle(eldest.getValue());
            if (dropped < 0) {
                return false;
            }
            heldIds -= dropped;
            return true;
        }
    };
    private long heldIds;

    @Autowired
    public KnownOrderIds(CustomerDao customerDao, OrderDao orders, Routing routing, BrokerProperties properties,
                         MeterRegistry meters) {
        this(new Store() {
            @Override
            public Set<String> placingRegions(String customerId) {
                return customerDao.placingRegions(customerId);
            }

            @Override
            public void addPlacingRegion(String customerId, String region) {
                customerDao.addPlacingRegion(customerId, region);
            }

            @Override
            public Optional<List<UUID>> orderIds(String customerId, int limit) {
                return orders.orderIds(customerId, limit);
            }
        }, routing.localRegion(), properties.placement().placingRegionsRefresh().toNanos(),
                properties.placement().knownOrderIds(), System::nanoTime, meters);
    }

    KnownOrderIds(Store store, String region, long refreshNanos, int maxIds, LongSupplier nanoTime, MeterRegistry meters) {
        this.store = store;
        this.region = region;
        this.refreshNanos = refreshNanos;
        this.maxIds = maxIds;
        this.nanoTime = nanoTime;
        this.reads = Counter.builder("geobroker.placement.idempotency").tag("check", "read")
                .description("Placements whose client order id was looked up in customer_orders").register(meters);
        this.skipped = Counter.builder("geobroker.placement.idempotency").tag("check", "known-new")
                .description("Placements known to be new without a read (the customer places only through this region)")
                .register(meters);
        this.forwardedReads = Counter.builder("geobroker.placement.idempotency").tag("check", "forwarded-read")
                .description("Market orders forwarded here whose order id was looked up in customer_orders")
                .register(meters);
        this.forwardedSkipped = Counter.builder("geobroker.placement.idempotency").tag("check", "forwarded-known-new")
                .description("Market orders forwarded here known to be new without a read").register(meters);
    }

    /**
     * Whether a market order another region's broker forwarded here may exist already, so the home
     * must read it; false means it does not (and the id is now held). Blocks on Cassandra at the
     * customer's first forwarded or local placement here (the customer's ids); a failed read throws.
     */
    public boolean forwardedMayExist(String customerId, UUID orderId, String clientOrderId) {
        boolean mayExist = decide(customerId, clientOrderId,
                c -> c.tooMany || !holdIds(c, customerId) || !hold(c, orderId));
        (mayExist ? forwardedReads : forwardedSkipped).increment();
        return mayExist;
    }

    /**
     * Whether an order {@code orderId} of the customer may exist already, so the placement must read
     * it; false means it does not (and the id is now held as placed). Blocks on Cassandra at the
     * customer's first placement and once every {@code refresh}; a failed read or write throws.
     */
    public boolean mayExist(String customerId, UUID orderId, String clientOrderId) {
        boolean mayExist = decide(customerId, clientOrderId, c -> decide(c, customerId, orderId));
        (mayExist ? reads : skipped).increment();
        return mayExist;
    }

    /** Takes the decision under the customer's lock and accounts for the ids it held more or fewer. */
    private boolean decide(String customerId, String clientOrderId, Predicate<Customer> decision) {
        if (refreshNanos <= 0 || maxIds <= 0 || clientOrderId.startsWith(DAY_TRADING_PREFIX)) {
            return true;
        }
        Customer c;
        synchronized (customers) {
            c = customers.computeIfAbsent(customerId, k -> new Customer());
        }
        boolean mayExist;
        long held;
        c.lock.lock();
        try {
            long before = c.ids == null ? 0 : c.ids.size();
            mayExist = decision.test(c);
            held = (c.ids == null ? 0 : c.ids.size()) - before;
        } finally {
            c.lock.unlock();
        }
        if (held != 0) {
            account(held, c);
        }
        return mayExist;
    }

    private boolean decide(Customer c, String customerId, UUID orderId) {
        if (c.regions != null && c.regions.contains(region) && (c.regions.size() > 1 || c.tooMany)) {
            return true; // placing regions only grow: nothing more to learn
        }
        long now = nanoTime.getAsLong();
        if (c.regions == null || now - c.regionsReadNanos >= refreshNanos) {
            c.regions = store.placingRegions(customerId);
            c.regionsReadNanos = now;
        }
        if (!c.regions.contains(region)) {
            store.addPlacingRegion(customerId, region);
            Set<String> with = new HashSet<>(c.regions);
            with.add(region);
            c.regions = Set.copyOf(with);
        }
        if (c.regions.size() > 1 || c.tooMany) {
            c.ids = null;
            return true;
        }
        return !holdIds(c, customerId) || !hold(c, orderId);
    }

    /** Reads the customer's ids unless held: false if it has too many to hold. */
    private boolean holdIds(Customer c, String customerId) {
        if (c.ids == null) {
            Optional<List<UUID>> ids = store.orderIds(customerId, maxIds / 4);
            if (ids.isEmpty()) {
                c.tooMany = true;
                return false;
            }
            c.ids = new HashSet<>(ids.get());
        }
        return true;
    }

    /** Adds the id: false if it was held already. A customer that now has too many is let go. */
    private boolean hold(Customer c, UUID orderId) {
        boolean added = c.ids.add(orderId);
        if (c.ids.size() > maxIds / 4) {
            c.ids = null;
            c.tooMany = true;
        }
        return added;
    }

    /**
     * Counts {@code delta} ids held more and drops the least recent customers' ids while over the
     * bound (not of a customer whose placement is being decided: it is recent).
     */
    private void account(long delta, Customer current) {
        synchronized (customers) {
            heldIds += delta;
            Iterator<Customer> eldest = customers.values().iterator();
            while (heldIds > maxIds && eldest.hasNext()) {
                Customer c = eldest.next();
                if (c != current) {
                    heldIds -= Math.max(0, dropIfIdle(c));
                }
            }
        }
    }

    /**
     * Drops the customer's ids (read again at its next placement) unless a placement of it is being
     * decided: how many it held, or -1 if it is busy.
     */
    private static long dropIfIdle(Customer c) {
        if (!c.lock.tryLock()) {
            return -1;
        }
        try {
            long n = c.ids == null ? 0 : c.ids.size();
            c.ids = null;
            return n;
        } finally {
            c.lock.unlock();
        }
    }

    /** Ids held over all customers (for tests and metrics). */
    long heldIds() {
        synchronized (customers) {
            return heldIds;
        }
    }
}
