package io.geobroker.broker.live;

import io.geobroker.broker.fill.FillListener;
import io.geobroker.broker.quote.QuoteDao;
import io.geobroker.domain.Fill;
import io.geobroker.domain.OrderEvent;
import io.geobroker.domain.Region;
import io.geobroker.domain.SymbolDirectory;
import io.geobroker.domain.Ticker;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;
import org.springframework.stereotype.Component;
import org.springframework.web.servlet.mvc.method.annotation.SseEmitter;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

/**
 * What the live page is pushed: prices and the customer's own fills and order events (an order
 * cancelled or expired), as Server-Sent Events on a stream per open page ({@link LiveController}).
 *
 * <p>Prices of this region's symbols are taken from the ticker consumer as each ticker arrives,
 * before the engine applies it; one thread pushes whatever changed at most every
 * {@link #COALESCE} (so a page gets one event per ~20 ms, not one per ticker, and a ticker is on
 * its way to the pages within that time; {@code geobroker.live.price.push} times each from the
 * consumer to the written event). Other regions' tickers come the same way from their own Kafka
 * while a page is open ({@link RemoteRegions}), where the deployment lets a broker reach it; in
 * any case their home broker writes its latest quote to {@code symbol_state} (every
 * {@code quote-persist-interval}) and Cassandra replicates it, and this broker reads that table every
 * {@link #REMOTE_POLL} while a page is open (source "replicated"). Fills and order events are
 * pushed to the pages of the customer whose order they concern: this region's as soon as the engine
 * has made them durable, other regions' as soon as {@link RemoteRegions} reads them from their home
 * region's Kafka (published there once durable). Nothing is kept per page but its stream; with no
 * page open nothing is done.
 */
@Component
public class LiveFeed implements FillListener, SmartLifecycle {

    /** A price as the page shows it: minor units, the volume at it, and where it came from. */
    public record PriceView(String symbol, long price, long volume, long sequence, long exchangeTimeMicros,
                            String source) {
    }

    /**
     * A fill as the page shows it, with the order's quantity and filled totals after it (null for a
     * fill published from a row written before they were kept), so the page updates the order's row.
     */
    public record FillView(String fillId, String orderId, String symbol, String side, String orderType, long price,
                           long quantity, String currency, String region, long durableTimeMicros,
                           Long orderQuantity, Long orderFilledQuantity, Long orderFilledNotional) {
        static FillView of(Fill f) {
            return new FillView(f.fillId(), f.orderId(), f.symbol(), f.side().name(), f.orderType().name(), f.price(),
                    f.quantity(), f.currency(), f.region(), f.durableTimeMicros(), f.orderQuantity(),
                    f.orderFilledQuantity(), f.orderFilledNotional());
        }
    }

    /** An order that ended (CANCELLED or EXPIRED) as the page shows it: its new status and totals. */
    public record OrderView(String orderId, String clientOrderId, String symbol, String side, String status,
                            long quantity, long filledQuantity, long filledNotional, String currency, String region,
                            long eventTimeMicros) {
        static OrderView of(OrderEvent e) {
            return new OrderView(e.orderId(), e.clientOrderId(), e.symbol(), e.side().name(), e.status().name(),
                    e.quantity(), e.filledQuantity(), e.filledNotional(), e.currency(), e.region(), e.eventTimeMicros());
        }
    }

    /** How long changed prices are gathered into one event. */
    static final Duration COALESCE = Duration.ofMillis(20);
    /** How often other regions' quotes are read from this region's DC while a page is open. */
    static final Duration REMOTE_POLL = Duration.ofSeconds(1);
    /** A comment line this often tells a page the stream is alive, and finds streams whose page is gone. */
    static final Duration HEARTBEAT = Duration.ofSeconds(15);
    static final String TICKER = "ticker";
    static final String REPLICATED = "replicated";

    private static final Logger log = LoggerFactory.getLogger(LiveFeed.class);

    private final QuoteDao quotes;
    private final SymbolDirectory directory;
    private final Region region;
    private final Map<String, PriceView> latest = new ConcurrentHashMap<>();
    private final Map<String, PriceView> changed = new ConcurrentHashMap<>();
    /** Per symbol, the latest ticker handed over by the consumer and when (System.nanoTime()). */
    private final Map<String, Received> received = new ConcurrentHashMap<>();
    private final Timer pushDelay;
    private final ConcurrentLinkedQueue<Fill> fills = new ConcurrentLinkedQueue<>();
    private final ConcurrentLinkedQueue<OrderEvent> ended = new ConcurrentLinkedQueue<>();
    private final List<Subscriber> subscribers = new CopyOnWriteArrayList<>();
    private final Object signal = new Object();
    private boolean dirty;
    private volatile boolean running;
    /** The regions whose fills and order events reach the pages: this one, and those {@link RemoteRegions} reads. */
    private volatile List<String> pushedRegions;
    private Thread pusher;
    private Thread remote;

    private record Subscriber(String customerId, SseEmitter emitter) {
    }

    private record Received(long sequence, long nanos) {
    }

    public LiveFeed(QuoteDao quotes, SymbolDirectory directory, Region region, MeterRegistry meters) {
        this.quotes = quotes;
        this.directory = directory;
        this.region = region;
        this.pushedRegions = List.of(region.name());
        this.pushDelay = Timer.builder("geobroker.live.price.push")
                .description("A ticker handed over by the consumer to its price written to every open page")
                .publishPercentileHistogram().register(meters);
    }

    // ---- producers

    /** A ticker as a consumer received it (this region's, or another's read by {@link RemoteRegions}). Never blocks. */
    public void tickerReceived(Ticker ticker) {
        if (subscribers.isEmpty()) {
            return;
        }
        received.put(ticker.symbol(), new Received(ticker.sequence(), System.nanoTime()));
        offer(new PriceView(ticker.symbol(), ticker.price(), ticker.volume(), ticker.sequence(),
                ticker.exchangeTimeMicros(), TICKER));
    }

    /** Fills of this region's engine (once durable) or of another region's (read by {@link RemoteRegions}). Never blocks. */
    @Override
    public void filled(List<Fill> group) {
        if (subscribers.isEmpty()) {
            return;
        }
        fills.addAll(group);
        wake();
    }

    /** Order events of this region's engine (once durable) or of another region's. Never blocks. */
    @Override
    public void ended(List<OrderEvent> events) {
        if (subscribers.isEmpty()) {
            return;
        }
        ended.addAll(events);
        wake();
    }

    private void offer(PriceView price) {
        offer(price, true);
    }

    /**
     * Keeps the newer of two prices of a symbol (sequences grow per symbol) and, if {@code push},
     * pushes it to the open pages when it was newer.
     */
    private void offer(PriceView price, boolean push) {
        PriceView kept = latest.merge(price.symbol(), price, (old, now) -> now.sequence() > old.sequence() ? now : old);
        if (kept == price && push) {
            changed.put(price.symbol(), price);
            wake();
        }
    }

    private void wake() {
        synchronized (signal) {
            dirty = true;
            signal.notifyAll();
        }
    }

    /** The other regions whose Kafka {@link RemoteRegions} reads while a page is open. */
    void pushedFrom(List<String> otherRegions) {
        List<String> all = new ArrayList<>();
        all.add(region.name());
        all.addAll(otherRegions);
        pushedRegions = List.copyOf(all);
    }

    // ---- pages

    /**
     * Opens a page's stream: which regions' fills and order events it is pushed ({@code hello}), the
     * prices known now, then changes and the customer's fills and order events. The first
     * page also reads the other regions' quotes at once, so it does not wait for the next poll.
     */
    public void subscribe(String customerId, SseEmitter emitter) throws IOException {
        if (subscribers.isEmpty()) {
            readReplicatedQuotes(false);
        }
        Subscriber subscriber = new Subscriber(customerId, emitter);
        emitter.onCompletion(() -> subscribers.remove(subscriber));
        emitter.onTimeout(() -> subscribers.remove(subscriber));
        emitter.onError(e -> subscribers.remove(subscriber));
        emitter.send(SseEmitter.event().name("hello").data(Map.of("region", region.name(), "customerId", customerId,
                "pushedRegions", pushedRegions)));
        emitter.send(SseEmitter.event().name("prices").data(sorted(latest.values())));
        subscribers.add(subscriber);
    }

    public int subscribers() {
        return subscribers.size();
    }

    // ---- threads

    @Override
    public void start() {
        running = true;
        pusher = new Thread(this::pushLoop, "live-pusher");
        pusher.setDaemon(true);
        pusher.start();
        remote = new Thread(this::remoteLoop, "live-replicated-quotes");
        remote.setDaemon(true);
        remote.start();
    }

    @Override
    public void stop() {
        running = false;
        wake();
        for (Subscriber s : subscribers) {
            try {
                s.emitter().complete();
            } catch (IllegalStateException e) {
                log.debug("a live page's stream had already ended", e);
            }
        }
        subscribers.clear();
        for (Thread t : new Thread[] {pusher, remote}) {
            if (t != null) {
                t.interrupt();
            }
        }
    }

    @Override
    public boolean isRunning() {
        return running;
    }

    private void pushLoop() {
        long nextHeartbeat = System.nanoTime() + HEARTBEAT.toNanos();
        try {
            while (running) {
                synchronized (signal) {
                    long wait = TimeUnit.NANOSECONDS.toMillis(nextHeartbeat - System.nanoTime());
                    if (!dirty && wait > 0) {
                        signal.wait(wait);
                    }
                    dirty = false;
                }
                try {
                    push();
                    if (System.nanoTime() - nextHeartbeat >= 0) {
                        heartbeat();
                        nextHeartbeat = System.nanoTime() + HEARTBEAT.toNanos();
                    }
                } catch (RuntimeException e) {
                    log.warn("pushing to the live pages failed; the next push goes on", e);
                }
                Thread.sleep(COALESCE.toMillis());
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void push() {
        List<PriceView> prices = new ArrayList<>();
        for (String symbol : List.copyOf(changed.keySet())) {
            PriceView p = changed.remove(symbol);
            if (p != null) {
                prices.add(p);
            }
        }
        Map<String, List<FillView>> byCustomer = new HashMap<>();
        Fill f;
        while ((f = fills.poll()) != null) {
            byCustomer.computeIfAbsent(f.customerId(), k -> new ArrayList<>()).add(FillView.of(f));
        }
        Map<String, List<OrderView>> endedByCustomer = new HashMap<>();
        OrderEvent e;
        while ((e = ended.poll()) != null) {
            endedByCustomer.computeIfAbsent(e.customerId(), k -> new ArrayList<>()).add(OrderView.of(e));
        }
        if (prices.isEmpty() && byCustomer.isEmpty() && endedByCustomer.isEmpty()) {
            return;
        }
        List<PriceView> sortedPrices = sorted(prices);
        for (Subscriber s : subscribers) {
            List<FillView> own = byCustomer.get(s.customerId());
            List<OrderView> ownEnded = endedByCustomer.get(s.customerId());
            if (!sortedPrices.isEmpty()) {
                send(s, SseEmitter.event().name("prices").data(sortedPrices));
            }
            if (own != null) {
                send(s, SseEmitter.event().name("fills").data(own));
            }
            if (ownEnded != null) {
                send(s, SseEmitter.event().name("orders").data(ownEnded));
            }
        }
        long written = System.nanoTime();
        for (PriceView p : prices) {
            Received r = received.get(p.symbol());
            if (r != null && r.sequence() == p.sequence() && received.remove(p.symbol(), r)) {
                pushDelay.record(written - r.nanos(), TimeUnit.NANOSECONDS);
            }
        }
    }

    private void heartbeat() {
        for (Subscriber s : subscribers) {
            send(s, SseEmitter.event().comment("alive"));
        }
    }

    /**
     * Sends one event; a page that is gone is dropped. Its stream is not completed from here: after
     * a failed write the servlet container ends the request itself, and a stream whose request has
     * already ended or failed ({@link IllegalStateException}) refuses to be completed by another thread.
     */
    private void send(Subscriber s, SseEmitter.SseEventBuilder event) {
        try {
            s.emitter().send(event);
        } catch (IOException | IllegalStateException e) {
            subscribers.remove(s);
            log.debug("a live page's stream is gone; it is pushed nothing more", e);
        }
    }

    private void remoteLoop() {
        try {
            while (running) {
                Thread.sleep(REMOTE_POLL.toMillis());
                if (!subscribers.isEmpty()) {
                    readReplicatedQuotes(true);
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * Other regions' latest quotes as replicated to this region's DC (and this region's own, which
     * the first page needs before their next ticker); pushed to the open pages if {@code push}.
     */
    private void readReplicatedQuotes(boolean push) {
        try {
            for (QuoteDao.Quote q : quotes.all().values()) {
                offer(new PriceView(q.symbol(), q.price(), q.volume(), q.sequence(), q.exchangeTimeMicros(),
                        ownedHere(q.symbol()) ? TICKER : REPLICATED), push);
            }
        } catch (RuntimeException e) {
            log.debug("reading the replicated quotes failed; the next poll tries again", e);
        }
    }

    private boolean ownedHere(String symbol) {
        return directory.symbol(symbol).map(s -> region.owns(s.exchange())).orElse(false);
    }

    private static List<PriceView> sorted(Collection<PriceView> prices) {
        return prices.stream().sorted(Comparator.comparing(PriceView::symbol)).toList();
    }
}
