package io.geobroker.broker.matching;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;

import java.util.function.IntSupplier;

/** The engine's meters, registered once; the names are those the Grafana dashboard queries. */
final class EngineMetrics {

    private final MeterRegistry meters;
    final Timer tickerToFill;
    final Timer consumeTimer;
    final Timer matchTimer;
    final Timer persistTimer;
    /** The time the engine thread waits for group writes (a full {@link Writing}, or a write it makes itself). */
    final Timer waitTimer;
    final Timer publishTimer;
    final Counter replays;
    final Counter oversizedGroups;
    final Counter splitGroups;
    final Counter batchLogBypassed;
    final Counter accountRereads;
    final DistributionSummary groupStatements;
    final DistributionSummary groupPartitions;
    final Counter unreplicatedPartitions;
    final Timer inboxLag;
    final Timer projectionTimer;
    final DistributionSummary projectionPartitions;
    final DistributionSummary projectionStatements;
    final Counter projectionDropped;

    EngineMetrics(MeterRegistry meters) {
        this.meters = meters;
        tickerToFill = Timer.builder("geobroker.ticker.to.fill")
                .description("Exchange time of the ticker that filled a waiting (limit or stop) order to the fill being durable")
                .publishPercentileHistogram().register(meters);
        consumeTimer = stage("consume");
        matchTimer = stage("match");
        persistTimer = stage("persist");
        waitTimer = stage("wait");
        publishTimer = stage("publish");
        replays = Counter.builder("geobroker.tickers.replayed")
                .description("Tickers at or below the durable sequence, which fill nothing").register(meters);
        oversizedGroups = Counter.builder("geobroker.engine.oversized.groups")
                .description("Groups too large for one batch, written in several").register(meters);
        splitGroups = Counter.builder("geobroker.engine.split.groups")
                .description("Groups whose batch was not confirmed in time, written again in smaller batches")
                .register(meters);
        batchLogBypassed = Counter.builder("geobroker.engine.batchlog.bypassed")
                .description("Groups of several partitions written through the journal because a batch log could "
                        + "not be written lately").register(meters);
        groupStatements = DistributionSummary.builder("geobroker.engine.group.statements")
                .description("CQL statements one group commit writes").register(meters);
        groupPartitions = DistributionSummary.builder("geobroker.engine.group.partitions")
                .description("Partitions (Cassandra mutations) one group commit writes").register(meters);
        unreplicatedPartitions = Counter.builder("geobroker.engine.group.unreplicated.partitions")
                .description("Partitions of group commits in the DC's own keyspace (engine log slots), which no other "
                        + "DC replicates").register(meters);
        accountRereads = Counter.builder("geobroker.engine.account.rereads")
                .description("Reads of a cash account or holding not answered by Cassandra, made again")
                .register(meters);
        projectionTimer = Timer.builder("geobroker.engine.projection")
                .description("One round writing the symbol rows of the groups logged since the last").register(meters);
        projectionPartitions = DistributionSummary.builder("geobroker.engine.projection.partitions")
                .description("Partitions (Cassandra mutations) one projection round writes").register(meters);
        projectionStatements = DistributionSummary.builder("geobroker.engine.projection.statements")
                .description("Symbol statements one projection round writes").register(meters);
        projectionDropped = Counter.builder("geobroker.engine.projection.dropped")
                .description("Symbol statements not written because a later group overwrote or deleted their rows")
                .register(meters);
        inboxLag = Timer.builder("geobroker.inbox.accept.lag")
                .description("Placement in another region to the order being matchable here (replication, inbox poll, queue)")
                .publishPercentileHistogram().register(meters);
    }

    /** The gauge of resting orders, read from the order life cycle once it exists. */
    void registerResting(IntSupplier resting) {
        Gauge.builder("geobroker.orders.resting", resting::getAsInt)
                .description("Orders resting in the books of this region").register(meters);
    }

    /** The gauge of logged groups whose symbol rows are not in their tables yet. */
    void registerProjectionLag(java.util.function.LongSupplier lag) {
        Gauge.builder("geobroker.engine.projection.lag", lag::getAsLong)
                .description("Groups whose symbol rows wait in the engine log for the next projection round").register(meters);
    }

    private Timer stage(String name) {
        return Timer.builder("geobroker.engine.stage").tag("stage", name)
                .description("Time spent per engine stage").publishPercentileHistogram().register(meters);
    }

    void placed(String type, String side) {
        meters.counter("geobroker.orders.placed", "type", type, "side", side).increment();
    }

    void rejected(String reason) {
        meters.counter("geobroker.orders.rejected", "reason", reason).increment();
    }
}
