package io.geobroker.benchmarks;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.DefaultConsistencyLevel;
import com.datastax.oss.driver.api.core.cql.BatchStatement;
import com.datastax.oss.driver.api.core.cql.BatchStatementBuilder;
import com.datastax.oss.driver.api.core.cql.BatchType;
import com.datastax.oss.driver.api.core.cql.BoundStatement;
import com.datastax.oss.driver.api.core.cql.PreparedStatement;
import com.datastax.oss.driver.api.core.cql.SimpleStatement;
import com.datastax.oss.driver.api.core.cql.Statement;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.locks.LockSupport;

/**
 * What one CQL write request costs Cassandra in CPU, by its shape and by where it is replicated:
 * requests sent one after another at a fixed rate for a while, each Cassandra node's CPU time
 * (user + system, from {@code /proc/<pid>/stat}) read before and after, divided by the requests,
 * with the same while of no requests measured first and taken off. The shapes: a one-row insert, a
 * logged batch of 7 statements in 2 partitions (a group commit of the engine at light load), the
 * same unlogged, a logged batch of 28 statements in 7 partitions (a group at the default load), a
 * logged batch of 99 statements in 33 partitions (a group of 32 placements of as many customers and
 * its log slot, as at the acknowledgement benchmark) and one row carrying a 16 KiB blob (such a
 * group's statements written as one slot of a log, one partition, no batch log); each to a keyspace
 * replicated to both DCs and to one replicated to the coordinator's DC only.
 *
 * <p>Runs against a local cluster whose node processes this machine can read (the local stack:
 * {@code ./geobroker up}). Creates the keyspaces {@code geobroker_request_cost_both} and
 * {@code geobroker_request_cost_local} and drops them at the end. Run:
 * {@code java -cp benchmarks.jar io.geobroker.benchmarks.RequestCost <host> <local DC> <other DC>
 * <pid of the local DC's node>,<pid of the other's> [requests per second] [seconds]} (defaults 100
 * and 20; each shape first runs 5 s unmeasured).
 */
public final class RequestCost {

    /** Clock ticks a second of {@code /proc/<pid>/stat}'s CPU times (USER_HZ, 100 on Linux). */
    static final int TICKS_PER_SECOND = 100;

    private static final String BOTH = "geobroker_request_cost_both";
    private static final String LOCAL = "geobroker_request_cost_local";
    private static final int PARTITIONS = 50;

    /**
     * A request shape: statements in partitions, logged or not, each row carrying a blob of {@code
     * payloadBytes} (none when 0); a single statement is sent unbatched.
     */
    record Shape(String name, int statements, int partitions, boolean logged, int payloadBytes) {
    }

    static final List<Shape> SHAPES = List.of(new Shape("one row", 1, 1, false, 0),
            new Shape("logged 7 rows in 2 partitions", 7, 2, true, 0),
            new Shape("unlogged 7 rows in 2 partitions", 7, 2, false, 0),
            new Shape("logged 28 rows in 7 partitions", 28, 7, true, 0),
            new Shape("logged 99 rows in 33 partitions", 99, 33, true, 0),
            new Shape("one row of 16 KiB", 1, 1, false, 16 * 1024));

    private RequestCost() {
    }

    /** The CPU time (user + system) in clock ticks of a {@code /proc/<pid>/stat} line. */
    static long cpuTicks(String stat) {
        // the command name, in parentheses, may hold spaces: count the fields after its closing one
        String[] fields = stat.substring(stat.lastIndexOf(')') + 2).trim().split(" +");
        return Long.parseLong(fields[11]) + Long.parseLong(fields[12]);
    }

    /** Milliseconds of CPU per request: the ticks of a measured while less those of an idle one as long. */
    static double millisPerRequest(long ticks, long idleTicks, long requests) {
        return (ticks - idleTicks) * 1000.0 / TICKS_PER_SECOND / requests;
    }

    public static void main(String[] args) throws Exception {
        if (args.length < 4) {
            System.err.println("usage: RequestCost <host[:port]> <local DC> <other DC> <pid>,<pid> [requests/s] [seconds]");
            System.exit(2);
        }
        String[] hostPort = args[0].split(":");
        InetSocketAddress contact = new InetSocketAddress(hostPort[0], hostPort.length > 1 ? Integer.parseInt(hostPort[1]) : 9042);
        String localDc = args[1];
        String otherDc = args[2];
        long[] pids = Arrays.stream(args[3].split(",")).mapToLong(Long::parseLong).toArray();
        int rate = args.length > 4 ? Integer.parseInt(args[4]) : 100;
        int seconds = args.length > 5 ? Integer.parseInt(args[5]) : 20;

        try (CqlSession session = CqlSession.builder().addContactPoint(contact).withLocalDatacenter(localDc).build()) {
            session.execute(ddl("CREATE KEYSPACE IF NOT EXISTS " + BOTH + " WITH replication = {'class': "
                    + "'NetworkTopologyStrategy', '" + localDc + "': 1, '" + otherDc + "': 1}"));
            session.execute(ddl("CREATE KEYSPACE IF NOT EXISTS " + LOCAL + " WITH replication = {'class': "
                    + "'NetworkTopologyStrategy', '" + localDc + "': 1}"));
            try {
                for (String keyspace : List.of(BOTH, LOCAL)) {
                    session.execute(ddl("CREATE TABLE IF NOT EXISTS " + keyspace + ".rows (p text, c bigint, "
                            + "quantity bigint, status text, price bigint, payload blob, PRIMARY KEY ((p), c))"));
                }
                long[] idle = run(session, null, null, pids, rate, seconds);
                System.out.printf(Locale.ROOT, "CPU ms per write request at LOCAL_QUORUM from %s, %d requests/s for %d s "
                        + "(an idle %d s taken off: %s cores)%n", localDc, rate, seconds, seconds, cores(idle, seconds));
                System.out.printf(Locale.ROOT, "%-34s %-12s %10s %10s %10s%n", "shape", "replicated", localDc, otherDc, "total");
                for (Shape shape : SHAPES) {
                    for (String keyspace : List.of(BOTH, LOCAL)) {
                        long[] ticks = run(session, shape, keyspace, pids, rate, seconds);
                        long requests = (long) rate * seconds;
                        double total = 0;
                        StringBuilder row = new StringBuilder(String.format(Locale.ROOT, "%-34s %-12s", shape.name(),
                                keyspace.equals(BOTH) ? "both DCs" : "local DC"));
                        for (int i = 0; i < pids.length; i++) {
                            double ms = millisPerRequest(ticks[i], idle[i], requests);
                            total += ms;
                            row.append(String.format(Locale.ROOT, " %10.3f", ms));
                        }
                        System.out.println(row.append(String.format(Locale.ROOT, " %10.3f", total)));
                    }
                }
            } finally {
                session.execute(ddl("DROP KEYSPACE IF EXISTS " + BOTH));
                session.execute(ddl("DROP KEYSPACE IF EXISTS " + LOCAL));
            }
        }
    }

    /** Sends the shape's requests (none for a null shape) for 5 s, then for {@code seconds} measured: each node's ticks. */
    private static long[] run(CqlSession session, Shape shape, String keyspace, long[] pids, int rate, int seconds)
            throws IOException {
        PreparedStatement insert = shape == null ? null : session.prepare(shape.payloadBytes() == 0
                ? "INSERT INTO " + keyspace + ".rows (p, c, quantity, status, price) VALUES (?, ?, ?, ?, ?)"
                : "INSERT INTO " + keyspace + ".rows (p, c, quantity, status, price, payload) VALUES (?, ?, ?, ?, ?, ?)");
        send(session, shape, insert, rate, 5);
        long[] before = ticks(pids);
        send(session, shape, insert, rate, seconds);
        long[] after = ticks(pids);
        for (int i = 0; i < pids.length; i++) {
            after[i] -= before[i];
        }
        return after;
    }

    private static void send(CqlSession session, Shape shape, PreparedStatement insert, int rate, int seconds) {
        long interval = 1_000_000_000L / rate;
        long start = System.nanoTime();
        for (long n = 0; n < (long) rate * seconds; n++) {
            long wait = start + n * interval - System.nanoTime();
            if (wait > 0) {
                LockSupport.parkNanos(wait);
            }
            if (shape != null) {
                session.execute(request(shape, insert, n).setConsistencyLevel(DefaultConsistencyLevel.LOCAL_QUORUM));
            }
        }
    }

    private static Statement<?> request(Shape shape, PreparedStatement insert, long n) {
        if (shape.statements() == 1) {
            return row(shape, insert, "p" + n % PARTITIONS, n, n, n);
        }
        BatchStatementBuilder batch = BatchStatement.builder(shape.logged() ? BatchType.LOGGED : BatchType.UNLOGGED);
        for (int i = 0; i < shape.statements(); i++) {
            long partition = (n * shape.partitions() + i % shape.partitions()) % PARTITIONS;
            batch.addStatement(row(shape, insert, "p" + partition, n * shape.statements() + i, n, i));
        }
        return batch.build();
    }

    private static BoundStatement row(Shape shape, PreparedStatement insert, String partition, long clustering,
                                      long quantity, long price) {
        if (shape.payloadBytes() == 0) {
            return insert.bind(partition, clustering, quantity, "OPEN", price);
        }
        byte[] payload = new byte[shape.payloadBytes()];
        ThreadLocalRandom.current().nextBytes(payload); // not compressible, as serialised statements mostly are not
        return insert.bind(partition, clustering, quantity, "OPEN", price, ByteBuffer.wrap(payload));
    }

    /** Each process's CPU time in clock ticks, from {@code /proc/<pid>/stat}. */
    static long[] ticks(long[] pids) throws IOException {
        long[] ticks = new long[pids.length];
        for (int i = 0; i < pids.length; i++) {
            ticks[i] = cpuTicks(Files.readString(Path.of("/proc", Long.toString(pids[i]), "stat")));
        }
        return ticks;
    }

    private static String cores(long[] ticks, int seconds) {
        List<String> each = new ArrayList<>();
        for (long t : ticks) {
            each.add(String.format(Locale.ROOT, "%.3f", (double) t / TICKS_PER_SECOND / seconds));
        }
        return String.join(" + ", each);
    }

    private static SimpleStatement ddl(String cql) {
        return SimpleStatement.newInstance(cql).setTimeout(Duration.ofSeconds(30));
    }
}
