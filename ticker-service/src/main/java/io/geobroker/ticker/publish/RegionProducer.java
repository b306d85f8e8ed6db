package io.geobroker.ticker.publish;

import org.apache.kafka.clients.producer.Callback;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;

import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.LongSupplier;

/**
 * The Kafka producers of one region's tickers: one that sends each ticker at once and one that
 * lingers to put several in a request, used as {@link LingerChoice} says from the rate the
 * tickers come at. A linger halves Kafka's requests at a few hundred tickers a second, but below
 * that it seldom finds a second ticker and only delays the one it holds.
 *
 * <p>The two producers' requests are not ordered with each other, and a symbol's tickers must
 * reach its partition in order. So a symbol (a record's key) moves to the producer the rate calls
 * for only once every ticker of it handed to the other one is acknowledged (or failed); until then
 * its tickers go where its last one went. A ticker that goes to the lingering producer only so is
 * flushed at once, on a thread of its own: a symbol whose tickers come faster than the linger is
 * not held there. Nothing blocks the caller. Thread-safe.
 */
public final class RegionProducer implements AutoCloseable {

    private final Producer<String, byte[]> eager;
    private final Producer<String, byte[]> lingering;
    private final LingerChoice choice;
    private final LongSupplier nanoClock;
    private final boolean singleLingers;
    /** Per symbol: the producer its last ticker went to, and how many of its tickers that one has unanswered. */
    private final Map<String, Placement> placements = new HashMap<>();
    private final AtomicBoolean flushing = new AtomicBoolean();
    private final ExecutorService flusher;
    private Producer<String, byte[]> current;
    private long switches;

    private static final class Placement {
        private Producer<String, byte[]> side;
        private final AtomicInteger unanswered = new AtomicInteger();

        private Placement(Producer<String, byte[]> side) {
            this.side = side;
        }
    }

    /**
     * @param lingerFromPerSecond the rate (tickers a second) from which {@code lingering} is used; 0
     *                            uses it always
     */
    public RegionProducer(Producer<String, byte[]> eager, Producer<String, byte[]> lingering,
                          double lingerFromPerSecond, LongSupplier nanoClock) {
        this(eager, lingering, lingerFromPerSecond, nanoClock, false);
    }

    private RegionProducer(Producer<String, byte[]> eager, Producer<String, byte[]> lingering,
                           double lingerFromPerSecond, LongSupplier nanoClock, boolean singleLingers) {
        this.eager = eager;
        this.lingering = lingering;
        this.nanoClock = nanoClock;
        this.singleLingers = singleLingers;
        this.choice = new LingerChoice(lingerFromPerSecond, nanoClock.getAsLong());
        this.current = lingerFromPerSecond == 0 ? lingering : eager;
        this.flusher = eager == lingering ? null : Executors.newSingleThreadExecutor(r -> {
            Thread thread = new Thread(r, "ticker-producer-flush");
            thread.setDaemon(true);
            return thread;
        });
    }

    /** One producer for every rate; {@code lingers}: whether it is configured with a linger. */
    public static RegionProducer single(Producer<String, byte[]> producer, boolean lingers) {
        return new RegionProducer(producer, producer, 0, System::nanoTime, lingers);
    }

    /** Hands a record to the producer the current rate calls for; {@code callback} as {@link Producer#send}'s. */
    public synchronized void send(ProducerRecord<String, byte[]> record, Callback callback) {
        Producer<String, byte[]> wanted = choice.onSend(nanoClock.getAsLong()) ? lingering : eager;
        if (wanted != current) {
            current = wanted;
            switches++;
        }
        Placement placement = placements.computeIfAbsent(record.key(), key -> new Placement(current));
        if (placement.side != current && placement.unanswered.get() == 0) {
            placement.side = current;
        }
        Producer<String, byte[]> side = placement.side;
        AtomicBoolean done = new AtomicBoolean();
        placement.unanswered.incrementAndGet();
        try {
            side.send(record, (metadata, exception) -> {
                if (done.compareAndSet(false, true)) {
                    placement.unanswered.decrementAndGet();
                }
                callback.onCompletion(metadata, exception);
            });
        } catch (RuntimeException e) {
            if (done.compareAndSet(false, true)) {
                placement.unanswered.decrementAndGet();
            }
            throw e;
        }
        if (side != current && side == lingering) {
            flushLingering();
        }
    }

    /** Sends what the lingering producer holds without waiting for its linger, off the caller's thread. */
    private void flushLingering() {
        if (flushing.compareAndSet(false, true)) {
            flusher.execute(() -> {
                try {
                    lingering.flush();
                } catch (RuntimeException e) {
                    // closed or interrupted: a later send asks again, and its callback reports a failure
                } finally {
                    flushing.set(false);
                }
            });
        }
    }

    /** Whether tickers go to the lingering producer now (a symbol may follow once its last ones are answered). */
    public synchronized boolean lingering() {
        return lingering == eager ? singleLingers : current == lingering;
    }

    /** How many times the producer the rate calls for changed. */
    public synchronized long switches() {
        return switches;
    }

    /** Waits until every record handed over so far is acknowledged or failed. */
    public void flush() {
        eager.flush();
        if (lingering != eager) {
            lingering.flush();
        }
    }

    @Override
    public void close() {
        close(Duration.ofSeconds(5));
    }

    public void close(Duration timeout) {
        if (flusher != null) {
            flusher.shutdown();
        }
        eager.close(timeout);
        if (lingering != eager) {
            lingering.close(timeout);
        }
    }
}
