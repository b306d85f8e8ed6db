package io.geobroker.benchmarks;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.DefaultConsistencyLevel;
import com.datastax.oss.driver.api.core.cql.BatchStatement;
import com.datastax.oss.driver.api.core.cql.BatchType;
import com.datastax.oss.driver.api.core.cql.BoundStatement;
import com.datastax.oss.driver.api.core.cql.PreparedStatement;
import com.datastax.oss.driver.api.core.cql.SimpleStatement;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;
import java.util.stream.Collectors;

/**
 * What a logged batch costs by the number of partitions it writes, not the number of statements:
 * batches of the same statements (one row each, the size of a small order row) spread over one
 * partition per statement, over ten new partitions, over one, and over the same ten partitions
 * every round (which grow by each batch), at LOCAL_QUORUM, alternated round by round, against a
 * running Cassandra cluster (the local stack: {@code local-stack start}). A group commit of the
 * engine is such a batch: rows keyed by order id (the {@code orders} table before schema V006) were
 * a partition each, rows keyed by customer ({@code customer_orders}) share their customer's.
 *
 * <p>Creates the keyspace {@code geobroker_batch_shape}, replicated once to every DC of the cluster
 * (so every partition is also sent to the other DCs, as the broker's writes are), and drops it at
 * the end. Not a JMH benchmark: each operation is a network round trip to another process. Run:
 * {@code java -cp benchmarks.jar io.geobroker.benchmarks.BatchShape <host> <local DC> [statements] [rounds]}
 * (defaults 250 and 100; the first fifth of the rounds is warm-up). Prints a table and writes
 * {@code batch-shape.json} in the working directory.
 */
public final class BatchShape {

    private static final String KEYSPACE = "geobroker_batch_shape";
    private static final Map<String, Integer> SHAPES = shapes();

    private BatchShape() {
    }

    private static Map<String, Integer> shapes() {
        Map<String, Integer> shapes = new LinkedHashMap<>();
        shapes.put("a partition per statement", 0);
        shapes.put("10 partitions", 10);
        shapes.put("1 partition", 1);
        shapes.put("the same 10 partitions", -10);
        return Collections.unmodifiableMap(shapes);
    }

    public static void main(String[] args) throws IOException {
        if (args.length < 2) {
            System.err.println("usage: BatchShape <host[:port]> <local DC> [statements per batch] [rounds]");
            System.exit(2);
        }
        String[] hostPort = args[0].split(":");
        InetSocketAddress contact = new InetSocketAddress(hostPort[0], hostPort.length > 1 ? Integer.parseInt(hostPort[1]) : 9042);
        String localDc = args[1];
        int statements = args.length > 2 ? Integer.parseInt(args[2]) : 250;
        int rounds = args.length > 3 ? Integer.parseInt(args[3]) : 100;
        int warmup = rounds / 5;

        try (CqlSession session = CqlSession.builder().addContactPoint(contact).withLocalDatacenter(localDc).build()) {
            List<String> dcs = session.getMetadata().getNodes().values().stream().map(n -> n.getDatacenter())
                    .distinct().sorted().toList();
            String replication = dcs.stream().map(dc -> "'" + dc + "': 1").collect(Collectors.joining(", "));
            session.execute(ddl("CREATE KEYSPACE IF NOT EXISTS " + KEYSPACE
                    + " WITH replication = {'class': 'NetworkTopologyStrategy', " + replication + "}"));
            session.execute(ddl("CREATE TABLE IF NOT EXISTS " + KEYSPACE + ".rows_by_id (id uuid PRIMARY KEY, "
                    + "quantity bigint, status text)"));
            session.execute(ddl("CREATE TABLE IF NOT EXISTS " + KEYSPACE + ".rows_by_partition (p bigint, id uuid, "
                    + "quantity bigint, status text, PRIMARY KEY ((p), id))"));
            try {
                PreparedStatement byId = session.prepare("INSERT INTO " + KEYSPACE
                        + ".rows_by_id (id, quantity, status) VALUES (?, ?, ?)");
                PreparedStatement byPartition = session.prepare("INSERT INTO " + KEYSPACE
                        + ".rows_by_partition (p, id, quantity, status) VALUES (?, ?, ?, ?)");
                Map<String, List<Long>> micros = new LinkedHashMap<>();
                SHAPES.keySet().forEach(shape -> micros.put(shape, new ArrayList<>()));
                long timestamp = System.currentTimeMillis() * 1000;
                for (int round = 0; round < rounds; round++) {
                    for (Map.Entry<String, Integer> shape : SHAPES.entrySet()) {
                        List<BoundStatement> batch = new ArrayList<>(statements);
                        for (int i = 0; i < statements; i++) {
                            UUID id = UUID.randomUUID();
                            int partitions = shape.getValue();
                            batch.add(partitions == 0 ? byId.bind(id, (long) i, "PARTIALLY_FILLED")
                                    : byPartition.bind(partition(partitions, round, i), id, (long) i, "PARTIALLY_FILLED"));
                        }
                        long start = System.nanoTime();
                        session.execute(BatchStatement.newInstance(BatchType.LOGGED).addAll(batch)
                                .setConsistencyLevel(DefaultConsistencyLevel.LOCAL_QUORUM)
                                .setQueryTimestamp(++timestamp).setIdempotent(true));
                        if (round >= warmup) {
                            micros.get(shape.getKey()).add((System.nanoTime() - start) / 1_000);
                        }
                    }
                }
                report(micros, statements, dcs, localDc);
            } finally {
                session.execute(ddl("DROP KEYSPACE IF EXISTS " + KEYSPACE));
            }
        }
    }

    /**
     * The partition of statement {@code i}: new partitions every round for a positive count, the same
     * ones every round for a negative count (hot partitions that grow by the batch, as a customer's do).
     */
    private static long partition(int partitions, int round, int i) {
        return partitions > 0 ? (long) round * partitions + i % partitions : -1 - i % -partitions;
    }

    private static SimpleStatement ddl(String cql) {
        return SimpleStatement.newInstance(cql).setTimeout(Duration.ofSeconds(30));
    }

    private static void report(Map<String, List<Long>> micros, int statements, List<String> dcs, String localDc)
            throws IOException {
        System.out.printf(Locale.ROOT, "logged batches of %d statements at LOCAL_QUORUM from %s, keyspace replicated to %s%n",
                statements, localDc, dcs);
        System.out.printf(Locale.ROOT, "%-26s %8s %10s %10s %10s%n", "shape", "batches", "mean ms", "p50 ms", "p90 ms");
        List<String> rows = new ArrayList<>();
        for (Map.Entry<String, List<Long>> e : micros.entrySet()) {
            List<Long> sorted = new ArrayList<>(e.getValue());
            Collections.sort(sorted);
            double mean = sorted.stream().mapToLong(Long::longValue).average().orElse(0) / 1000;
            double p50 = sorted.get(sorted.size() / 2) / 1000.0;
            double p90 = sorted.get(sorted.size() * 9 / 10) / 1000.0;
            System.out.printf(Locale.ROOT, "%-26s %8d %10.2f %10.2f %10.2f%n", e.getKey(), sorted.size(), mean, p50, p90);
            rows.add(String.format(Locale.ROOT, "  {\"shape\": \"%s\", \"batches\": %d, \"meanMillis\": %.2f, "
                    + "\"p50Millis\": %.2f, \"p90Millis\": %.2f}", e.getKey(), sorted.size(), mean, p50, p90));
        }
        String json = "{\"statementsPerBatch\": " + statements + ", \"localDc\": \"" + localDc + "\", \"dataCenters\": "
                + dcs.stream().map(dc -> "\"" + dc + "\"").collect(Collectors.joining(", ", "[", "]"))
                + ", \"results\": [\n" + String.join(",\n", rows) + "\n]}\n";
        Files.writeString(Path.of("batch-shape.json"), json);
    }
}
