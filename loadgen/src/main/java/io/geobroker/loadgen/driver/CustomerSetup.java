package io.geobroker.loadgen.driver;

import io.geobroker.domain.SymbolDirectory;
import io.geobroker.domain.SymbolInfo;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Creates a run's customers in every region and funds them: cash in each traded symbol's currency,
 * at the broker of the region that owns it, and holdings of every traded symbol there too.
 */
final class CustomerSetup {

    private static final long CASH_PER_CURRENCY = Driver.FUNDED_CASH_PER_CURRENCY;
    private static final long SHARES_PER_SYMBOL = Driver.FUNDED_SHARES_PER_SYMBOL;

    private final Target target;
    private final Map<String, BrokerClient> brokers;
    private final String runId;
    private final ProgressBar progress;
    private final SymbolDirectory directory = SymbolDirectory.standard();

    CustomerSetup(Target target, Map<String, BrokerClient> brokers, String runId, ProgressBar progress) {
        this.target = target;
        this.brokers = brokers;
        this.runId = runId;
        this.progress = progress;
    }

    /** Creates and funds {@code perRegion} customers per region, within {@code timeout}. */
    List<Driver.Customer> create(int perRegion, List<SymbolInfo> symbols, Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        List<Driver.Customer> customers = new ArrayList<>();
        for (Target.RegionTarget r : target.regions()) {
            for (int i = 0; i < perRegion; i++) {
                String id = runId + "-" + r.name() + "-" + i;
                BrokerClient.Answer answer = retrying(deadline, "create customer " + id + " in " + r.name(),
                        () -> brokers.get(r.name()).createCustomer(target.adminToken(), id, "loadgen " + id));
                String token = answer.body() == null ? "" : answer.body().path("token").asText("");
                if (token.isEmpty()) {
                    throw new IllegalStateException("creating customer " + id + " returned no token");
                }
                customers.add(new Driver.Customer(id, token, r));
            }
        }
        // many calls at once: the broker commits concurrent commands in groups, so setup goes faster
        ExecutorService pool = Executors.newFixedThreadPool(32, Threads.daemon("loadgen-setup"));
        try {
            List<Future<?>> calls = new ArrayList<>();
            Map<String, String> currencyHome = new LinkedHashMap<>();
            for (SymbolInfo s : symbols) {
                currencyHome.putIfAbsent(directory.currencyOf(s), target.homeOf(s.exchange()).orElseThrow().name());
            }
            for (Driver.Customer c : customers) {
                for (Map.Entry<String, String> currency : currencyHome.entrySet()) {
                    calls.add(pool.submit(() -> retrying(deadline, "deposit " + currency.getKey() + " for " + c.id(),
                            () -> brokers.get(currency.getValue()).deposit(c.token(), currency.getKey(), CASH_PER_CURRENCY))));
                }
                for (SymbolInfo s : symbols) {
                    String home = target.homeOf(s.exchange()).orElseThrow().name();
                    calls.add(pool.submit(() -> retrying(deadline, "holding " + s.symbol() + " for " + c.id(),
                            () -> brokers.get(home).addHolding(target.adminToken(), c.id(), s.symbol(), SHARES_PER_SYMBOL))));
                }
            }
            int done = 0;
            for (Future<?> call : calls) {
                long left = Math.max(1, deadline - System.nanoTime());
                try {
                    call.get(left, TimeUnit.NANOSECONDS);
                } catch (ExecutionException e) {
                    throw e.getCause() instanceof RuntimeException re ? re : new IllegalStateException(e.getCause());
                } catch (TimeoutException e) {
                    throw new IllegalStateException("funding the customers took longer than " + timeout.toSeconds() + " s");
                }
                progress.update(++done, calls.size(), "setting up " + customers.size() + " customers");
            }
            progress.finish();
        } finally {
            pool.shutdownNow();
        }
        return customers;
    }

    /**
     * Creates {@code count} customers at one region's broker, each funded with {@code cash} minor units
     * of {@code currency} there (the ack benchmark's: one customer per client), within {@code timeout}.
     * Ids are {@code <runId>-<region>-<i>}.
     */
    List<Driver.Customer> createIn(Target.RegionTarget region, int count, String currency, long cash, Duration timeout)
            throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        BrokerClient broker = brokers.get(region.name());
        ExecutorService pool = Executors.newFixedThreadPool(Math.min(32, Math.max(1, count)), Threads.daemon("loadgen-setup"));
        try {
            List<Future<Driver.Customer>> calls = new ArrayList<>();
            for (int i = 0; i < count; i++) {
                String id = runId + "-" + region.name() + "-" + i;
                calls.add(pool.submit(() -> {
                    BrokerClient.Answer answer = retrying(deadline, "create customer " + id + " in " + region.name(),
                            () -> broker.createCustomer(target.adminToken(), id, "loadgen " + id));
                    String token = answer.body() == null ? "" : answer.body().path("token").asText("");
                    if (token.isEmpty()) {
                        throw new IllegalStateException("creating customer " + id + " returned no token");
                    }
                    retrying(deadline, "deposit " + currency + " for " + id, () -> broker.deposit(token, currency, cash));
                    return new Driver.Customer(id, token, region);
                }));
            }
            List<Driver.Customer> customers = new ArrayList<>();
            for (Future<Driver.Customer> call : calls) {
                long left = Math.max(1, deadline - System.nanoTime());
                try {
                    customers.add(call.get(left, TimeUnit.NANOSECONDS));
                } catch (ExecutionException e) {
                    throw e.getCause() instanceof RuntimeException re ? re : new IllegalStateException(e.getCause());
                } catch (TimeoutException e) {
                    throw new IllegalStateException("creating and funding " + count + " customers took longer than "
                            + timeout.toSeconds() + " s");
                }
                progress.update(customers.size(), count, "setting up " + count + " customers in " + region.name());
            }
            progress.finish();
            return customers;
        } finally {
            pool.shutdownNow();
        }
    }

    private interface Call {
        BrokerClient.Answer call() throws IOException, InterruptedException;
    }

    /**
     * Retries a setup call on I/O errors, 5xx and 404 (a customer created in one region may take a
     * moment to replicate to another) until the deadline; any other 4xx fails at once.
     */
    private static BrokerClient.Answer retrying(long deadline, String what, Call call) throws InterruptedException {
        String last;
        while (true) {
            try {
                BrokerClient.Answer answer = call.call();
                if (answer.ok()) {
                    return answer;
                }
                last = answer.describe();
                if (answer.status() != 404 && answer.status() != 401 && answer.status() < 500) {
                    throw new IllegalStateException(what + " failed: " + last);
                }
            } catch (IOException e) {
                last = e.getClass().getSimpleName();
            }
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException(what + " did not succeed in time (" + last + ")");
            }
            Thread.sleep(200);
        }
    }
}
