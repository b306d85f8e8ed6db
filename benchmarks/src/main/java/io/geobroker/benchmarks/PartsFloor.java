package io.geobroker.benchmarks;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.DefaultConsistencyLevel;
import com.datastax.oss.driver.api.core.cql.PreparedStatement;
import com.datastax.oss.driver.api.core.cql.SimpleStatement;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.TopicExistsException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;

import com.sun.net.httpserver.HttpServer;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.net.URI;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

/**
 * The least the specified parts cost at a given load: the CPU Kafka and Cassandra (and the WAN
 * forwarder between the DCs) take to carry the smallest request pattern any design of the brokers
 * can send them at the demo's load, and how long each hop takes. Per region, from this one process:
 * <ul>
 *   <li>tickers: a producer set up as the ticker service's (idempotent, acks=all, linger 0) sends
 *   300 × scale a second; a consumer set up as a broker's (read_committed, a fetch answered at its
 *   first record) reads them;</li>
 *   <li>fills: a producer set up as the broker's fill publisher sends 100 × scale a second; a
 *   consumer reads them, as the load generator's fills watcher does;</li>
 *   <li>commits: every 10 ms ({@code -Dfloor.commit-ms}) in which a ticker reached the consumer or an order was due (150 ×
 *   scale a second), one insert of one row of the interval's events into a keyspace replicated to
 *   both DCs, at LOCAL_QUORUM: one durable write per interval, no batch log, the least a group
 *   commit of the engine can be.</li>
 * </ul>
 * No matching, no customer rows, no offset commits (the consumers are assigned their partition),
 * and no HTTP unless asked for ({@link #HTTP}): what the brokers, the ticker service and the load
 * generator add comes on top.
 *
 * <p>Measured, after a warm-up: each named process's CPU time ({@code /proc/<pid>/stat}) over the
 * measured seconds, this process's own, the ticker hop (send to the consumer's poll, one clock),
 * each commit's time and each ticker's time from its send to the answer of the write that holds it
 * (ticker-to-fill's least: the load generator's counts to the fill's durable time). Creates the keyspace {@value #KEYSPACE} and the topics {@value #TICKERS} and
 * {@value #FILLS}, and removes them at the end. Run against the local stack:
 * {@code java -cp benchmarks.jar io.geobroker.benchmarks.PartsFloor <scale> <seconds>
 * <contact>/<DC>@<kafka bootstrap> <contact>/<DC>@<kafka bootstrap> <name>=<pid>,...}
 */
public final class PartsFloor {

    static final String KEYSPACE = "geobroker_parts_floor";
    static final String TICKERS = "parts-floor-tickers";
    static final String FILLS = "parts-floor-fills";
    /** The demo's default load per region: half of 600 tickers, 300 new orders and ~200 fills a second. */
    static final int TICKERS_PER_SECOND = 300;
    static final int ORDERS_PER_SECOND = 150;
    static final int FILLS_PER_SECOND = 100;
    /** The engine's commit interval; {@code -Dfloor.commit-ms} changes it. */
    static final long COMMIT_INTERVAL_NANOS = TimeUnit.MILLISECONDS.toNanos(Integer.getInteger("floor.commit-ms", 10));
    /** The producers' linger, 0 as the ticker service's and the fill publisher's; {@code -Dfloor.ticker-linger-ms}, {@code -Dfloor.fill-linger-ms}. */
    static final int TICKER_LINGER_MS = Integer.getInteger("floor.ticker-linger-ms", 0);
    static final int FILL_LINGER_MS = Integer.getInteger("floor.fill-linger-ms", 0);
    /**
     * With {@code -Dfloor.commit-on-arrival=true} the ticker consumer writes each poll's tickers at once,
     * with the orders due by then (orders are written on the commit cadence only when no ticker's write
     * came within an interval), the least ticker-to-fill a design on these parts can have.
     * Either way each ticker's time from its send to the answer of the write that holds it is measured.
     */
    static final boolean COMMIT_ON_ARRIVAL = Boolean.getBoolean("floor.commit-on-arrival");
    /**
     * With {@code -Dfloor.http=true} each region's orders also arrive as HTTP/1.1 requests to a
     * server in this process (the JDK's, one kept-alive connection per region, a 200-byte body in and
     * a 300-byte one out, nothing parsed): the least the REST API's placements cost.
     */
    static final boolean HTTP = Boolean.getBoolean("floor.http");
    static final int REQUEST_BYTES = 200;
    static final int RESPONSE_BYTES = 300;
    /** Bytes per event in a commit's row and per record: about a ticker's and a fill's wire size. */
    static final int TICKER_BYTES = 120;
    static final int FILL_BYTES = 250;
    static final int EVENT_BYTES = 150;
    private static final int WARMUP_SECONDS = 20;

    /** One region: its Cassandra contact point and DC, and its Kafka bootstrap address. */
    record Region(String contact, String dc, String kafka) {

        /** Parses {@code host[:port]/DC@kafkaHost:port}. */
        static Region parse(String spec) {
            int slash = spec.indexOf('/');
            int at = spec.indexOf('@');
            if (slash <= 0 || at <= slash + 1 || at == spec.length() - 1) {
                throw new IllegalArgumentException("a region is <contact>/<DC>@<kafka bootstrap>, not " + spec);
            }
            return new Region(spec.substring(0, slash), spec.substring(slash + 1, at), spec.substring(at + 1));
        }

        InetSocketAddress contactAddress() {
            String[] hostPort = contact.split(":");
            return new InetSocketAddress(hostPort[0], hostPort.length > 1 ? Integer.parseInt(hostPort[1]) : 9042);
        }
    }

    /** Parses {@code name=pid,name=pid}, keeping the order. */
    static Map<String, Long> processes(String spec) {
        Map<String, Long> pids = new LinkedHashMap<>();
        for (String entry : spec.split(",")) {
            String[] kv = entry.split("=");
            if (kv.length != 2) {
                throw new IllegalArgumentException("a process is <name>=<pid>, not " + entry);
            }
            pids.put(kv[0], Long.parseLong(kv[1]));
        }
        return pids;
    }

    /** How many of a steady rate's events are due {@code elapsedNanos} after its start. */
    static long due(double perSecond, long elapsedNanos) {
        return (long) Math.floor(perSecond * elapsedNanos / 1e9);
    }

    /** The value at quantile {@code q} (0–1) of the sorted samples, nearest rank; 0 when there are none. */
    static long quantile(long[] sorted, double q) {
        if (sorted.length == 0) {
            return 0;
        }
        int rank = (int) Math.ceil(q * sorted.length);
        return sorted[Math.max(0, Math.min(sorted.length - 1, rank - 1))];
    }

    /** Latencies of the measured while, in nanoseconds. */
    static final class Samples {
        private final long[] values;
        private final AtomicInteger size = new AtomicInteger();

        Samples(int capacity) {
            values = new long[capacity];
        }

        void add(long nanos) {
            int i = size.getAndIncrement();
            if (i < values.length) {
                values[i] = nanos;
            }
        }

        long[] sorted() {
            long[] copy = Arrays.copyOf(values, Math.min(size.get(), values.length));
            Arrays.sort(copy);
            return copy;
        }

        String summary() {
            long[] s = sorted();
            return String.format(Locale.ROOT, "n %d, p50 %.2f / p99 %.2f / max %.2f ms", s.length,
                    quantile(s, 0.5) / 1e6, quantile(s, 0.99) / 1e6, quantile(s, 1.0) / 1e6);
        }
    }

    private final List<Region> regions;
    private final double scale;
    private final AtomicBoolean measuring = new AtomicBoolean();
    private final AtomicBoolean running = new AtomicBoolean(true);
    private final List<Thread> threads = new ArrayList<>();
    private final Map<String, Samples> hops = new LinkedHashMap<>();
    private final Map<String, Samples> commits = new LinkedHashMap<>();
    private final Map<String, Samples> durable = new LinkedHashMap<>();
    private final Map<String, AtomicLong> counts = new LinkedHashMap<>();
    private volatile URI orderUri;

    private PartsFloor(List<Region> regions, double scale, int seconds) {
        this.regions = regions;
        this.scale = scale;
        int capacity = (int) Math.max(1_000, TICKERS_PER_SECOND * scale * (seconds + 5) * 2);
        for (Region r : regions) {
            hops.put(r.dc(), new Samples(capacity));
            commits.put(r.dc(), new Samples(capacity));
            durable.put(r.dc(), new Samples(capacity));
            for (String kind : List.of("tickers", "fills", "commits", "orders")) {
                counts.put(r.dc() + " " + kind, new AtomicLong());
            }
        }
    }

    public static void main(String[] args) throws Exception {
        if (args.length < 5) {
            System.err.println("usage: PartsFloor <scale> <seconds> <contact>/<DC>@<kafka> <contact>/<DC>@<kafka> <name>=<pid>,...");
            System.exit(2);
        }
        double scale = Double.parseDouble(args[0]);
        int seconds = Integer.parseInt(args[1]);
        List<Region> regions = List.of(Region.parse(args[2]), Region.parse(args[3]));
        Map<String, Long> pids = processes(args[4]);
        new PartsFloor(regions, scale, seconds).run(seconds, pids);
    }

    private void run(int seconds, Map<String, Long> pids) throws Exception {
        List<CqlSession> sessions = new ArrayList<>();
        HttpServer server = HTTP ? orderServer() : null;
        try {
            for (Region r : regions) {
                sessions.add(CqlSession.builder().addContactPoint(r.contactAddress()).withLocalDatacenter(r.dc()).build());
            }
            setUp(sessions.get(0));
            for (int i = 0; i < regions.size(); i++) {
                start(regions.get(i), sessions.get(i));
            }
            Thread.sleep(TimeUnit.SECONDS.toMillis(WARMUP_SECONDS));
            long[] before = ticks(pids);
            long selfBefore = selfTicks();
            measuring.set(true);
            Thread.sleep(TimeUnit.SECONDS.toMillis(seconds));
            measuring.set(false);
            long[] after = ticks(pids);
            long selfAfter = selfTicks();
            report(seconds, pids, before, after, selfAfter - selfBefore);
        } finally {
            running.set(false);
            for (Thread t : threads) {
                t.join(10_000);
            }
            if (!sessions.isEmpty()) {
                sessions.get(0).execute(ddl("DROP KEYSPACE IF EXISTS " + KEYSPACE));
            }
            for (Region r : regions) {
                try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, r.kafka()))) {
                    admin.deleteTopics(List.of(TICKERS, FILLS)).all().get(30, TimeUnit.SECONDS);
                } catch (Exception e) {
                    System.err.println("could not delete the topics in " + r.kafka() + ": " + e);
                }
            }
            sessions.forEach(CqlSession::close);
            if (server != null) {
                server.stop(0);
            }
        }
    }

    private HttpServer orderServer() throws IOException {
        // the response's head and body leave at once, not the body after the client's delayed ACK
        System.setProperty("sun.net.httpserver.nodelay", "true");
        HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 64);
        byte[] response = new byte[RESPONSE_BYTES];
        Arrays.fill(response, (byte) 'x');
        server.createContext("/orders", exchange -> {
            try (exchange) {
                exchange.getRequestBody().readAllBytes();
                exchange.getResponseHeaders().set("Content-Type", "application/json");
                exchange.sendResponseHeaders(201, response.length);
                exchange.getResponseBody().write(response);
            }
        });
        server.setExecutor(Executors.newFixedThreadPool(2, task -> {
            Thread t = new Thread(task, "parts-floor-http");
            t.setDaemon(true);
            return t;
        }));
        server.start();
        orderUri = URI.create("http://127.0.0.1:" + server.getAddress().getPort() + "/orders");
        return server;
    }

    /**
     * Places the region's orders over HTTP/1.1 at their steady rate, one at a time on one kept-alive
     * connection, each request in one write (no Nagle wait between its head and its body).
     */
    private void place(Region r) {
        byte[] body = new byte[REQUEST_BYTES];
        Arrays.fill(body, (byte) 'o');
        byte[] head = ("POST /orders HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: "
                + body.length + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII);
        byte[] request = Arrays.copyOf(head, head.length + body.length);
        System.arraycopy(body, 0, request, head.length, body.length);
        double perSecond = ORDERS_PER_SECOND * scale;
        long start = System.nanoTime();
        long n = 0;
        Socket socket = null;
        while (running.get()) {
            long wait = start + (long) (n / perSecond * 1e9) - System.nanoTime();
            if (wait > 0) {
                LockSupport.parkNanos(wait);
                continue;
            }
            try {
                if (socket == null) {
                    socket = new Socket(orderUri.getHost(), orderUri.getPort());
                    socket.setTcpNoDelay(true);
                }
                socket.getOutputStream().write(request);
                int status = readResponse(socket.getInputStream());
                if (status != 201) {
                    throw new IOException("HTTP " + status);
                }
                if (measuring.get()) {
                    counts.get(r.dc() + " orders").incrementAndGet();
                }
            } catch (IOException e) {
                System.err.println("an order over HTTP failed: " + e);
                closeQuietly(socket);
                socket = null;
            }
            n++;
        }
        closeQuietly(socket);
    }

    /** Reads one HTTP/1.1 response with a Content-Length body; returns its status. */
    static int readResponse(InputStream in) throws IOException {
        StringBuilder headers = new StringBuilder();
        int b;
        while ((b = in.read()) != -1) {
            headers.append((char) b);
            if (headers.length() >= 4 && headers.substring(headers.length() - 4).equals("\r\n\r\n")) {
                break;
            }
        }
        if (b == -1) {
            throw new IOException("connection closed");
        }
        String[] lines = headers.toString().split("\r\n");
        int status = Integer.parseInt(lines[0].split(" ")[1]);
        int length = 0;
        for (String line : lines) {
            if (line.regionMatches(true, 0, "Content-Length:", 0, 15)) {
                length = Integer.parseInt(line.substring(15).trim());
            }
        }
        if (in.readNBytes(length).length != length) {
            throw new IOException("connection closed");
        }
        return status;
    }

    private static void closeQuietly(Socket socket) {
        if (socket != null) {
            try {
                socket.close();
            } catch (IOException ignored) {
                // closing a broken connection
            }
        }
    }

    private void setUp(CqlSession session) throws Exception {
        StringBuilder replication = new StringBuilder("{'class': 'NetworkTopologyStrategy'");
        regions.forEach(r -> replication.append(", '").append(r.dc()).append("': 1"));
        session.execute(ddl("CREATE KEYSPACE IF NOT EXISTS " + KEYSPACE + " WITH replication = " + replication + "}"));
        session.execute(ddl("CREATE TABLE IF NOT EXISTS " + KEYSPACE + ".log (region text, bucket bigint, seq bigint, "
                + "events blob, PRIMARY KEY ((region, bucket), seq))"));
        for (Region r : regions) {
            try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, r.kafka()))) {
                for (String topic : List.of(TICKERS, FILLS)) {
                    try {
                        admin.createTopics(List.of(new NewTopic(topic, 1, (short) 1))).all().get(30, TimeUnit.SECONDS);
                    } catch (ExecutionException e) {
                        if (!(e.getCause() instanceof TopicExistsException)) {
                            throw e;
                        }
                        // left by a run that was stopped: its records are before the consumers' start
                    }
                }
            }
        }
    }

    /** Starts the region's clients; at scale 0 none, so the run measures the idle parts. */
    private void start(Region r, CqlSession session) {
        if (scale == 0) {
            return;
        }
        ConcurrentLinkedQueue<Long> arrived = new ConcurrentLinkedQueue<>();
        KafkaProducer<byte[], byte[]> tickerProducer = producer(r, "parts-floor-tickers", TICKER_LINGER_MS);
        KafkaProducer<byte[], byte[]> fillProducer = producer(r, "parts-floor-fills", FILL_LINGER_MS);
        thread(r.dc() + "-ticker-producer", () -> send(tickerProducer, TICKERS, TICKERS_PER_SECOND * scale, TICKER_BYTES,
                counts.get(r.dc() + " tickers")));
        thread(r.dc() + "-fill-producer", () -> send(fillProducer, FILLS, FILLS_PER_SECOND * scale, FILL_BYTES,
                counts.get(r.dc() + " fills")));
        PreparedStatement insert = session.prepare("INSERT INTO " + KEYSPACE + ".log (region, bucket, seq, events) "
                + "VALUES (?, ?, ?, ?)");
        Writer writer = new Writer(r, session, insert);
        thread(r.dc() + "-ticker-consumer", () -> consume(r, TICKERS, hops.get(r.dc()), arrived, writer));
        thread(r.dc() + "-fill-consumer", () -> consume(r, FILLS, null, null, null));
        thread(r.dc() + "-commit", () -> commit(writer, arrived));
        if (HTTP) {
            thread(r.dc() + "-orders", () -> place(r));
        }
    }

    private void thread(String name, Runnable body) {
        Thread t = new Thread(body, name);
        t.setDaemon(true);
        threads.add(t);
        t.start();
    }

    private static KafkaProducer<byte[], byte[]> producer(Region r, String clientId, int lingerMs) {
        Properties p = new Properties();
        p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, r.kafka());
        p.put(ProducerConfig.CLIENT_ID_CONFIG, clientId);
        p.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
        p.put(ProducerConfig.ACKS_CONFIG, "all");
        p.put(ProducerConfig.LINGER_MS_CONFIG, lingerMs);
        return new KafkaProducer<>(p, new ByteArraySerializer(), new ByteArraySerializer());
    }

    /** Sends at a steady rate, each record's first 8 bytes the send time (this process's clock). */
    private void send(KafkaProducer<byte[], byte[]> producer, String topic, double perSecond, int bytes, AtomicLong sent) {
        try (producer) {
            long start = System.nanoTime();
            long n = 0;
            while (running.get()) {
                long next = start + (long) (n / perSecond * 1e9);
                long wait = next - System.nanoTime();
                if (wait > 0) {
                    LockSupport.parkNanos(wait);
                    continue;
                }
                byte[] value = new byte[bytes];
                ByteBuffer.wrap(value).putLong(System.nanoTime());
                producer.send(new ProducerRecord<>(topic, value));
                n++;
                if (measuring.get()) {
                    sent.incrementAndGet();
                }
            }
        }
    }

    private void consume(Region r, String topic, Samples latencies, ConcurrentLinkedQueue<Long> arrived, Writer writer) {
        Properties p = new Properties();
        p.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, r.kafka());
        p.put(ConsumerConfig.CLIENT_ID_CONFIG, "parts-floor-" + topic);
        p.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        p.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(p, new ByteArrayDeserializer(),
                new ByteArrayDeserializer())) {
            TopicPartition partition = new TopicPartition(topic, 0);
            consumer.assign(List.of(partition));
            consumer.seekToEnd(List.of(partition));
            while (running.get()) {
                ConsumerRecords<byte[], byte[]> records = consumer.poll(Duration.ofMillis(100));
                long now = System.nanoTime();
                for (ConsumerRecord<byte[], byte[]> record : records) {
                    long sent = ByteBuffer.wrap(record.value()).getLong();
                    if (arrived != null && !COMMIT_ON_ARRIVAL) {
                        arrived.add(sent);
                    }
                    if (latencies != null && measuring.get()) {
                        latencies.add(now - sent);
                    }
                }
                if (writer != null && COMMIT_ON_ARRIVAL && !records.isEmpty()) {
                    writer.write(records.count() + writer.takeOrders());
                    long written = System.nanoTime();
                    if (measuring.get()) {
                        for (ConsumerRecord<byte[], byte[]> record : records) {
                            durable.get(r.dc()).add(written - ByteBuffer.wrap(record.value()).getLong());
                        }
                    }
                }
            }
        }
    }

    /** One region's durable writes: one row of a commit's events, in one partition, at LOCAL_QUORUM. */
    private final class Writer {
        private final Region region;
        private final CqlSession session;
        private final PreparedStatement insert;
        private final AtomicLong seq = new AtomicLong();
        private final long start = System.nanoTime();
        private long ordersTaken;
        private volatile long lastWrite = System.nanoTime();

        Writer(Region region, CqlSession session, PreparedStatement insert) {
            this.region = region;
            this.session = session;
            this.insert = insert;
        }

        /** The orders due since the last call: each is written with the next write. */
        synchronized long takeOrders() {
            long due = due(ORDERS_PER_SECOND * scale, System.nanoTime() - start);
            long taken = due - ordersTaken;
            ordersTaken = due;
            return taken;
        }

        void write(long events) {
            lastWrite = System.nanoTime();
            long n = seq.getAndIncrement();
            long began = System.nanoTime();
            session.execute(insert.bind(region.dc(), n / 6_000, n, ByteBuffer.wrap(new byte[(int) events * EVENT_BYTES]))
                    .setConsistencyLevel(DefaultConsistencyLevel.LOCAL_QUORUM));
            if (measuring.get()) {
                commits.get(region.dc()).add(System.nanoTime() - began);
                counts.get(region.dc() + " commits").incrementAndGet();
            }
        }
    }

    /** Every commit interval with events (tickers arrived, orders due), one durable one-row write of them. */
    private void commit(Writer writer, ConcurrentLinkedQueue<Long> arrived) {
        long next = System.nanoTime();
        while (running.get()) {
            next += COMMIT_INTERVAL_NANOS;
            long wait = next - System.nanoTime();
            if (wait > 0) {
                LockSupport.parkNanos(wait);
            }
            if (COMMIT_ON_ARRIVAL && System.nanoTime() - writer.lastWrite < COMMIT_INTERVAL_NANOS) {
                continue; // the tickers' writes took the orders due
            }
            List<Long> tickers = new ArrayList<>();
            for (Long sent = arrived.poll(); sent != null; sent = arrived.poll()) {
                tickers.add(sent);
            }
            long events = tickers.size() + writer.takeOrders();
            if (events == 0) {
                continue;
            }
            writer.write(events);
            long written = System.nanoTime();
            if (measuring.get()) {
                tickers.forEach(sent -> durable.get(writer.region.dc()).add(written - sent));
            }
            if (System.nanoTime() > next) {
                next = System.nanoTime();
            }
        }
    }

    private void report(int seconds, Map<String, Long> pids, long[] before, long[] after, long selfTicks) {
        System.out.printf(Locale.ROOT, "parts floor at scale %s: %.0f tickers, %.0f orders and %.0f fills a second per region, "
                        + "a commit every %d ms with events%s, ticker linger %d ms, fill linger %d ms%s; %d s measured after %d s%n",
                scale, TICKERS_PER_SECOND * scale, ORDERS_PER_SECOND * scale, FILLS_PER_SECOND * scale,
                TimeUnit.NANOSECONDS.toMillis(COMMIT_INTERVAL_NANOS), COMMIT_ON_ARRIVAL ? " (tickers written on arrival)" : "",
                TICKER_LINGER_MS, FILL_LINGER_MS, HTTP ? ", orders over HTTP" : "", seconds, WARMUP_SECONDS);
        double total = 0;
        int i = 0;
        for (Map.Entry<String, Long> e : pids.entrySet()) {
            double cores = (after[i] - before[i]) / (double) RequestCost.TICKS_PER_SECOND / seconds;
            total += cores;
            System.out.printf(Locale.ROOT, "  %-28s %.3f cores%n", e.getKey() + " (" + e.getValue() + ")", cores);
            i++;
        }
        System.out.printf(Locale.ROOT, "  %-28s %.3f cores%n", "the parts in all", total);
        double clients = selfTicks / (double) RequestCost.TICKS_PER_SECOND / seconds;
        System.out.printf(Locale.ROOT, "  %-28s %.3f cores%n", "this process (the clients)", clients);
        System.out.printf(Locale.ROOT, "  %-28s %.3f cores%n", "parts and clients", total + clients);
        counts.forEach((k, v) -> System.out.printf(Locale.ROOT, "  %-28s %.1f a second%n", k, v.get() / (double) seconds));
        hops.forEach((dc, s) -> System.out.println("  ticker hop, " + dc + ": " + s.summary()));
        commits.forEach((dc, s) -> System.out.println("  commit, " + dc + ": " + s.summary()));
        durable.forEach((dc, s) -> System.out.println("  ticker to durable, " + dc + ": " + s.summary()));
    }

    private static long[] ticks(Map<String, Long> pids) throws IOException {
        return RequestCost.ticks(pids.values().stream().mapToLong(Long::longValue).toArray());
    }

    private static long selfTicks() throws IOException {
        return RequestCost.cpuTicks(Files.readString(Path.of("/proc/self/stat")));
    }

    private static SimpleStatement ddl(String cql) {
        return SimpleStatement.newInstance(cql).setTimeout(Duration.ofSeconds(30));
    }
}
