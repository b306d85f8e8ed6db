package io.geobroker.schema;

import com.datastax.oss.driver.api.core.ConsistencyLevel;
import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.config.DefaultDriverOption;
import com.datastax.oss.driver.api.core.config.DriverConfigLoader;
import com.datastax.oss.driver.api.core.config.ProgrammaticDriverConfigLoaderBuilder;
import com.datastax.oss.driver.api.core.cql.ResultSet;
import com.datastax.oss.driver.api.core.cql.Row;
import com.datastax.oss.driver.api.core.cql.SimpleStatement;
import com.datastax.oss.driver.api.core.metadata.Node;
import com.datastax.oss.driver.api.core.metadata.schema.KeyspaceMetadata;
import com.datastax.oss.driver.api.core.servererrors.InvalidConfigurationInQueryException;
import io.geobroker.domain.Keyspaces;
import io.geobroker.domain.Topology;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.function.Consumer;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * Applies the versioned schema ({@code cql/V*.cql}) to a cluster, explicitly: services never run
 * DDL when they start. Each script's {@code ${keyspace}} and {@code ${replication}} placeholders
 * are replaced (replication: {@code NetworkTopologyStrategy} with one replication factor per DC);
 * a script that names {@code ${dc_keyspace}} is applied once per DC, for the DC's own keyspace
 * (replicated to that DC only, {@code ${dc_replication}}). Applied versions are recorded in {@code <keyspace>.schema_version}, and the tool waits for schema
 * agreement after each version. Running it again applies only what is missing.
 *
 * <p>Command line: {@code apply --topology topology.properties [--keyspace geobroker]}.
 */
@Command(name = "schema", mixinStandardHelpOptions = true, subcommands = SchemaTool.Apply.class,
        description = "Applies the geobroker CQL schema to a cluster.")
public final class SchemaTool {

    public static final String DEFAULT_KEYSPACE = "geobroker";
    private static final Pattern KEYSPACE = Pattern.compile("[A-Za-z][A-Za-z0-9_]{0,47}");
    /** The placeholder of a script applied once per DC: that DC's own keyspace. */
    static final String DC_KEYSPACE = "dc_keyspace";
    private static final Pattern DATA_CENTER = Pattern.compile("[A-Za-z0-9_.-]+");
    /** DDL over a WAN on a loaded machine takes seconds; the driver's 2 s default is too short. */
    private static final Duration DDL_TIMEOUT = Duration.ofSeconds(60);
    private static final Duration AGREEMENT_TIMEOUT = Duration.ofSeconds(90);
    /** How long a statement naming a DC its coordinator does not know yet is tried again. */
    private static final Duration UNKNOWN_DC_WAIT = Duration.ofSeconds(60);
    /** The version that drops the tables of before versions 5-7, once {@link LegacyRows} has copied what they hold. */
    private static final int LEGACY_TABLES_DROPPED = 8;

    private SchemaTool() {
    }

    /**
     * Applies every version not yet recorded in the keyspace.
     *
     * @param rfPerDc replication factor per Cassandra DC, in the order the DCs are to be listed
     * @return the versions applied by this call (empty if the schema was already current)
     */
    public static List<Integer> apply(CqlSession session, String keyspace, Map<String, Integer> rfPerDc) {
        return apply(session, keyspace, rfPerDc, Integer.MAX_VALUE, report -> { });
    }

    /**
     * Applies every version up to {@code throughVersion} not yet recorded in the keyspace (a
     * keyspace left at an older version, as an upgrade starts from), telling {@code report} what
     * a version's data step did.
     */
    public static List<Integer> apply(CqlSession session, String keyspace, Map<String, Integer> rfPerDc,
                                      int throughVersion, Consumer<String> report) {
        return apply(session, keyspace, rfPerDc, Migration.onClassPath(SchemaTool.class.getClassLoader()).stream()
                .filter(m -> m.version() <= throughVersion).toList(), report);
    }

    static List<Integer> apply(CqlSession session, String keyspace, Map<String, Integer> rfPerDc,
                               List<Migration> migrations) {
        return apply(session, keyspace, rfPerDc, migrations, report -> { });
    }

    private static List<Integer> apply(CqlSession session, String keyspace, Map<String, Integer> rfPerDc,
                                       List<Migration> migrations, Consumer<String> report) {
        if (!KEYSPACE.matcher(keyspace).matches()) {
            throw new IllegalArgumentException("invalid keyspace name '" + keyspace
                    + "': a letter, then up to 47 letters, digits or '_'");
        }
        Map<String, String> values = Map.of("keyspace", keyspace, "replication", replication(rfPerDc));
        // Every statement goes to one coordinator, the one whose view of the schema is checked: with
        // several nodes per DC, a node that has not heard of a change yet sees every peer at the old
        // version and reports agreement, and the next statement sent to it finds no table.
        Node coordinator = coordinator(session);
        Set<Integer> done = appliedVersions(session, keyspace, coordinator);
        List<Integer> applied = new ArrayList<>();
        for (Migration migration : migrations) {
            if (done.contains(migration.version())) {
                continue;
            }
            if (migration.version() == LEGACY_TABLES_DROPPED && !done.isEmpty()) {
                // only a keyspace of before this call can hold rows an older broker left: the tables
                // of one created by this call are empty, and scanning them takes a while over a WAN
                report.accept(LegacyRows.copy(session, keyspace).toString());
            }
            for (Map<String, String> each : valuesOf(migration, keyspace, rfPerDc, values)) {
                for (String statement : CqlScript.split(CqlScript.substitute(migration.text(), each))) {
                    execute(session, statement, coordinator);
                }
            }
            awaitSchemaAgreement(session, coordinator);
            execute(session, "CREATE TABLE IF NOT EXISTS " + keyspace + ".schema_version ("
                    + "version int PRIMARY KEY, name text, checksum text, applied_at timestamp)", coordinator);
            awaitSchemaAgreement(session, coordinator);
            session.execute(SimpleStatement.newInstance("INSERT INTO " + keyspace
                            + ".schema_version (version, name, checksum, applied_at) VALUES (?, ?, ?, ?)",
                            migration.version(), migration.name(), migration.checksum(), Instant.now())
                    .setNode(coordinator)
                    .setConsistencyLevel(ConsistencyLevel.QUORUM)
                    .setTimeout(DDL_TIMEOUT));
            applied.add(migration.version());
        }
        return applied;
    }

    /**
     * The placeholders' values for each time {@code migration} is applied: once, or, for a script
     * that names {@code ${dc_keyspace}}, once per DC, with that DC's own keyspace
     * ({@link Keyspaces#ofDataCenter}) and {@code ${dc_replication}} replicating to that DC only.
     */
    static List<Map<String, String>> valuesOf(Migration migration, String keyspace, Map<String, Integer> rfPerDc,
                                              Map<String, String> values) {
        if (!migration.text().contains("${" + DC_KEYSPACE + "}")) {
            return List.of(values);
        }
        List<Map<String, String>> each = new ArrayList<>();
        rfPerDc.forEach((dc, rf) -> {
            Map<String, String> own = new HashMap<>(values);
            own.put(DC_KEYSPACE, Keyspaces.ofDataCenter(keyspace, dc));
            own.put("dc_replication", replication(Map.of(dc, rf)));
            each.add(own);
        });
        return each;
    }

    /** The replication map for {@code ${replication}}: NetworkTopologyStrategy, one factor per DC. */
    static String replication(Map<String, Integer> rfPerDc) {
        if (rfPerDc.isEmpty()) {
            throw new IllegalArgumentException("no data centres to replicate to");
        }
        StringBuilder map = new StringBuilder("{'class': 'NetworkTopologyStrategy'");
        rfPerDc.forEach((dc, rf) -> {
            if (!DATA_CENTER.matcher(dc).matches()) {
                throw new IllegalArgumentException("invalid data centre name '" + dc + "'");
            }
            if (rf < 1) {
                throw new IllegalArgumentException("replication factor of " + dc + " must be at least 1, not " + rf);
            }
            map.append(", '").append(dc).append("': ").append(rf);
        });
        return map.append('}').toString();
    }

    /** Replication factor per DC as the topology configures it. */
    public static Map<String, Integer> replicationOf(Topology topology) {
        Map<String, Integer> rf = new LinkedHashMap<>();
        topology.regions().forEach(r -> rf.put(r.dataCenter(), r.replicationFactor()));
        return rf;
    }

    /** The node that answers a first query: the coordinator of everything {@link #apply} sends. */
    private static Node coordinator(CqlSession session) {
        return session.execute(SimpleStatement.newInstance("SELECT release_version FROM system.local"))
                .getExecutionInfo().getCoordinator();
    }

    private static Set<Integer> appliedVersions(CqlSession session, String keyspace, Node coordinator) {
        Optional<KeyspaceMetadata> metadata = session.getMetadata().getKeyspace(keyspace);
        if (metadata.isEmpty() || metadata.get().getTable("schema_version").isEmpty()) {
            return Set.of();
        }
        Set<Integer> versions = new TreeSet<>();
        for (Row row : session.execute(SimpleStatement.newInstance("SELECT version FROM " + keyspace + ".schema_version")
                .setNode(coordinator).setConsistencyLevel(ConsistencyLevel.QUORUM).setTimeout(DDL_TIMEOUT))) {
            versions.add(row.getInt("version"));
        }
        return versions;
    }

    /**
     * Runs one DDL statement on {@code coordinator}. A keyspace replicated to a DC whose nodes the
     * coordinator has not heard of through gossip yet is refused ("Unrecognized strategy option");
     * such a statement is tried again every second for up to {@link #UNKNOWN_DC_WAIT}: a local stack
     * of three nodes per DC once failed so at start, all its nodes up, a node of the first DC not yet
     * knowing the second.
     */
    private static void execute(CqlSession session, String statement, Node coordinator) {
        long deadline = System.nanoTime() + UNKNOWN_DC_WAIT.toNanos();
        while (true) {
            try {
                session.execute(SimpleStatement.newInstance(statement).setNode(coordinator).setTimeout(DDL_TIMEOUT));
                return;
            } catch (InvalidConfigurationInQueryException e) {
                if (!namesUnknownDataCenter(e) || System.nanoTime() - deadline > 0) {
                    throw e;
                }
                try {
                    Thread.sleep(1_000);
                } catch (InterruptedException interrupted) {
                    Thread.currentThread().interrupt();
                    throw e;
                }
            }
        }
    }

    /** Whether Cassandra refused a replication map for naming a DC it does not know (yet). */
    static boolean namesUnknownDataCenter(InvalidConfigurationInQueryException e) {
        return e.getMessage() != null && e.getMessage().contains("Unrecognized strategy option");
    }

    /**
     * Whether every node the coordinator knows (itself and its peers) reports the same schema
     * version. Unlike {@link CqlSession#checkSchemaAgreement()}, this includes the nodes of other
     * DCs: the driver leaves out nodes it does not connect to, which are all remote-DC nodes by
     * default, so it would report agreement before a table exists across the WAN.
     */
    public static boolean schemaAgrees(CqlSession session) {
        return schemaAgrees(session, null);
    }

    /**
     * {@link #schemaAgrees(CqlSession)} as {@code coordinator} sees it (any node when null). Ask the
     * node that ran the schema change: another may not have heard of it yet, and then sees every
     * node at the old version.
     */
    public static boolean schemaAgrees(CqlSession session, Node coordinator) {
        ResultSet local = session.execute(SimpleStatement.newInstance("SELECT schema_version FROM system.local")
                .setNode(coordinator));
        Node asked = local.getExecutionInfo().getCoordinator();
        Set<UUID> versions = new HashSet<>();
        versions.add(local.one().getUuid("schema_version"));
        for (Row peer : session.execute(SimpleStatement.newInstance("SELECT schema_version FROM system.peers_v2")
                .setNode(asked))) {
            versions.add(peer.getUuid("schema_version"));
        }
        return versions.size() == 1;
    }

    /** Waits until {@link #schemaAgrees} (at most 90 s). */
    public static void awaitSchemaAgreement(CqlSession session) {
        awaitSchemaAgreement(session, null);
    }

    /** Waits until {@link #schemaAgrees(CqlSession, Node)} (at most 90 s). */
    public static void awaitSchemaAgreement(CqlSession session, Node coordinator) {
        long deadline = System.nanoTime() + AGREEMENT_TIMEOUT.toNanos();
        while (!schemaAgrees(session, coordinator)) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("no schema agreement after " + AGREEMENT_TIMEOUT.toSeconds()
                        + " s: is every node up?");
            }
            try {
                Thread.sleep(200);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while waiting for schema agreement", e);
            }
        }
    }

    /**
     * Driver settings for a session that runs DDL and is closed soon after (this tool, the local
     * stack, tests); callers add their own. After each schema change the driver refreshes its schema
     * metadata before the statement completes, and by default it first collects changes for 1 s:
     * every DDL statement waited that second (the schema took ~20 s to apply over the local stack's
     * WAN instead of ~9 s). Closing such a session also skips Netty's 2 s quiet period.
     */
    public static ProgrammaticDriverConfigLoaderBuilder ddlSessionConfig() {
        return DriverConfigLoader.programmaticBuilder()
                .withDuration(DefaultDriverOption.METADATA_SCHEMA_WINDOW, Duration.ZERO)
                .withInt(DefaultDriverOption.NETTY_IO_SHUTDOWN_QUIET_PERIOD, 0)
                .withInt(DefaultDriverOption.NETTY_ADMIN_SHUTDOWN_QUIET_PERIOD, 0);
    }

    /** A session on the first region of a topology, for the command line. */
    static CqlSession connect(Topology topology) {
        Topology.RegionEndpoints first = topology.regions().get(0);
        if (first.cassandraContactPoints().isEmpty()) {
            throw new IllegalArgumentException("region " + first.name() + " has no Cassandra contact points");
        }
        return CqlSession.builder()
                .addContactPoints(first.cassandraContactPoints().stream().map(SchemaTool::address).toList())
                .withLocalDatacenter(first.dataCenter())
                .withConfigLoader(ddlSessionConfig().build())
                .build();
    }

    static InetSocketAddress address(String hostPort) {
        int colon = hostPort.lastIndexOf(':');
        if (colon < 0) {
            return new InetSocketAddress(hostPort, 9042);
        }
        return new InetSocketAddress(hostPort.substring(0, colon), Integer.parseInt(hostPort.substring(colon + 1)));
    }

    @Command(name = "apply", mixinStandardHelpOptions = true,
            description = "Applies the schema versions a keyspace does not have yet.")
    static final class Apply implements Callable<Integer> {
        @Option(names = "--topology", required = true, description = "topology.properties of the deployment")
        Path topology;

        @Option(names = "--keyspace", defaultValue = DEFAULT_KEYSPACE, description = "default: ${DEFAULT-VALUE}")
        String keyspace;

        @Override
        public Integer call() {
            Topology t = Topology.load(topology);
            try (CqlSession session = connect(t)) {
                List<Integer> applied = apply(session, keyspace, replicationOf(t), Integer.MAX_VALUE, System.out::println);
                System.out.println(applied.isEmpty()
                        ? "schema of " + keyspace + " is current"
                        : "applied to " + keyspace + ": " + applied.stream().map(v -> "V" + v)
                                .collect(Collectors.joining(", ")));
            }
            return 0;
        }
    }

    /** Runs the command line and returns its exit code. */
    public static int run(String... args) {
        CommandLine cli = new CommandLine(new SchemaTool());
        cli.setExecutionExceptionHandler((e, cmd, parsed) -> {
            cmd.getErr().println("schema: " + e.getMessage());
            return 1;
        });
        return cli.execute(args);
    }

    public static void main(String[] args) {
        System.exit(run(args));
    }
}
