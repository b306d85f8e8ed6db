package io.geobroker.broker.matching;

import io.geobroker.broker.config.BrokerProperties;
import io.geobroker.broker.config.CassandraConfiguration;
import io.geobroker.broker.daytrading.DayTradingCommand;
import io.geobroker.broker.daytrading.DayTradingResult;
import io.geobroker.broker.fill.FillPublisher;
import io.geobroker.broker.order.NewOrder;
import io.geobroker.broker.order.Order;
import io.geobroker.broker.order.OrderDao;
import io.geobroker.broker.routing.OrderInbox;
import io.geobroker.broker.ticker.DurableOffsets;
import io.geobroker.domain.Exchange;
import io.geobroker.domain.Region;
import io.geobroker.domain.SymbolDirectory;
import io.geobroker.domain.SymbolInfo;
import io.geobroker.domain.Ticker;
import io.geobroker.domain.Topology;
import io.micrometer.core.instrument.MeterRegistry;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;
import org.springframework.stereotype.Component;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The single writer of everything this region owns (SPEC §2, ownership principle): the open orders
 * of its exchanges' symbols, the holdings of those symbols and the cash in their currencies. One
 * thread applies commands (tickers, placements, cancels, cash movements, expiry) in arrival order to
 * in-memory state, then makes a whole group of them durable with one atomic write of absolute
 * values (a slot of the engine log), answers its REST calls and hands its fills to Kafka; the
 * fills' acknowledgement is awaited after the next group is written, and only then are the group's
 * ticker offsets released for commit. Several groups' writes may be under way at once
 * ({@link Writing}): each is made visible only once it and every group before it are durable, so
 * memory runs ahead of Cassandra only by groups nobody has seen. A group whose write outcome is
 * unknown is written again (same statements, same timestamp; one over 64 KiB through the
 * {@link GroupJournal} in smaller batches, since a node too busy to apply it in time would not
 * apply it the second time either) before it and any later group is made visible.
 * A group too large for one batch (a ticker filling very many orders) goes to the
 * {@link GroupJournal} first and is then written in several batches; a journal a crash left
 * pending is applied at start before the state is rebuilt, so that group is all-or-nothing too.
 *
 * <p>Exactly once: a ticker at or below the symbol's durable {@code last_ticker_sequence} is a
 * replay and fills nothing. Fills of the last two durable groups may not have reached Kafka before
 * a crash; at start the engine publishes them again from {@code symbol_fills} (same fill ids).
 *
 * <p>This class is the engine's thread: the queue other threads put commands in, the loop that
 * takes them into a {@link Group} and dispatches each, and the timers of expiry and quote writes.
 * What a command does is {@link OrderLifecycle}'s (with {@link Accounts}); making a group durable is
 * {@link GroupCommit}'s (with {@link Generations}, {@link BatchWriter} and {@link InFlight}); the
 * state at start is {@link Recovery}'s.
 */
@Component
public class Engine implements SmartLifecycle {

    private static final Logger log = LoggerFactory.getLogger(Engine.class);
    /** How long the idle engine waits for Kafka's acknowledgement of a group before it looks at its queue again. */
    static final long IDLE_ACK_WAIT_MILLIS = 5;

    private final Clock clock;
    private final BrokerProperties.Engine config;
    private final BlockingQueue<Command> queue;

    private final Map<String, SymbolState> symbols = new LinkedHashMap<>();
    private final Set<String> ownedCurrencies = new LinkedHashSet<>();
    private final Group group;
    private final EngineMetrics metrics;
    private final OrderLifecycle orders;
    private final QuoteSchedule quotes;
    private final BatchWriter writer;
    private final InFlight inFlight;
    private final Writing writing;
    private final GroupCommit groupCommit;
    private final Projection projection;
    private final Recovery recovery;
    private final DayTrading dayTrading;
    private final String currency;
    private final int currencyDigits;

    private final CountDownLatch ready = new CountDownLatch(1);
    private volatile boolean running;
    private Thread thread;
    private Instant nextExpiryCheck = Instant.EPOCH;

    public Engine(OrderDao orderDao, com.datastax.oss.driver.api.core.CqlSession session, FillPublisher publisher,
                  DurableOffsets offsets, Clock clock, BrokerProperties properties, Topology topology,
                  Topology.RegionEndpoints localRegion, SymbolDirectory directory, MeterRegistry meters,
                  HealResend healResend, ProjectionBarrier barrier) {
        Region region = localRegion.region();
        EngineStore store = new EngineStore(session, orderDao, healResend);
        this.clock = clock;
        this.config = properties.engine();
        this.queue = new ArrayBlockingQueue<>(config.queueCapacity());
        for (String exchange : region.exchanges()) {
            String currency = directory.exchange(exchange).orElseThrow().currency();
            ownedCurrencies.add(currency);
            for (SymbolInfo info : directory.symbolsOf(exchange)) {
                symbols.put(info.symbol(), new SymbolState(info, currency));
            }
        }
        WriteClock writeClock = new WriteClock();
        Retry retry = new Retry();
        this.metrics = new EngineMetrics(meters);
        this.group = new Group(writeClock);
        this.quotes = new QuoteSchedule(config.quotePersistInterval(), System.nanoTime());
        Accounts accounts = Accounts.readFrom(store, retry, metrics.accountRereads);
        this.orders = new OrderLifecycle(symbols, accounts, group, store,
                metrics, quotes, clock, directory, region.name(), config.stopProtectionBps());
        metrics.registerResting(orders::resting);
        this.writer = new BatchWriter(store, new GroupJournal(session, region.name()), writeClock, retry, metrics,
                config.maxBatchBytes(), BatchLogBypass.watching(session));
        this.writing = new Writing(config.groupsInFlight(), () -> queue.offer(Command.Written.WAKE), metrics.waitTimer);
        this.inFlight = new InFlight(offsets, symbols.values(), metrics.publishTimer, writing::held);
        String sessionKeyspace = session.getKeyspace().orElseThrow().asInternal();
        String dataCenter = CassandraConfiguration.dataRegion(topology, localRegion,
                properties.cassandra().dataCenterRegion()).dataCenter();
        EngineLog engineLog = new EngineLog(session, region.name(),
                EngineLog.keyspaceOf(sessionKeyspace, dataCenter, config.logKeyspace()));
        Optional<EngineLog> olderLog = engineLog.keyspace().equals(sessionKeyspace) ? Optional.empty()
                : Optional.of(new EngineLog(session, region.name(), sessionKeyspace));
        this.projection = new Projection(session, store, engineLog, metrics, config.projectionInterval(),
                config.maxBatchBytes(), config.projectionBatchesInFlight(), barrier);
        metrics.registerProjectionLag(projection::lag);
        this.groupCommit = new GroupCommit(group, symbols, store,
                new Generations(store, writer, writeClock, symbols, config.deletionsPerGeneration()),
                writer, publisher, inFlight, metrics, region.name(), engineLog, projection, config.minLoggedSymbols(),
                barrier.enabled(), writing);
        this.recovery = new Recovery(store, writer, symbols, orders, publisher, region.name(), engineLog, olderLog);
        Exchange first = directory.exchange(region.exchanges().get(0)).orElseThrow();
        this.currency = first.currency();
        this.currencyDigits = first.currencyMinorDigits();
        this.dayTrading = new DayTrading(symbols, currency, currencyDigits, accounts, orders, group, store, new DayTradingStore(session, region.name()), retry, clock,
                region.name());
    }

    // ---- commands from other threads

    public boolean owns(String symbol) {
        return symbols.containsKey(symbol);
    }

    public boolean ownsCurrency(String currency) {
        return ownedCurrencies.contains(currency);
    }

    public CompletableFuture<Outcomes.Placement> place(NewOrder order) {
        return place(order, 0);
    }

    /**
     * A placement the caller stops waiting for at {@code deadlineEpochMillis}: if the engine gets to
     * it later it is not executed (the caller has already been told it failed).
     */
    public CompletableFuture<Outcomes.Placement> place(NewOrder order, long deadlineEpochMillis) {
        CompletableFuture<Outcomes.Placement> result = new CompletableFuture<>();
        submit(new Command.Place(order, deadlineEpochMillis, result));
        return result;
    }

    public CompletableFuture<Outcomes.Cancellation> cancel(String customerId, UUID orderId) {
        return cancel(customerId, orderId, null, 0);
    }

    /**
     * Cancels an order; {@code pending} is its stored row when that row is PENDING (the engine may
     * not have taken it from the inbox yet: it is then cancelled before it was ever open).
     */
    public CompletableFuture<Outcomes.Cancellation> cancel(String customerId, UUID orderId, Order pending,
                                                           long pendingWriteMicros) {
        CompletableFuture<Outcomes.Cancellation> result = new CompletableFuture<>();
        submit(new Command.Cancel(customerId, orderId, pending, pendingWriteMicros, result));
        return result;
    }

    /** Queues an order read from the inbox; blocks while the engine is full (back-pressure on the poller). */
    public void accept(OrderInbox.Entry entry, Order pending, long pendingWriteMicros) throws InterruptedException {
        queue.put(new Command.Accept(entry, pending, pendingWriteMicros));
    }

    public CompletableFuture<Outcomes.Movement> moveCash(String customerId, String currency, long amount) {
        CompletableFuture<Outcomes.Movement> result = new CompletableFuture<>();
        submit(new Command.MoveCash(customerId, currency, amount, result));
        return result;
    }

    public CompletableFuture<Outcomes.Movement> transferShares(String customerId, String symbol, long quantity) {
        CompletableFuture<Outcomes.Movement> result = new CompletableFuture<>();
        submit(new Command.TransferShares(customerId, symbol, quantity, result));
        return result;
    }

    /**
     * Day-trading commands of this region's users, applied in the order given and answered
     * together once durable; a DUMPLOG's answer points at {@code logPath}.
     */
    public CompletableFuture<List<DayTradingResult>> dayTrade(List<DayTradingCommand> commands, String logPath) {
        CompletableFuture<List<DayTradingResult>> result = new CompletableFuture<>();
        submit(new Command.DayTrade(commands, logPath, result));
        return result;
    }

    /** The currency day-trading amounts are in: the region's (its first exchange's). */
    public String dayTradingCurrency() {
        return currency;
    }

    public int dayTradingCurrencyDigits() {
        return currencyDigits;
    }

    /** Queues a ticker from the consumer; blocks while the engine is full (back-pressure on Kafka). */
    public void tickerReceived(Ticker ticker, String topic, int partition, long offset, long receivedNanos)
            throws InterruptedException {
        queue.put(new Command.TickerReceived(ticker, topic, partition, offset, receivedNanos));
    }

    /** Queues the offset of a dead-lettered record, committed once the tickers before it are durable. */
    public void skipped(String topic, int partition, long offset) throws InterruptedException {
        queue.put(new Command.Skipped(topic, partition, offset));
    }

    /**
     * The outcome of a command a REST call submitted, waiting at most the command timeout: then, or
     * when interrupted, the engine is busy (a 503 for the caller); a failed command's exception as it is.
     */
    public <T> T await(CompletableFuture<T> future) {
        try {
            return future.get(config.commandTimeout().toMillis(), TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            throw new EngineBusyException();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new EngineBusyException();
        } catch (ExecutionException e) {
            throw e.getCause() instanceof RuntimeException r ? r : new IllegalStateException(e.getCause());
        }
    }

    /** Waits until the state is rebuilt from Cassandra; false on timeout. */
    public boolean awaitReady(Duration timeout) throws InterruptedException {
        return ready.await(timeout.toMillis(), TimeUnit.MILLISECONDS);
    }

    private void submit(Command command) {
        try {
            if (!queue.offer(command, config.commandTimeout().toMillis(), TimeUnit.MILLISECONDS)) {
                throw new EngineBusyException();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new EngineBusyException();
        }
    }

    /** A forwarded placement reached the engine after its caller stopped waiting: not executed. */
    public static final class DeadlinePassedException extends RuntimeException {
        public DeadlinePassedException() {
            super("the placement arrived after its caller's deadline and was not executed");
        }
    }

    /** The engine cannot take the command now (queue full, or shutting down): a 503 for the caller. */
    public static final class EngineBusyException extends RuntimeException {
        public EngineBusyException() {
            super("the matching engine is busy");
        }
    }

    // ---- life cycle

    @Override
    public void start() {
        running = true;
        thread = new Thread(this::run, "engine");
        // The one thread every fill and placement of the region passes through, serially: where the
        // JVM maps Java priorities to the OS's (Linux: -XX:ThreadPriorityPolicy=1, which needs the
        // right to raise a thread's priority, as the local stack and the demo have as root) it runs
        // before the request threads and whatever else shares the cores; elsewhere this is ignored.
        thread.setPriority(Thread.MAX_PRIORITY);
        thread.start();
    }

    @Override
    public void stop() {
        running = false;
        if (thread != null) {
            thread.interrupt();
            try {
                thread.join(10_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        projection.stop(Duration.ofSeconds(5));
        inFlight.close();
    }

    @Override
    public boolean isRunning() {
        return running;
    }

    /** Whether the engine thread is alive and applying commands (false after a fatal error). */
    public boolean isHealthy() {
        return running && thread != null && thread.isAlive() && ready.getCount() == 0;
    }

    @Override
    public int getPhase() {
        return 0;
    }

    private void run() {
        try {
            long lastLogged = recovery.recover();
            projection.start(lastLogged);
            groupCommit.startAt(lastLogged + 1);
            ready.countDown();
            while (running) {
                Command first = queue.poll();
                if (first == null && !inFlight.isEmpty() && writing.isEmpty()) {
                    // Kafka's acknowledgements while idle, but never more than a few ms away from the
                    // queue: while Kafka is down, commands go on being served.
                    inFlight.awaitOldest(IDLE_ACK_WAIT_MILLIS);
                    first = queue.poll();
                } else if (first == null) {
                    // a group write answered puts a wake-up in the queue
                    first = queue.poll(writing.isEmpty()
                            ? Math.min(config.expiryInterval().toMillis(), quotes.checkMillis())
                            : IDLE_ACK_WAIT_MILLIS, TimeUnit.MILLISECONDS);
                }
                writing.answerWritten();
                if (first instanceof Command.Written) {
                    first = null;
                }
                if (first != null) {
                    long start = System.nanoTime();
                    apply(first);
                    fillGroup();
                    metrics.matchTimer.record(System.nanoTime() - start, TimeUnit.NANOSECONDS);
                }
                expireIfDue();
                quotes.addDue(symbols.values(), group, System.nanoTime());
                if (!group.isEmpty()) {
                    groupCommit.commit();
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (RuntimeException e) {
            log.error("engine stopped: state may be ahead of Cassandra, the broker must restart", e);
            running = false;
        } finally {
            failPending();
        }
    }

    /**
     * Adds commands to the group until it is full or the commit interval since the previous commit's
     * start has passed: commands that arrive within it share one batch, so the number of batches per
     * second (Cassandra's cost) is bounded by the interval, not by the command rate. Once the group
     * holds a fill, the shorter fill commit interval applies ({@link #dueNanos}).
     */
    private void fillGroup() throws InterruptedException {
        long lastStart = writer.lastStartNanos();
        long interval = config.commitInterval().toNanos();
        long fillInterval = config.fillCommitInterval().toNanos();
        while (group.commands < config.maxGroupCommands() && group.statementEstimate() < config.maxGroupStatements()) {
            Command next = queue.poll();
            if (next == null) {
                long wait = dueNanos(lastStart, !group.fills.isEmpty(), interval, fillInterval) - System.nanoTime();
                if (wait <= 0) {
                    return;
                }
                next = queue.poll(wait, TimeUnit.NANOSECONDS);
                if (next == null) {
                    return;
                }
            }
            if (next instanceof Command.Written) {
                // an earlier group is durable: answered now, not when this one is committed
                writing.answerWritten();
                continue;
            }
            apply(next);
        }
    }

    /**
     * When the group being built is due: {@code interval} after the previous group's write started,
     * or {@code fillInterval} after it once the group holds a fill (never later than the interval).
     */
    static long dueNanos(long lastStartNanos, boolean holdsFill, long interval, long fillInterval) {
        return lastStartNanos + (holdsFill ? Math.min(interval, fillInterval) : interval);
    }

    private void failPending() {
        Command c;
        while ((c = queue.poll()) != null) {
            if (c instanceof Command.Place p) {
                p.result().completeExceptionally(new EngineBusyException());
            } else if (c instanceof Command.Cancel p) {
                p.result().completeExceptionally(new EngineBusyException());
            } else if (c instanceof Command.MoveCash p) {
                p.result().completeExceptionally(new EngineBusyException());
            } else if (c instanceof Command.TransferShares p) {
                p.result().completeExceptionally(new EngineBusyException());
            } else if (c instanceof Command.DayTrade p) {
                p.result().completeExceptionally(new EngineBusyException());
            }
        }
    }

    // ---- applying commands

    private void apply(Command command) {
        group.commands++;
        if (command instanceof Command.TickerReceived t) {
            orders.onTicker(t);
        } else if (command instanceof Command.Skipped s) {
            group.skipped.add(s);
        } else if (command instanceof Command.Place p) {
            orders.onPlace(p);
        } else if (command instanceof Command.Cancel c) {
            orders.onCancel(c);
        } else if (command instanceof Command.Accept a) {
            orders.onAccept(a);
        } else if (command instanceof Command.MoveCash m) {
            orders.onMoveCash(m);
        } else if (command instanceof Command.TransferShares t) {
            orders.onTransferShares(t);
        } else if (command instanceof Command.DayTrade d) {
            dayTrading.apply(d);
        }
    }

    private void expireIfDue() {
        Instant now = clock.instant().truncatedTo(ChronoUnit.MILLIS);
        if (now.isBefore(nextExpiryCheck)) {
            return;
        }
        nextExpiryCheck = now.plus(config.expiryInterval());
        orders.expireUpTo(now);
    }
}
