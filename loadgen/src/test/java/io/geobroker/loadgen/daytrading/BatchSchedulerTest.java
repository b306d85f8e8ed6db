package io.geobroker.loadgen.daytrading;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

import static org.assertj.core.api.Assertions.assertThat;

class BatchSchedulerTest {

    /** {@code count} lines of {@code users} users in random order, with admin DUMPLOGs and a malformed line among them. */
    private static List<WorkloadLine> lines(int count, int users, long seed) {
        SplittableRandom random = new SplittableRandom(seed);
        List<WorkloadLine> lines = new ArrayList<>();
        for (int n = 1; n <= count; n++) {
            String text;
            if (n % 997 == 0) {
                text = "[" + n + "] DUMPLOG,./LOG" + n;
            } else if (n == 1500) {
                text = "this is no command";
            } else {
                text = "[" + n + "] QUOTE,user" + random.nextInt(users) + ",ABC";
            }
            lines.add(WorkloadLine.parse(text));
        }
        return lines;
    }

    @Test
    void never_reorders_a_users_lines_nor_puts_them_in_two_batches_in_flight() throws Exception {
        List<WorkloadLine> lines = lines(5_000, 25, 7);
        Set<String> inFlightUsers = ConcurrentHashMap.newKeySet();
        AtomicInteger inFlight = new AtomicInteger();
        Map<String, List<Long>> sentOrder = new ConcurrentHashMap<>();
        List<String> violations = Collections.synchronizedList(new ArrayList<>());
        AtomicLong sentLines = new AtomicLong();
        SplittableRandom delays = new SplittableRandom(11);
        BatchScheduler scheduler = new BatchScheduler(50, 6, 400);
        List<List<WorkloadLine>> answered = new ArrayList<>();

        scheduler.run(lines.iterator(), batch -> {
            int others = inFlight.getAndIncrement();
            try {
                assertThat(batch.size()).isBetween(1, 50);
                if (batch.get(0).barrier()) {
                    if (batch.size() != 1 || others != 0) {
                        violations.add("barrier " + batch.get(0).text() + " not alone: " + batch.size() + " lines, "
                                + others + " other batches in flight");
                    }
                }
                List<String> mine = new ArrayList<>();
                for (WorkloadLine line : batch) {
                    if (line.user() != null && !mine.contains(line.user())) {
                        mine.add(line.user());
                        if (!inFlightUsers.add(line.user())) {
                            violations.add(line.user() + " in two batches in flight");
                        }
                    }
                    sentOrder.computeIfAbsent(line.user() == null ? "-" : line.user(),
                            u -> Collections.synchronizedList(new ArrayList<>())).add(line.transactionNum());
                }
                sentLines.addAndGet(batch.size());
                long delay;
                synchronized (delays) {
                    delay = delays.nextLong(200_000);
                }
                LockSupport.parkNanos(delay);
                mine.forEach(inFlightUsers::remove);
                return batch.size();
            } finally {
                inFlight.decrementAndGet();
            }
        }, (batch, answer, failure, sent, done) -> {
            assertThat(failure).isNull();
            assertThat(answer).isEqualTo(batch.size());
            answered.add(batch);
        });

        assertThat(violations).isEmpty();
        assertThat(sentLines.get()).isEqualTo(lines.size());
        assertThat(answered.stream().mapToInt(List::size).sum()).isEqualTo(lines.size());
        Map<String, List<Long>> fileOrder = new HashMap<>();
        for (WorkloadLine line : lines) {
            fileOrder.computeIfAbsent(line.user() == null ? "-" : line.user(), u -> new ArrayList<>()).add(line.transactionNum());
        }
        assertThat(sentOrder).isEqualTo(fileOrder);
        assertThat(answered).as("concurrency was used: several users per batch at times")
                .anyMatch(b -> b.stream().map(WorkloadLine::user).distinct().count() > 1);
    }

    @Test
    void holds_no_more_than_the_read_ahead_while_batches_wait() throws Exception {
        List<WorkloadLine> lines = new ArrayList<>();
        for (int n = 1; n <= 10_000; n++) {
            lines.add(WorkloadLine.parse("[" + n + "] QUOTE,u" + (n % 3) + ",ABC"));
        }
        AtomicLong pulled = new AtomicLong();
        Iterator<WorkloadLine> source = new Iterator<>() {
            final Iterator<WorkloadLine> it = lines.iterator();

            public boolean hasNext() {
                return it.hasNext();
            }

            public WorkloadLine next() {
                pulled.incrementAndGet();
                return it.next();
            }
        };
        CountDownLatch twoInFlight = new CountDownLatch(2);
        CountDownLatch release = new CountDownLatch(1);
        BatchScheduler scheduler = new BatchScheduler(10, 2, 100);
        var pool = Executors.newSingleThreadExecutor();
        try {
            Future<?> run = pool.submit(() -> {
                scheduler.run(source, batch -> {
                    twoInFlight.countDown();
                    release.await();
                    return null;
                }, (batch, answer, failure, sent, done) -> { });
                return null;
            });
            assertThat(twoInFlight.await(10, TimeUnit.SECONDS)).isTrue();
            // two batches of 10 sent, the read-ahead refilled to 100 behind them: nothing more
            assertThat(pulled.get()).isLessThanOrEqualTo(100 + 2 * 10);
            release.countDown();
            run.get(30, TimeUnit.SECONDS);
            assertThat(pulled.get()).isEqualTo(10_000);
        } finally {
            release.countDown();
            pool.shutdownNow();
        }
    }

    @Test
    void a_failed_batch_even_by_an_error_is_reported_and_the_replay_goes_on() throws Exception {
        List<WorkloadLine> lines = lines(300, 4, 3);
        AtomicLong failures = new AtomicLong();
        AtomicLong answered = new AtomicLong();
        new BatchScheduler(20, 3, 100).run(lines.iterator(), batch -> {
            if (batch.get(0).transactionNum() % 3 == 0) {
                throw new java.io.IOException("connection reset");
            }
            if (batch.get(0).transactionNum() % 3 == 1) {
                throw new StackOverflowError("deep");
            }
            return batch.size();
        }, (batch, answer, failure, sent, done) -> {
            if (failure != null) {
                assertThat(failure.getMessage()).isIn("connection reset", "java.lang.StackOverflowError: deep");
                failures.addAndGet(batch.size());
            } else {
                answered.addAndGet(batch.size());
            }
        });
        assertThat(failures.get()).isPositive();
        assertThat(failures.get() + answered.get()).isEqualTo(300);
    }
}
