package io.geobroker.loadgen.chaos;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.geobroker.loadgen.driver.Driver;

import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * Reads what each region's REST API says about the run's customers: their orders, cash and
 * holdings, with each customer's own token. A region that does not answer is named in the
 * snapshot's {@code unreadable}, never guessed.
 */
public final class DeploymentReader {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final int PAGE_SIZE = 500;
    /**
     * Page size of the listings that stop at the first order older than they need
     * ({@link #ordersSince}): a page costs the broker one read per 64 of its orders, so after a 60 s
     * cut (~150 orders of the cut per customer and region) a page of 200 lists them in one request
     * where pages of 50 took three or four, one after the other; a page of {@link #PAGE_SIZE} would
     * read much of a customer's history where only the last minute is wanted.
     */
    static final int RECENT_PAGE_SIZE = 200;
    /**
     * Requests of one pass ({@link #ordersSince}, {@link #ordersByIds}) under way at once. One after the
     * other, a pass over the orders of a WAN cut took 4-10 s at three nodes per DC, and the wait for the
     * regions to agree, which needs two passes, could not see anything sooner than that. With 8 at a
     * time a pass after a 60 s cut still took 2.6-4.1 s (ten customers in two regions: 20 listings of
     * two pages each); with every listing of a pass under way at once (up to 20) the agreement is seen
     * closer to when it happened.
     */
    static final int READS_IN_FLIGHT = 20;

    /** What every region showed in one reading; totals are available + reserved. */
    public record Snapshot(Map<String, Map<String, OrderView>> orders, Map<String, Map<String, Map<String, Long>>> cash,
                           Map<String, Map<String, Map<String, Long>>> shares, List<String> unreadable) {
        public Snapshot {
            unreadable = List.copyOf(unreadable);
        }
    }

    private final Map<String, String> brokerUrls;
    private final List<Driver.Customer> customers;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
    private final ExecutorService reads = Executors.newFixedThreadPool(READS_IN_FLIGHT, r -> {
        Thread t = new Thread(r, "deployment-reader");
        t.setDaemon(true);
        return t;
    });

    /** @param brokerUrls each region's broker base URL, by region name */
    public DeploymentReader(Map<String, String> brokerUrls, List<Driver.Customer> customers) {
        this.brokerUrls = new LinkedHashMap<>(brokerUrls);
        this.customers = List.copyOf(customers);
    }

    /** Everything: every order of every customer, and their books, in every region. */
    public Snapshot snapshot() throws InterruptedException {
        Map<String, Map<String, OrderView>> orders = new LinkedHashMap<>();
        Map<String, Map<String, Map<String, Long>>> cash = new LinkedHashMap<>();
        Map<String, Map<String, Map<String, Long>>> shares = new LinkedHashMap<>();
        List<String> unreadable = new java.util.ArrayList<>();
        for (String region : brokerUrls.keySet()) {
            Map<String, OrderView> regionOrders = new LinkedHashMap<>();
            Map<String, Map<String, Long>> regionCash = new TreeMap<>();
            Map<String, Map<String, Long>> regionShares = new TreeMap<>();
            try {
                for (Driver.Customer c : customers) {
                    regionOrders.putAll(orders(region, c, 0, PAGE_SIZE));
                    regionCash.put(c.id(), totals(get(region, c.token(), "/api/v1/account/balances"), "currency"));
                    regionShares.put(c.id(), totals(get(region, c.token(), "/api/v1/account/holdings"), "symbol"));
                }
            } catch (IOException e) {
                unreadable.add(region + ": " + e.getMessage());
            }
            orders.put(region, regionOrders);
            cash.put(region, regionCash);
            shares.put(region, regionShares);
        }
        recheckAbsent(orders, unreadable);
        return new Snapshot(orders, cash, shares, unreadable);
    }

    /**
     * An order one region lists and another does not is read by its id there too
     * ({@code GET /api/v1/orders/{id}}), so that "absent" means that region answers 404 for it, not
     * that a listing missed it.
     */
    private void recheckAbsent(Map<String, Map<String, OrderView>> orders, List<String> unreadable)
            throws InterruptedException {
        Map<String, OrderView> any = new LinkedHashMap<>();
        orders.values().forEach(m -> m.values().forEach(o -> any.putIfAbsent(o.orderId(), o)));
        Map<String, Driver.Customer> byId = new LinkedHashMap<>();
        customers.forEach(c -> byId.put(c.id(), c));
        for (Map.Entry<String, Map<String, OrderView>> region : orders.entrySet()) {
            for (OrderView o : any.values()) {
                if (region.getValue().containsKey(o.orderId()) || !byId.containsKey(o.customerId())) {
                    continue;
                }
                try {
                    OrderView found = order(region.getKey(), byId.get(o.customerId()), o.orderId());
                    if (found != null) {
                        region.getValue().put(o.orderId(), found);
                    }
                } catch (IOException e) {
                    unreadable.add(region.getKey() + ": " + e.getMessage() + " (the order is " + o.state() + " elsewhere)");
                }
            }
        }
    }

    /**
     * Whether the region serves a customer's read that needs its Cassandra DC: {@code GET
     * /api/v1/account/balances} of one of the customers placing there answers 200.
     */
    public boolean servesReads(String region) {
        Driver.Customer c = customers.stream().filter(x -> x.placesIn().name().equals(region)).findFirst()
                .orElse(customers.get(0));
        try {
            return send(region, c.token(), "/api/v1/account/balances").statusCode() == 200;
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /** Per region, the customers' orders placed at or after {@code sinceMillis} (epoch), read newest first. */
    public Map<String, Map<String, OrderView>> ordersSince(long sinceMillis) throws InterruptedException, IOException {
        return ordersSince(sinceMillis, null);
    }

    /**
     * Per region, the orders placed at or after {@code sinceMillis} (epoch) of the customers whose ids
     * are {@code customerIds} (null: every customer), read newest first.
     */
    public Map<String, Map<String, OrderView>> ordersSince(long sinceMillis, Set<String> customerIds)
            throws InterruptedException, IOException {
        List<Driver.Customer> listed = customers.stream()
                .filter(c -> customerIds == null || customerIds.contains(c.id())).toList();
        List<Callable<Map<String, OrderView>>> listings = new ArrayList<>();
        for (String region : brokerUrls.keySet()) {
            for (Driver.Customer c : listed) {
                listings.add(() -> orders(region, c, sinceMillis, RECENT_PAGE_SIZE));
            }
        }
        List<Map<String, OrderView>> read = readAll(listings);
        Map<String, Map<String, OrderView>> all = new LinkedHashMap<>();
        int i = 0;
        for (String region : brokerUrls.keySet()) {
            Map<String, OrderView> regionOrders = new LinkedHashMap<>();
            for (int c = 0; c < listed.size(); c++) {
                regionOrders.putAll(read.get(i++));
            }
            all.put(region, regionOrders);
        }
        return all;
    }

    /** The results of {@code tasks}, {@link #READS_IN_FLIGHT} at a time, in their order; the first failure is thrown. */
    private <T> List<T> readAll(List<Callable<T>> tasks) throws InterruptedException, IOException {
        List<T> results = new ArrayList<>(tasks.size());
        for (Future<T> f : reads.invokeAll(tasks)) {
            try {
                results.add(f.get());
            } catch (ExecutionException e) {
                if (e.getCause() instanceof IOException io) {
                    throw io;
                }
                if (e.getCause() instanceof InterruptedException ie) {
                    throw ie;
                }
                throw new IOException(e.getCause());
            }
        }
        return results;
    }

    /**
     * Per region, the given orders (order id → its customer's id) as the region shows them, each
     * read by its id ({@code GET /api/v1/orders/{id}} with its customer's token); an order the region
     * answers 404 for is absent from its map.
     */
    public Map<String, Map<String, OrderView>> ordersByIds(Map<String, String> customerByOrder)
            throws InterruptedException, IOException {
        Map<String, Driver.Customer> byId = new LinkedHashMap<>();
        customers.forEach(c -> byId.put(c.id(), c));
        List<Callable<OrderView>> lookups = new ArrayList<>();
        for (String region : brokerUrls.keySet()) {
            for (Map.Entry<String, String> order : customerByOrder.entrySet()) {
                Driver.Customer c = byId.get(order.getValue());
                if (c == null) {
                    throw new IOException("order " + order.getKey() + " of an unknown customer " + order.getValue());
                }
                lookups.add(() -> order(region, c, order.getKey()));
            }
        }
        List<OrderView> found = readAll(lookups);
        Map<String, Map<String, OrderView>> all = new LinkedHashMap<>();
        int i = 0;
        for (String region : brokerUrls.keySet()) {
            Map<String, OrderView> regionOrders = new LinkedHashMap<>();
            for (String orderId : customerByOrder.keySet()) {
                OrderView o = found.get(i++);
                if (o != null) {
                    regionOrders.put(orderId, o);
                }
            }
            all.put(region, regionOrders);
        }
        return all;
    }

    /** An order as the region shows it ({@code GET /api/v1/orders/{id}}), or null if it answers 404. */
    private OrderView order(String region, Driver.Customer c, String orderId) throws IOException, InterruptedException {
        HttpResponse<byte[]> r = send(region, c.token(), "/api/v1/orders/" + orderId);
        if (r.statusCode() == 404) {
            return null;
        }
        if (r.statusCode() != 200) {
            throw new IOException("GET /api/v1/orders/" + orderId + " in " + region + " answered " + r.statusCode());
        }
        return view(JSON.readTree(r.body()), c.id());
    }

    /** A customer's orders in a region, newest first, paging until one older than {@code sinceMillis}. */
    private Map<String, OrderView> orders(String region, Driver.Customer c, long sinceMillis, int pageSize)
            throws IOException, InterruptedException {
        Map<String, OrderView> orders = new LinkedHashMap<>();
        String pageToken = null;
        do {
            JsonNode page = get(region, c.token(), "/api/v1/orders?pageSize=" + pageSize
                    + (pageToken == null ? "" : "&pageToken=" + URLEncoder.encode(pageToken, StandardCharsets.UTF_8)));
            boolean older = false;
            for (JsonNode o : page.path("items")) {
                OrderView view = view(o, c.id());
                if (view.placedAtMillis() < sinceMillis) {
                    older = true;
                    continue;
                }
                orders.put(view.orderId(), view);
            }
            pageToken = !older && page.hasNonNull("nextPageToken") ? page.path("nextPageToken").asText() : null;
        } while (pageToken != null);
        return orders;
    }

    static OrderView view(JsonNode o, String customerId) {
        Set<String> fillIds = new HashSet<>();
        o.path("fills").forEach(f -> fillIds.add(f.path("fillId").asText()));
        String placedAt = o.path("placedAt").asText("");
        return new OrderView(o.path("orderId").asText(), customerId, o.path("symbol").asText(), o.path("side").asText(),
                o.path("type").asText(), o.path("status").asText(), o.path("quantity").asLong(),
                o.path("filledQuantity").asLong(), placedAt.isEmpty() ? 0 : Instant.parse(placedAt).toEpochMilli(),
                o.path("homeRegion").asText(""), fillIds);
    }

    /** {@code [{key, available, reserved}]} as key → available + reserved. */
    static Map<String, Long> totals(JsonNode list, String key) {
        Map<String, Long> totals = new TreeMap<>();
        list.forEach(e -> totals.merge(e.path(key).asText(), e.path("available").asLong() + e.path("reserved").asLong(), Long::sum));
        return totals;
    }

    private HttpResponse<byte[]> send(String region, String token, String path) throws IOException, InterruptedException {
        HttpRequest request = HttpRequest.newBuilder(URI.create(brokerUrls.get(region) + path)).timeout(Duration.ofSeconds(10))
                .header("Authorization", "Bearer " + token).header("Accept", "application/json").GET().build();
        return http.send(request, HttpResponse.BodyHandlers.ofByteArray());
    }

    private JsonNode get(String region, String token, String path) throws IOException, InterruptedException {
        HttpResponse<byte[]> response = send(region, token, path);
        if (response.statusCode() != 200) {
            throw new IOException("GET " + path.replaceAll("\\?.*", "") + " answered " + response.statusCode());
        }
        return JSON.readTree(response.body());
    }
}
