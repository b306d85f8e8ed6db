package io.geobroker.ticker.publish;

import org.apache.kafka.clients.producer.Callback;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;

/**
 * The Kafka producers of one region's tickers: one that sends each ticker at once and one that
 * lingers to put several in a request, used as {@link LingerChoice} says from the rate the
 * tickers come at. A linger halves Kafka's requests at a few hundred tickers a second, but below
 * that it seldom finds a second ticker and only delays the one it holds.
 *
 * <p>A switch waits until every ticker handed to the producer in use is acknowledged (or failed):
 * the two producers' requests are not ordered with each other, and a symbol's tickers must reach
 * its partition in order. Until then the producer in use keeps sending; nothing blocks.
 * Thread-safe.
 */
public final class RegionProducer implements AutoCloseable {

    private final Side eager;
    private final Side lingering;
    private final LingerChoice choice;
    private final LongSupplier nanoClock;
    private final boolean singleLingers;
    private Side current;
    private long switches;

    private record Side(Producer<String, byte[]> producer, AtomicLong unacknowledged) {
        Side(Producer<String, byte[]> producer) {
            this(producer, new AtomicLong());
        }
    }

    /**
     * @param lingerFromPerSecond the rate (tickers a second) from which {@code lingering} is used; 0
     *                            uses it always
     */
    public RegionProducer(Producer<String, byte[]> eager, Producer<String, byte[]> lingering,
                          double lingerFromPerSecond, LongSupplier nanoClock) {
        this(new Side(eager), new Side(lingering), lingerFromPerSecond, nanoClock, false);
    }

    private RegionProducer(Side eager, Side lingering, double lingerFromPerSecond, LongSupplier nanoClock,
                           boolean singleLingers) {
        this.eager = eager;
        this.lingering = lingering;
        this.nanoClock = nanoClock;
        this.singleLingers = singleLingers;
        this.choice = new LingerChoice(lingerFromPerSecond, nanoClock.getAsLong());
        this.current = lingerFromPerSecond == 0 ? lingering : eager;
    }

    /** One producer for every rate; {@code lingers}: whether it is configured with a linger. */
    public static RegionProducer single(Producer<String, byte[]> producer, boolean lingers) {
        Side side = new Side(producer);
        return new RegionProducer(side, side, 0, System::nanoTime, lingers);
    }

    /** Hands a record to the producer the current rate calls for; {@code callback} as {@link Producer#send}'s. */
    public synchronized void send(ProducerRecord<String, byte[]> record, Callback callback) {
        Side wanted = choice.onSend(nanoClock.getAsLong()) ? lingering : eager;
        if (wanted != current && current.unacknowledged().get() == 0) {
            current = wanted;
            switches++;
        }
        Side side = current;
        AtomicBoolean done = new AtomicBoolean();
        side.unacknowledged().incrementAndGet();
        try {
            side.producer().send(record, (metadata, exception) -> {
                if (done.compareAndSet(false, true)) {
                    side.unacknowledged().decrementAndGet();
                }
                callback.onCompletion(metadata, exception);
            });
        } catch (RuntimeException e) {
            if (done.compareAndSet(false, true)) {
                side.unacknowledged().decrementAndGet();
            }
            throw e;
        }
    }

    /** Whether tickers go to the lingering producer now. */
    public synchronized boolean lingering() {
        return lingering == eager ? singleLingers : current == lingering;
    }

    /** How many times the producer in use changed. */
    public synchronized long switches() {
        return switches;
    }

    /** Waits until every record handed over so far is acknowledged or failed. */
    public void flush() {
        eager.producer().flush();
        if (lingering != eager) {
            lingering.producer().flush();
        }
    }

    @Override
    public void close() {
        close(Duration.ofSeconds(5));
    }

    public void close(Duration timeout) {
        eager.producer().close(timeout);
        if (lingering != eager) {
            lingering.producer().close(timeout);
        }
    }
}
