package io.geobroker.broker.matching;

import com.datastax.oss.driver.api.core.cql.BoundStatement;
import io.geobroker.broker.config.BrokerProperties;
import io.geobroker.broker.fill.FillPublisher;
import io.geobroker.broker.order.NewOrder;
import io.geobroker.broker.order.Order;
import io.geobroker.broker.order.OrderDao;
import io.geobroker.broker.order.OrderIds;
import io.geobroker.broker.routing.OrderInbox;
import io.geobroker.broker.ticker.DurableOffsets;
import io.geobroker.domain.Exchange;
import io.geobroker.domain.Fill;
import io.geobroker.domain.OrderStatus;
import io.geobroker.domain.OrderType;
import io.geobroker.domain.Region;
import io.geobroker.domain.Side;
import io.geobroker.domain.SymbolDirectory;
import io.geobroker.domain.SymbolInfo;
import io.geobroker.domain.Ticker;
import io.geobroker.domain.TimeInForce;
import io.geobroker.domain.WallClock;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;
import org.springframework.stereotype.Component;

import java.nio.ByteBuffer;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZonedDateTime;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
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
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * The single writer of everything this region owns (SPEC §2, ownership principle): the open orders
 * of its exchanges' symbols, the holdings of those symbols and the cash in their currencies. One
 * thread applies commands (tickers, placements, cancels, cash movements, expiry) in arrival order to
 * in-memory state, then makes a whole group of them durable with one atomic logged batch of
 * absolute values, answers its REST calls and hands its fills to Kafka; the fills' acknowledgement
 * is awaited after the next group is written, and only then are the group's ticker offsets
 * released for commit. A group whose batch outcome is unknown is written again (same statements,
 * same timestamp; one over 64 KiB through the {@link GroupJournal} in smaller batches, since a node
 * too busy to apply it in time would not apply it the second time either) before anything else is
 * applied, so memory never runs ahead of an unknown state.
 * A group too large for one batch (a ticker filling very many orders) goes to the
 * {@link GroupJournal} first and is then written in several batches; a journal a crash left
 * pending is applied at start before the state is rebuilt, so that group is all-or-nothing too.
 *
 * <p>Exactly once: a ticker at or below the symbol's durable {@code last_ticker_sequence} is a
 * replay and fills nothing. Fills of the last two durable groups may not have reached Kafka before
 * a crash; at start the engine publishes them again from {@code fills_by_ticker} (same fill ids).
 */
@Component
public class Engine implements SmartLifecycle {

    private static final Logger log = LoggerFactory.getLogger(Engine.class);
    private static final int RECENT_ORDERS = 100_000;
    /**
     * Largest batch of a group written again after its single batch was not confirmed in time: small
     * enough for a busy node to apply well within its write timeout.
     */
    static final int SPLIT_BATCH_BYTES = 64 * 1024;

    private final EngineStore store;
    private final FillPublisher publisher;
    private final DurableOffsets offsets;
    private final Clock clock;
    private final BrokerProperties.Engine config;
    private final String region;
    private final SymbolDirectory directory;
    private final BlockingQueue<Command> queue;
    private final WriteClock writeClock = new WriteClock();

    private final Map<String, SymbolState> symbols = new LinkedHashMap<>();
    private final Map<UUID, OrderState> live = new HashMap<>();
    private final Map<UUID, OrderState> recent = new LinkedHashMap<>(1024, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<UUID, OrderState> eldest) {
            return size() > RECENT_ORDERS;
        }
    };
    private final Map<String, CashAccount> cash = new HashMap<>();
    private final Map<String, Holding> holdings = new HashMap<>();
    private final Set<String> ownedCurrencies = new LinkedHashSet<>();

    private final Group group = new Group();
    private final CountDownLatch ready = new CountDownLatch(1);
    private volatile boolean running;
    private volatile int resting;
    private Thread thread;
    private Instant nextExpiryCheck = Instant.EPOCH;
    private long lastCommitStartNanos = System.nanoTime();
    private long nextQuoteCheckNanos = System.nanoTime();

    private final MeterRegistry meters;
    private final Timer tickerToFill;
    private final Timer consumeTimer;
    private final Timer matchTimer;
    private final Timer persistTimer;
    private final Timer publishTimer;
    private InFlight inFlight;
    private final Counter replays;
    private final Counter oversizedGroups;
    private final Counter splitGroups;
    private final Counter accountRereads;
    private final DistributionSummary groupStatements;
    private final DistributionSummary groupPartitions;
    private final Timer inboxLag;
    private final GroupJournal journal;

    public Engine(OrderDao orderDao, com.datastax.oss.driver.api.core.CqlSession session, FillPublisher publisher,
                  DurableOffsets offsets, Clock clock, BrokerProperties properties, Region region,
                  SymbolDirectory directory, MeterRegistry meters) {
        this.store = new EngineStore(session, orderDao);
        this.publisher = publisher;
        this.offsets = offsets;
        this.clock = clock;
        this.config = properties.engine();
        this.region = region.name();
        this.directory = directory;
        this.queue = new ArrayBlockingQueue<>(config.queueCapacity());
        this.meters = meters;
        for (String exchange : region.exchanges()) {
            String currency = directory.exchange(exchange).orElseThrow().currency();
            ownedCurrencies.add(currency);
            for (SymbolInfo info : directory.symbolsOf(exchange)) {
                symbols.put(info.symbol(), new SymbolState(info, currency));
            }
        }
        tickerToFill = Timer.builder("geobroker.ticker.to.fill")
                .description("Exchange time of the ticker that filled a waiting (limit or stop) order to the fill being durable")
                .publishPercentileHistogram().register(meters);
        consumeTimer = stage("consume");
        matchTimer = stage("match");
        persistTimer = stage("persist");
        publishTimer = stage("publish");
        replays = Counter.builder("geobroker.tickers.replayed")
                .description("Tickers at or below the durable sequence, which fill nothing").register(meters);
        oversizedGroups = Counter.builder("geobroker.engine.oversized.groups")
                .description("Groups too large for one batch, written in several").register(meters);
        splitGroups = Counter.builder("geobroker.engine.split.groups")
                .description("Groups whose batch was not confirmed in time, written again in smaller batches")
                .register(meters);
        groupStatements = DistributionSummary.builder("geobroker.engine.group.statements")
                .description("CQL statements one group commit writes").register(meters);
        groupPartitions = DistributionSummary.builder("geobroker.engine.group.partitions")
                .description("Partitions (Cassandra mutations) one group commit writes").register(meters);
        accountRereads = Counter.builder("geobroker.engine.account.rereads")
                .description("Reads of a cash account or holding not answered by Cassandra, made again")
                .register(meters);
        inboxLag = Timer.builder("geobroker.inbox.accept.lag")
                .description("Placement in another region to the order being matchable here (replication, inbox poll, queue)")
                .publishPercentileHistogram().register(meters);
        journal = new GroupJournal(session, this.region);
        Gauge.builder("geobroker.orders.resting", () -> resting)
                .description("Orders resting in the books of this region").register(meters);
    }

    private Timer stage(String name) {
        return Timer.builder("geobroker.engine.stage").tag("stage", name)
                .description("Time spent per engine stage").publishPercentileHistogram().register(meters);
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

    /** Queues a ticker from the consumer; blocks while the engine is full (back-pressure on Kafka). */
    public void tickerReceived(Ticker ticker, String topic, int partition, long offset, long receivedNanos)
            throws InterruptedException {
        queue.put(new Command.TickerReceived(ticker, topic, partition, offset, receivedNanos));
    }

    /** Queues the offset of a dead-lettered record, committed once the tickers before it are durable. */
    public void skipped(String topic, int partition, long offset) throws InterruptedException {
        queue.put(new Command.Skipped(topic, partition, offset));
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
            recover();
            ready.countDown();
            while (running) {
                Command first = queue.poll();
                if (first == null && inFlight != null) {
                    awaitInFlight();
                    continue;
                }
                if (first == null) {
                    first = queue.poll(config.expiryInterval().toMillis(), TimeUnit.MILLISECONDS);
                }
                if (first != null) {
                    long start = System.nanoTime();
                    apply(first);
                    fillGroup();
                    matchTimer.record(System.nanoTime() - start, TimeUnit.NANOSECONDS);
                }
                expireIfDue();
                persistQuotesIfDue();
                if (!group.isEmpty()) {
                    commit();
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
     * second (Cassandra's cost) is bounded by the interval, not by the command rate.
     */
    private void fillGroup() throws InterruptedException {
        long due = lastCommitStartNanos + config.commitInterval().toNanos();
        while (group.commands < config.maxGroupCommands() && group.statementEstimate() < config.maxGroupStatements()) {
            Command next = queue.poll();
            if (next == null) {
                long wait = due - System.nanoTime();
                if (wait <= 0) {
                    return;
                }
                next = queue.poll(wait, TimeUnit.NANOSECONDS);
                if (next == null) {
                    return;
                }
            }
            apply(next);
        }
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
            }
        }
    }

    // ---- recovery

    private static void restoreQuote(SymbolState s, EngineStore.QuoteRow q) {
        s.quotePrice = q.price();
        s.quoteVolume = q.volume();
        s.quoteSequence = q.sequence();
        s.quoteExchangeTimeMicros = q.exchangeTimeMicros();
        s.quoteUpdatedAt = q.updatedAt();
        s.quoteVolumeLeft = s.quoteVolume;
    }

    /** A quote a broker before schema V005 left in the quotes table: restored, and written into symbol_state. */
    private void copyLegacyQuote(SymbolState s, EngineStore.QuoteRow q) {
        restoreQuote(s, q);
        persistPartition(List.of(store.symbolState(s)), writeClock.next());
        log.info("{}: quote of sequence {} copied from the quotes table into symbol_state", s.symbol(), q.sequence());
    }

    private void recover() {
        replayJournal();
        long start = System.nanoTime();
        List<Fill> republish = new ArrayList<>();
        for (SymbolState s : symbols.values()) {
            Optional<EngineStore.SymbolRow> stored = store.symbolState(s.symbol());
            stored.ifPresent(row -> {
                s.generation = row.generation();
                s.deletions = row.deletions();
                s.lastTickerSequence = row.lastTickerSequence();
                s.nextOrderSequence = row.nextOrderSequence();
                s.lastGroupFirstSequence = row.lastGroupFirstSequence();
            });
            Optional<EngineStore.QuoteRow> quote = stored.flatMap(EngineStore.SymbolRow::quote);
            if (quote.isPresent()) {
                restoreQuote(s, quote.get());
            } else {
                store.legacyQuote(s.symbol()).ifPresent(q -> copyLegacyQuote(s, q));
            }
            for (EngineStore.OpenRow row : store.openOrders(s.symbol(), s.generation)) {
                store.order(row.customerId(), row.orderId()).filter(f -> !f.order().status().isTerminal()).ifPresent(f -> {
                    Order o = f.order();
                    OrderState state = OrderState.restore(o, bookLimitOf(o), row.sequence());
                    if (f.legacy()) {
                        // placed before schema V006: its first write puts the whole row in customer_orders
                        state.rowWritten = false;
                        state.listedWherePlaced = true;
                    }
                    state.persistedGeneration = s.generation;
                    s.book.add(state);
                    live.put(state.id, state);
                });
            }
            if (s.lastGroupFirstSequence >= 0) {
                for (long seq = s.lastGroupFirstSequence; seq <= Math.max(s.lastTickerSequence, s.quoteSequence); seq++) {
                    for (EngineStore.FillRow f : store.fills(s.symbol(), seq)) {
                        republish.add(EngineStore.toFill(f, s.info.exchange(), region, f.durableTimeMicros()));
                    }
                }
            }
        }
        resting = live.size();
        publisher.publish(republish);
        log.info("engine state rebuilt: {} symbols, {} resting orders, {} fill(s) of the last group published again, in {} ms",
                symbols.size(), live.size(), republish.size(), (System.nanoTime() - start) / 1_000_000);
    }

    /** The price a restored order may trade at: for a BUY STOP it is the protection price it reserved at. */
    private static long bookLimitOf(Order o) {
        return switch (o.type()) {
            case LIMIT, STOP_LIMIT -> o.limitPrice();
            case STOP -> o.side() == Side.BUY ? o.reserved() / (o.quantity() - o.filledQuantity()) : 0;
            case MARKET -> 0;
        };
    }

    // ---- applying commands

    private void apply(Command command) {
        group.commands++;
        if (command instanceof Command.TickerReceived t) {
            onTicker(t);
        } else if (command instanceof Command.Skipped s) {
            group.skipped.add(s);
        } else if (command instanceof Command.Place p) {
            onPlace(p);
        } else if (command instanceof Command.Cancel c) {
            onCancel(c);
        } else if (command instanceof Command.Accept a) {
            onAccept(a);
        } else if (command instanceof Command.MoveCash m) {
            onMoveCash(m);
        } else if (command instanceof Command.TransferShares t) {
            onTransferShares(t);
        }
    }

    private void onTicker(Command.TickerReceived received) {
        consumeTimer.record(System.nanoTime() - received.receivedNanos(), TimeUnit.NANOSECONDS);
        Ticker t = received.ticker();
        SymbolState s = symbols.get(t.symbol());
        if (s == null) {
            group.offsets.add(received);
            return;
        }
        if (t.sequence() <= s.lastTickerSequence) {
            replays.increment();
            group.offsets.add(received);
            return;
        }
        s.hold(received);
        s.quotePrice = t.price();
        s.quoteVolume = t.volume();
        s.quoteSequence = t.sequence();
        s.quoteExchangeTimeMicros = t.exchangeTimeMicros();
        s.quoteUpdatedAt = now();
        s.lastTickerSequence = t.sequence();
        if (quoteDue(s, System.nanoTime())) {
            group.symbols.add(s);
        }
        s.book.onTicker(t.price(), t.volume(), new SymbolBook.Sink() {
            @Override
            public void onTrigger(OrderState order) {
                order.updatedAt = now();
                group.orders.put(order.id, order);
                group.symbols.add(s);
            }

            @Override
            public void onFill(OrderState order, long quantity, long price) {
                fill(s, order, quantity, price, t.sequence(), t.exchangeTimeMicros());
            }
        });
        s.quoteVolumeLeft = s.book.lastVolumeLeft();
    }

    private void onPlace(Command.Place command) {
        NewOrder n = command.order();
        if (command.deadlineEpochMillis() > 0 && System.currentTimeMillis() > command.deadlineEpochMillis()) {
            command.result().completeExceptionally(new DeadlinePassedException());
            return;
        }
        OrderState known = known(n.orderId());
        if (known != null) {
            Order existing = known.snapshot();
            Outcomes.PlaceResult result = !existing.sameRequestAs(n) ? Outcomes.PlaceResult.CONFLICT
                    : existing.status() == OrderStatus.REJECTED ? Outcomes.PlaceResult.REJECTED
                    : Outcomes.PlaceResult.REPEATED;
            group.completions.add(() -> command.result().complete(new Outcomes.Placement(result, existing, List.of())));
            return;
        }
        SymbolState s = symbols.get(n.symbol().symbol());
        if (s == null) {
            command.result().completeExceptionally(new IllegalArgumentException("symbol not owned by this region"));
            return;
        }
        OrderState o = open(s, n, now());
        int fillsBefore = group.fills.size();
        if (n.type() == OrderType.MARKET) {
            long volumeLeft = s.quoteVolumeLeft;
            if (s.quoteSequence < 0) {
                reject(o, Outcomes.NO_QUOTE, "no quote for " + s.symbol() + " yet: a market order needs a latest price");
            } else if (volumeLeft < n.quantity()) {
                reject(o, Outcomes.INSUFFICIENT_VOLUME, "the latest quote has " + volumeLeft
                        + " shares left at " + s.quotePrice + ", fewer than the " + n.quantity() + " ordered");
            } else if (reserve(o)) {
                s.quoteVolumeLeft -= n.quantity();
                fill(s, o, n.quantity(), s.quotePrice, s.quoteSequence, s.quoteExchangeTimeMicros);
            }
        } else {
            rest(s, o);
        }
        meters.counter("geobroker.orders.placed", "type", n.type().name(), "side", n.side().name()).increment();
        List<EngineStore.FillRow> fills = List.copyOf(group.fills.subList(fillsBefore, group.fills.size()));
        group.completions.add(() -> {
            Order snapshot = o.snapshot();
            List<Fill> published = fills.stream()
                    .map(f -> EngineStore.toFill(f, o.exchange, region, group.durableMicros)).toList();
            command.result().complete(new Outcomes.Placement(snapshot.status() == OrderStatus.REJECTED
                    ? Outcomes.PlaceResult.REJECTED : Outcomes.PlaceResult.CREATED, snapshot, published));
        });
    }

    /** A new order of an owned symbol, OPEN and in this group, placed at {@code placedAt}. */
    private OrderState open(SymbolState s, NewOrder n, Instant placedAt) {
        long bookLimit = switch (n.type()) {
            case LIMIT, STOP_LIMIT -> n.limitPrice();
            case STOP -> n.side() == Side.BUY ? protectionPrice(n.stopPrice(), s.info) : 0;
            case MARKET -> n.side() == Side.BUY ? s.quotePrice : 0;
        };
        Instant expiresAt = n.timeInForce() == TimeInForce.DAY && n.type() != OrderType.MARKET
                ? closeAfter(s.info, placedAt) : null;
        OrderState o = new OrderState(n.orderId(), n.customerId(), n.clientOrderId(), s.symbol(), s.info.exchange(),
                s.currency, n.side(), n.type(), n.timeInForce(), n.allOrNone(), n.quantity(), n.limitPrice(),
                n.stopPrice(), bookLimit, expiresAt, placedAt, n.homeRegion(), n.placedRegion(), s.nextOrderSequence++);
        o.status = OrderStatus.OPEN;
        o.updatedAt = now();
        group.symbols.add(s);
        group.orders.put(o.id, o);
        remember(o);
        return o;
    }

    /** Reserves what a limit or stop order needs and puts it in the book, or rejects it. */
    private void rest(SymbolState s, OrderState o) {
        if (reserve(o)) {
            s.book.add(o);
            live.put(o.id, o);
            resting = live.size();
        }
    }

    /**
     * An order placed in another region for one of this region's symbols, as its inbox row and
     * stored PENDING row show it. Taken once: a row that is no longer PENDING (taken before a
     * restart) only gets its inbox row marked; an order the engine already knows (accepted before,
     * placed here too, or cancelled while pending) has its whole row written again as it stands, over
     * a PENDING row another region may have written after it ({@link InboxDecision}). Everything
     * written about the order from here on must win over the placing region's PENDING row, whatever
     * the two clocks say.
     */
    private void onAccept(Command.Accept a) {
        group.inbox.add(a.entry());
        Order p = a.pending();
        OrderState k = known(p.orderId());
        InboxDecision decision = InboxDecision.of(k != null, p.status());
        if (decision == InboxDecision.MARK) {
            return;
        }
        writeAfter(InboxDecision.writeAbove(a.pendingWriteMicros(), a.entry().placedAtMillis()));
        if (decision == InboxDecision.REWRITE) {
            k.rowWritten = false;
            k.listedWherePlaced = true;
            group.orders.put(k.id, k);
            return;
        }
        SymbolState s = symbols.get(p.symbol());
        if (s == null || p.type() == OrderType.MARKET) {
            OrderState o = neverOpened(p, OrderStatus.OPEN);
            reject(o, Outcomes.NOT_ROUTABLE, s == null ? p.symbol() + " is not matched in region " + region
                    : "market orders are executed by the home region when they are placed, never from the inbox");
            return;
        }
        NewOrder n = new NewOrder(p.orderId(), p.customerId(), p.clientOrderId(), s.info, p.currency(), p.side(),
                p.type(), p.timeInForce(), p.allOrNone(), p.quantity(), p.limitPrice(), p.stopPrice(), region,
                p.placedRegion());
        OrderState o = open(s, n, p.placedAt());
        o.listedWherePlaced = true;
        rest(s, o);
        inboxLag.record(Math.max(0, System.currentTimeMillis() - a.entry().placedAtMillis()), TimeUnit.MILLISECONDS);
        meters.counter("geobroker.orders.placed", "type", n.type().name(), "side", n.side().name()).increment();
    }

    private void onCancel(Command.Cancel c) {
        OrderState o = live.get(c.orderId());
        if (o == null && recent.get(c.orderId()) == null && c.pending() != null) {
            cancelPending(c);
            return;
        }
        if (o == null || !o.customerId.equals(c.customerId())) {
            OrderState r = recent.get(c.orderId());
            Outcomes.Cancellation outcome = r != null && r.customerId.equals(c.customerId()) && !r.isLive()
                    ? new Outcomes.Cancellation(Outcomes.CancelResult.ALREADY_TERMINAL, r.snapshot())
                    : new Outcomes.Cancellation(Outcomes.CancelResult.NOT_FOUND, null);
            group.completions.add(() -> c.result().complete(outcome));
            return;
        }
        symbols.get(o.symbol).book.remove(o);
        finish(o, OrderStatus.CANCELLED);
        group.completions.add(() -> c.result().complete(
                new Outcomes.Cancellation(Outcomes.CancelResult.CANCELLED, o.snapshot())));
    }

    /**
     * Cancels an order that was placed in another region and is not in the engine yet: it is
     * written CANCELLED here (over the PENDING row), so when its inbox row arrives the order is
     * known and never opened. It never reserved anything, so nothing is released.
     */
    private void cancelPending(Command.Cancel c) {
        Order p = c.pending();
        if (!p.customerId().equals(c.customerId()) || p.status() != OrderStatus.PENDING || !owns(p.symbol())) {
            group.completions.add(() -> c.result().complete(new Outcomes.Cancellation(Outcomes.CancelResult.NOT_FOUND, null)));
            return;
        }
        writeAfter(c.pendingWriteMicros());
        OrderState o = neverOpened(p, OrderStatus.CANCELLED);
        group.completions.add(() -> c.result().complete(
                new Outcomes.Cancellation(Outcomes.CancelResult.CANCELLED, o.snapshot())));
    }

    /**
     * A PENDING order from another region that ends here without ever resting (cancelled first, or
     * rejected): written in this group with its full row, and remembered so its inbox row is ignored.
     */
    private OrderState neverOpened(Order p, OrderStatus status) {
        OrderState o = new OrderState(p.orderId(), p.customerId(), p.clientOrderId(), p.symbol(), p.exchange(),
                p.currency(), p.side(), p.type(), p.timeInForce(), p.allOrNone(), p.quantity(), p.limitPrice(),
                p.stopPrice(), 0, null, p.placedAt(), region, p.placedRegion(), -1);
        o.listedWherePlaced = true;
        o.status = status;
        o.updatedAt = now();
        group.orders.put(o.id, o);
        remember(o);
        return o;
    }

    /** Makes this group's writes win over a row another region wrote at {@code micros}, whatever its clock. */
    private void writeAfter(long micros) {
        writeClock.advancePast(micros);
        if (group.timestamp >= 0 && group.timestamp <= micros) {
            group.timestamp = writeClock.next();
        }
    }

    private void onMoveCash(Command.MoveCash m) {
        CashAccount account = cash(m.customerId(), m.currency());
        if (m.amount() < 0 && account.available < -m.amount()) {
            Outcomes.Movement refused = new Outcomes.Movement(false, "insufficient cash: " + account.available + " "
                    + m.currency() + " minor units available, " + -m.amount() + " requested",
                    account.available, account.reserved);
            group.completions.add(() -> m.result().complete(refused));
            return;
        }
        account.available = Math.addExact(account.available, m.amount());
        group.cash.add(account);
        Instant now = now();
        group.transactions.add(store.transaction(m.customerId(), now, UUID.randomUUID(),
                m.amount() >= 0 ? "DEPOSIT" : "WITHDRAWAL", m.currency(), m.amount(), null, null, null, null, region));
        Outcomes.Movement done = new Outcomes.Movement(true, null, account.available, account.reserved);
        group.completions.add(() -> m.result().complete(done));
    }

    private void onTransferShares(Command.TransferShares t) {
        SymbolState s = symbols.get(t.symbol());
        Holding h = holding(t.customerId(), t.symbol());
        h.available = Math.addExact(h.available, t.quantity());
        group.holdings.add(h);
        group.transactions.add(store.transaction(t.customerId(), now(), UUID.randomUUID(), "TRANSFER_IN", s.currency,
                0, t.symbol(), t.quantity(), null, null, region));
        Outcomes.Movement done = new Outcomes.Movement(true, null, h.available, h.reserved);
        group.completions.add(() -> t.result().complete(done));
    }

    /**
     * Whether the symbol's quote should be written with this group. A ticker that changes no order
     * writes nothing of its own: its sequence and quote become durable with the symbol's next write
     * (any fill, trigger, placement, cancel or expiry writes the symbol's state, so every durable
     * change of a book carries the sequence of every ticker applied before it), or after
     * {@code quotePersistInterval} at the latest. A ticker replayed after a crash is then either at
     * or below the durable sequence (a replay, ignored) or meets the very book it met before, which
     * it changed in no way then either.
     */
    private boolean quoteDue(SymbolState s, long nowNanos) {
        return s.quoteSequence != s.persistedQuoteSequence
                && nowNanos - s.persistedAtNanos >= config.quotePersistInterval().toNanos();
    }

    /** Adds to the group the symbols whose latest quote has waited {@code quotePersistInterval} to be written. */
    private void persistQuotesIfDue() {
        long now = System.nanoTime();
        if (now - nextQuoteCheckNanos < 0) {
            return;
        }
        nextQuoteCheckNanos = now + Math.max(config.quotePersistInterval().toNanos() / 4, 1_000_000);
        for (SymbolState s : symbols.values()) {
            if (quoteDue(s, now)) {
                group.symbols.add(s);
            }
        }
    }

    private void expireIfDue() {
        Instant now = now();
        if (now.isBefore(nextExpiryCheck)) {
            return;
        }
        nextExpiryCheck = now.plus(config.expiryInterval());
        for (SymbolState s : symbols.values()) {
            s.book.expireUpTo(now, o -> finish(o, OrderStatus.EXPIRED));
        }
    }

    // ---- account effects

    private boolean reserve(OrderState o) {
        if (o.side == Side.BUY) {
            CashAccount account = cash(o.customerId, o.currency);
            long needed = Math.multiplyExact(o.quantity, o.bookLimit);
            if (account.available < needed) {
                reject(o, Outcomes.INSUFFICIENT_CASH, "insufficient cash: the order needs " + needed + " " + o.currency
                        + " minor units, " + account.available + " available");
                return false;
            }
            account.available -= needed;
            account.reserved += needed;
            o.reserved = needed;
            group.cash.add(account);
        } else {
            Holding h = holding(o.customerId, o.symbol);
            if (h.available < o.quantity) {
                reject(o, Outcomes.INSUFFICIENT_SHARES, "insufficient shares: the order sells " + o.quantity + " "
                        + o.symbol + ", " + h.available + " available");
                return false;
            }
            h.available -= o.quantity;
            h.reserved += o.quantity;
            o.reserved = o.quantity;
            group.holdings.add(h);
        }
        return true;
    }

    private void reject(OrderState o, String reason, String text) {
        o.status = OrderStatus.REJECTED;
        o.rejectReason = text;
        meters.counter("geobroker.orders.rejected", "reason", reason).increment();
    }

    private void fill(SymbolState s, OrderState o, long quantity, long price, long tickerSequence, long exchangeMicros) {
        long notional = Math.multiplyExact(quantity, price);
        long release = Math.multiplyExact(quantity, o.reservationPerShare());
        CashAccount account = cash(o.customerId, o.currency);
        Holding h = holding(o.customerId, o.symbol);
        if (o.side == Side.BUY) {
            account.reserved -= release;
            account.available += release - notional;
            h.available += quantity;
        } else {
            h.reserved -= quantity;
            account.available += notional;
        }
        o.reserved -= release;
        o.filledQuantity += quantity;
        o.filledNotional += notional;
        o.updatedAt = now();
        if (o.filledQuantity == o.quantity) {
            o.status = OrderStatus.FILLED;
            releaseReservation(o);
            live.remove(o.id);
            resting = live.size();
        } else {
            o.status = OrderStatus.PARTIALLY_FILLED;
        }
        UUID fillId = OrderIds.fillId(o.id, tickerSequence);
        group.orders.put(o.id, o);
        group.cash.add(account);
        group.holdings.add(h);
        group.transactions.add(store.transaction(o.customerId, o.updatedAt, fillId, o.side.name(), o.currency,
                o.side == Side.BUY ? -notional : notional, o.symbol, o.side == Side.BUY ? quantity : -quantity, price,
                o.id, region));
        group.fills.add(new EngineStore.FillRow(o.symbol, tickerSequence, fillId, o.id, o.customerId, o.side, o.type,
                price, quantity, o.currency, exchangeMicros, group.timestampMicros()));
        group.fillSymbols.merge(s, tickerSequence, Math::min);
        group.symbols.add(s);
    }

    /** Ends a live order (cancel or expiry) and gives back what it still reserves. */
    private void finish(OrderState o, OrderStatus status) {
        releaseReservation(o);
        o.status = status;
        o.updatedAt = now();
        live.remove(o.id);
        resting = live.size();
        group.orders.put(o.id, o);
    }

    private void releaseReservation(OrderState o) {
        if (o.reserved == 0) {
            return;
        }
        if (o.side == Side.BUY) {
            CashAccount account = cash(o.customerId, o.currency);
            account.reserved -= o.reserved;
            account.available += o.reserved;
            group.cash.add(account);
        } else {
            Holding h = holding(o.customerId, o.symbol);
            h.reserved -= o.reserved;
            h.available += o.reserved;
            group.holdings.add(h);
        }
        o.reserved = 0;
    }

    /**
     * A customer's cash in a currency, read from Cassandra the first time the engine needs it. A read
     * Cassandra does not answer is made again until it is: the command waits, as a group's batch
     * does, instead of stopping the engine halfway through it.
     */
    private CashAccount cash(String customerId, String currency) {
        return cash.computeIfAbsent(customerId + '\u0000' + currency,
                k -> untilAnswered("reading a cash account", accountRereads, () -> store.cash(customerId, currency)));
    }

    /** A customer's holding of a symbol, read like {@link #cash}. */
    private Holding holding(String customerId, String symbol) {
        return holdings.computeIfAbsent(customerId + '\u0000' + symbol,
                k -> untilAnswered("reading a holding", accountRereads, () -> store.holding(customerId, symbol)));
    }

    /**
     * An order this engine placed or holds. The REST layer has already looked in Cassandra; this
     * catches two identical requests racing past that check.
     */
    private OrderState known(UUID orderId) {
        OrderState o = live.get(orderId);
        if (o == null) {
            o = recent.get(orderId);
        }
        return o;
    }

    private void remember(OrderState o) {
        recent.put(o.id, o);
    }

    /** Business time at Cassandra's timestamp precision, so answers match what is read back later. */
    private Instant now() {
        return clock.instant().truncatedTo(java.time.temporal.ChronoUnit.MILLIS);
    }

    /** The close of the symbol's exchange at or after {@code now} (DAY orders expire then). */
    static Instant closeAfter(SymbolInfo info, Instant now, SymbolDirectory directory) {
        Exchange exchange = directory.exchange(info.exchange()).orElseThrow();
        ZonedDateTime local = now.atZone(exchange.timeZone());
        LocalDate day = local.toLocalDate();
        ZonedDateTime close = day.atTime(exchange.close()).atZone(exchange.timeZone());
        if (!close.toInstant().isAfter(now)) {
            close = day.plusDays(1).atTime(exchange.close()).atZone(exchange.timeZone());
        }
        return close.toInstant();
    }

    private Instant closeAfter(SymbolInfo info, Instant now) {
        return closeAfter(info, now, directory);
    }

    private long protectionPrice(long stopPrice, SymbolInfo info) {
        return protectionPrice(stopPrice, info.tickSize(), config.stopProtectionBps());
    }

    /** Stop price plus a margin in basis points, rounded up to the tick (a BUY STOP's price cap). */
    static long protectionPrice(long stopPrice, long tick, int bps) {
        long margin = (Math.multiplyExact(stopPrice, (long) bps) + 9_999) / 10_000;
        long raw = Math.addExact(stopPrice, margin);
        return (raw + tick - 1) / tick * tick;
    }

    // ---- group commit

    private void commit() {
        long timestamp = group.timestampMicros();
        List<BoundStatement> statements = new ArrayList<>();
        Map<SymbolState, Integer> moved = moveBeforeTombstonesPileUp();
        for (OrderState o : group.orders.values()) {
            statements.addAll(store.order(o));
            o.rowWritten = true;
            SymbolState s = symbols.get(o.symbol);
            if (o.isLive() && o.status != OrderStatus.PENDING) {
                if (o.persistedGeneration != s.generation) {
                    statements.add(store.openOrder(o, s.generation));
                    o.persistedGeneration = s.generation;
                }
            } else if (o.persistedGeneration >= 0) {
                Integer dropped = moved.get(s);
                if (dropped == null || o.persistedGeneration != dropped) {
                    statements.add(store.deleteOpenOrder(o.symbol, o.persistedGeneration, o.id));
                }
                if (o.persistedGeneration == s.generation) {
                    s.deletions++;
                    group.symbols.add(s);
                }
                o.persistedGeneration = -1;
            }
        }
        moved.forEach((s, dropped) -> {
            statements.add(store.deleteOpenPartition(s.symbol(), dropped));
            group.symbols.add(s);
        });
        for (CashAccount c : group.cash) {
            statements.add(store.cash(c));
        }
        for (Holding h : group.holdings) {
            statements.add(store.holding(h));
        }
        statements.addAll(group.transactions);
        for (OrderInbox.Entry e : group.inbox) {
            statements.add(store.processed(e));
        }
        for (EngineStore.FillRow f : group.fills) {
            statements.add(store.fill(f));
        }
        group.fillSymbols.forEach((s, first) -> s.lastGroupFirstSequence =
                inFlight != null && inFlight.firstSequences().containsKey(s) ? inFlight.firstSequences().get(s) : first);
        List<BoundStatement> progress = new ArrayList<>();
        for (SymbolState s : group.symbols) {
            progress.add(store.symbolState(s));
        }
        persistGroup(statements, progress, timestamp);
        long persistedNanos = System.nanoTime();
        for (SymbolState s : group.symbols) {
            s.persistedQuoteSequence = s.quoteSequence;
            s.persistedAtNanos = persistedNanos;
            if (s.lastHeld != null) {
                group.offsets.add(s.lastHeld);
            }
            s.release();
        }
        long durableMicros = WallClock.nowMicros();
        group.durableMicros = durableMicros;

        List<Fill> fills = new ArrayList<>(group.fills.size());
        for (EngineStore.FillRow f : group.fills) {
            fills.add(EngineStore.toFill(f, symbols.get(f.symbol()).info.exchange(), region, durableMicros));
            if (f.orderType() != OrderType.MARKET) {
                // a market order fills when placed, at a quote that may be older than the order
                tickerToFill.record(Math.max(0, durableMicros - f.tickerExchangeTimeMicros()), TimeUnit.MICROSECONDS);
            }
        }
        for (Runnable completion : group.completions) {
            completion.run();
        }
        awaitInFlight();
        inFlight = new InFlight(publisher.send(fills), new HashMap<>(group.fillSymbols), new ArrayList<>(group.offsets),
                new ArrayList<>(group.skipped));
        group.clear();
    }

    /**
     * Waits until Kafka has the fills of the group before, then lets its ticker offsets be
     * committed. The wait overlaps the next group's matching and batch; only one group's fills are
     * ever unacknowledged, and {@link #commit} keeps pointing a symbol's {@code last_group_first_sequence}
     * at them until they are, so a restart publishes them again.
     */
    private void awaitInFlight() {
        if (inFlight == null) {
            return;
        }
        long start = System.nanoTime();
        inFlight.fills().await();
        publishTimer.record(System.nanoTime() - start, TimeUnit.NANOSECONDS);
        Map<String, Long> held = heldOffsets();
        for (Command.TickerReceived t : inFlight.offsets()) {
            releaseOffset(held, t.topic(), t.partition(), t.offset() + 1);
        }
        for (Command.Skipped t : inFlight.skipped()) {
            releaseOffset(held, t.topic(), t.partition(), t.offset() + 1);
        }
        inFlight = null;
    }

    /**
     * The first offset per topic partition of a ticker whose quote is not durable yet (it changed no
     * order, and its symbol has not been written since): no offset at or past it may be committed,
     * so a restart reads that ticker again.
     */
    private Map<String, Long> heldOffsets() {
        Map<String, Long> held = new HashMap<>();
        for (SymbolState s : symbols.values()) {
            if (s.firstHeld != null) {
                held.merge(s.firstHeld.topic() + '\u0000' + s.firstHeld.partition(), s.firstHeld.offset(), Math::min);
            }
        }
        return held;
    }

    private void releaseOffset(Map<String, Long> held, String topic, int partition, long nextOffset) {
        Long first = held.get(topic + '\u0000' + partition);
        offsets.done(topic, partition, first == null ? nextOffset : Math.min(nextOffset, first));
    }

    /** A durable group whose fills Kafka has not acknowledged yet, with what waits on them. */
    private record InFlight(FillPublisher.Sent fills, Map<SymbolState, Long> firstSequences,
                            List<Command.TickerReceived> offsets, List<Command.Skipped> skipped) {
    }

    /**
     * The partitions the statements write: Cassandra applies, replicates and acknowledges each as one
     * mutation, so a batch costs more per partition than per statement. All tables are in one
     * keyspace, and rows of different tables with the same partition key value share a mutation.
     */
    static int partitions(List<BoundStatement> statements) {
        Set<ByteBuffer> keys = new HashSet<>();
        for (BoundStatement s : statements) {
            keys.add(s.getRoutingKey());
        }
        return keys.size();
    }

    /**
     * Writes the group as one atomic batch. A group whose batch would pass {@code maxBatchBytes}
     * (only a single command with very many fills gets there, since groups are capped in
     * statements) is written to the {@link GroupJournal} first, then as consecutive batches with the
     * symbols' progress last, and the journal is cleared only after the last of them: a crash in
     * between leaves the journal pending, and {@link #replayJournal} completes the group before the
     * next start rebuilds any state, so the group stays all-or-nothing as customers see it.
     */
    private void persistGroup(List<BoundStatement> effects, List<BoundStatement> progress, long timestamp) {
        List<BoundStatement> all = new ArrayList<>(effects);
        all.addAll(progress);
        if (all.isEmpty()) {
            return;
        }
        lastCommitStartNanos = System.nanoTime();
        groupStatements.record(all.size());
        groupPartitions.record(partitions(all));
        long size = 0;
        for (BoundStatement s : all) {
            size += store.sizeOf(s);
        }
        if (size <= config.maxBatchBytes()) {
            if (persistOnce(all, timestamp)) {
                return;
            }
            int splitBytes = Math.min(config.maxBatchBytes(), SPLIT_BATCH_BYTES);
            if (size <= splitBytes) {
                persist(all, timestamp);
                return;
            }
            splitGroups.increment();
            log.warn("group of {} statements ({} bytes) not confirmed: journalled, then written again in batches "
                    + "of at most {} bytes", all.size(), size, splitBytes);
            persistThroughJournal(all, effects, progress, timestamp, splitBytes);
            return;
        }
        oversizedGroups.increment();
        log.info("group of {} statements ({} bytes) exceeds {} bytes: journalled, then written in several batches",
                all.size(), size, config.maxBatchBytes());
        persistThroughJournal(all, effects, progress, timestamp, config.maxBatchBytes());
    }

    /**
     * The journal first, then the statements in batches of at most {@code chunkBytes} with the
     * symbols' progress last, then the journal cleared: all-or-nothing across a crash.
     */
    private void persistThroughJournal(List<BoundStatement> all, List<BoundStatement> effects,
                                       List<BoundStatement> progress, long timestamp, int chunkBytes) {
        retry("writing the journal of a group of " + all.size() + " statements", () -> journal.write(all, timestamp));
        persistInChunks(effects, progress, timestamp, chunkBytes);
        long cleared = writeClock.next();
        retry("clearing the journal", () -> journal.clear(cleared));
    }

    /** Writes statements in consecutive batches of at most {@code chunkBytes}, then {@code last} on its own. */
    private void persistInChunks(List<BoundStatement> statements, List<BoundStatement> last, long timestamp,
                                 int chunkBytes) {
        List<BoundStatement> chunk = new ArrayList<>();
        long chunkSize = 0;
        for (BoundStatement s : statements) {
            int bytes = store.sizeOf(s);
            if (!chunk.isEmpty() && chunkSize + bytes > chunkBytes) {
                persist(chunk, timestamp);
                chunk = new ArrayList<>();
                chunkSize = 0;
            }
            chunk.add(s);
            chunkSize += bytes;
        }
        if (!chunk.isEmpty()) {
            persist(chunk, timestamp);
        }
        if (!last.isEmpty()) {
            persist(last, timestamp);
        }
    }

    /**
     * Completes a group whose journal a crashed broker left pending: its statements are written
     * again with the group's own timestamp (absolute values, so what was already applied is written
     * identically and anything written later still wins), then the journal is cleared.
     */
    private void replayJournal() {
        Optional<GroupJournal.Pending> pending = journal.pending();
        if (pending.isEmpty()) {
            return;
        }
        GroupJournal.Pending group = pending.get();
        log.warn("applying the journal of an interrupted group: {} statements with write timestamp {}",
                group.entries().size(), group.timestamp());
        persistInChunks(journal.bind(group.entries()), List.of(), group.timestamp(), config.maxBatchBytes());
        writeClock.advancePast(group.timestamp());
        long cleared = writeClock.next();
        retry("clearing the journal", () -> journal.clear(cleared));
    }

    /** Runs a write until Cassandra confirms it; the write must be idempotent. */
    private void retry(String what, Runnable write) {
        untilAnswered(what, null, () -> {
            write.run();
            return null;
        });
    }

    /**
     * Runs a Cassandra call until it is answered, backing off from 50 ms to 2 s between attempts;
     * the call must be idempotent. Each failed attempt is logged and counted on {@code failures}.
     */
    private <T> T untilAnswered(String what, Counter failures, Supplier<T> call) {
        long backoffMillis = 50;
        while (true) {
            try {
                return call.get();
            } catch (RuntimeException e) {
                if (failures != null) {
                    failures.increment();
                }
                log.warn("{} failed ({}); trying again", what, e.toString());
                sleep(backoffMillis);
                backoffMillis = Math.min(backoffMillis * 2, 2_000);
            }
        }
    }

    /**
     * One attempt at a group's batch; false when it failed or its outcome is unknown (a timeout: it
     * may still be applied, with the same values and timestamp as any later write of the group).
     */
    private boolean persistOnce(List<BoundStatement> statements, long timestamp) {
        long start = System.nanoTime();
        try {
            store.executeBatch(statements, timestamp);
            persistTimer.record(System.nanoTime() - start, TimeUnit.NANOSECONDS);
            return true;
        } catch (RuntimeException e) {
            log.warn("group commit of {} statements failed ({})", statements.size(), e.toString());
            return false;
        }
    }

    /** Writes a batch until Cassandra confirms it: the same statements and timestamp every time. */
    private void persist(List<BoundStatement> statements, long timestamp) {
        long start = System.nanoTime();
        retry("group commit of " + statements.size() + " statements", () -> store.executeBatch(statements, timestamp));
        persistTimer.record(System.nanoTime() - start, TimeUnit.NANOSECONDS);
    }

    /**
     * Keeps every read of a symbol's open orders below {@code deletionsPerGeneration} row
     * tombstones: a symbol whose current open_orders partition would reach that many deletions with
     * this group moves to a fresh partition as part of the group, so a group that fills thousands of
     * orders never leaves them as tombstones in the partition a restart reads.
     *
     * <p>Before the group is written, the next partition is cleared (one partition tombstone, in case
     * an interrupted earlier move left rows there) and the orders resting after the group are copied
     * in; nothing reads it yet. The group itself then switches symbol_state to it and drops the old
     * partition whole, atomically with its fills: a crash before that leaves the old partition in use
     * and the copy unused.
     *
     * @return the symbols moved, each with the generation the group drops
     */
    private Map<SymbolState, Integer> moveBeforeTombstonesPileUp() {
        Map<SymbolState, Integer> deletions = new HashMap<>();
        for (OrderState o : group.orders.values()) {
            SymbolState s = symbols.get(o.symbol);
            boolean leaves = !(o.isLive() && o.status != OrderStatus.PENDING);
            if (leaves && o.persistedGeneration >= 0 && o.persistedGeneration == s.generation) {
                deletions.merge(s, 1, Integer::sum);
            }
        }
        Map<SymbolState, Integer> moved = new HashMap<>();
        deletions.forEach((s, count) -> {
            if (s.deletions + count >= config.deletionsPerGeneration()) {
                moved.put(s, s.generation);
                copyToNextGeneration(s);
            }
        });
        return moved;
    }

    private void copyToNextGeneration(SymbolState s) {
        int next = s.generation + 1;
        persistPartition(List.of(store.deleteOpenPartition(s.symbol(), next)), writeClock.next());
        List<BoundStatement> chunk = new ArrayList<>();
        for (OrderState o : s.book.orders()) {
            chunk.add(store.openOrder(o, next));
            if (chunk.size() == 50) {
                persistPartition(chunk, writeClock.next());
                chunk = new ArrayList<>();
            }
        }
        if (!chunk.isEmpty()) {
            persistPartition(chunk, writeClock.next());
        }
        s.generation = next;
        s.deletions = 0;
        for (OrderState o : s.book.orders()) {
            o.persistedGeneration = next;
        }
        log.debug("{} moves to open_orders generation {} with {} resting orders", s.symbol(), next, s.book.size());
    }

    private void persistPartition(List<BoundStatement> statements, long timestamp) {
        retry("writing " + statements.size() + " open orders", () -> store.executePartitionBatch(statements, timestamp));
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting to call Cassandra again", e);
        }
    }

    /** What one group changed, coalesced per row so every row is written once with its final values. */
    private final class Group {
        int commands;
        long timestamp = -1;
        long durableMicros;
        final Map<UUID, OrderState> orders = new LinkedHashMap<>();
        final Set<CashAccount> cash = new LinkedHashSet<>();
        final Set<Holding> holdings = new LinkedHashSet<>();
        final List<BoundStatement> transactions = new ArrayList<>();
        final List<EngineStore.FillRow> fills = new ArrayList<>();
        final Map<SymbolState, Long> fillSymbols = new LinkedHashMap<>();
        final Set<SymbolState> symbols = new LinkedHashSet<>();
        final List<Runnable> completions = new ArrayList<>();
        final List<Command.TickerReceived> offsets = new ArrayList<>();
        final List<Command.Skipped> skipped = new ArrayList<>();
        final List<OrderInbox.Entry> inbox = new ArrayList<>();

        /** The write timestamp of this group, fixed at its first use so a retried batch is identical. */
        long timestampMicros() {
            if (timestamp < 0) {
                timestamp = writeClock.next();
            }
            return timestamp;
        }

        int statementEstimate() {
            return orders.size() * 3 + cash.size() + holdings.size() + transactions.size() + fills.size()
                    + symbols.size() + inbox.size();
        }

        boolean isEmpty() {
            return commands == 0 && orders.isEmpty() && transactions.isEmpty() && inbox.isEmpty() && symbols.isEmpty();
        }

        void clear() {
            commands = 0;
            timestamp = -1;
            orders.clear();
            cash.clear();
            holdings.clear();
            transactions.clear();
            fills.clear();
            fillSymbols.clear();
            symbols.clear();
            completions.clear();
            offsets.clear();
            skipped.clear();
            inbox.clear();
        }
    }
}
