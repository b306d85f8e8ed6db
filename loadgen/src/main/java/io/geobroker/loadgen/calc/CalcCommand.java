package io.geobroker.loadgen.calc;

import io.geobroker.domain.SymbolDirectory;
import io.geobroker.loadgen.report.ReportWriter;
import io.geobroker.loadgen.report.RunReport;
import io.geobroker.loadgen.report.WanTraffic;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.Callable;

/** {@code loadgen calc}: the cost and write-amplification table for 1..N DCs, as text and HTML. */
@Command(name = "calc", mixinStandardHelpOptions = true,
        description = "Monthly cost and Cassandra write amplification for 1..N data centres, from prices "
                + "(geobroker/pricing.properties or --pricing) and optionally a load report's measured rates.")
public final class CalcCommand implements Callable<Integer> {

    @Option(names = "--pricing", description = "Price file (same keys as the shipped one).")
    Path pricingFile;

    @Option(names = "--dcs", description = "DCs of the chosen deployment (the first N regions of the price list). Default: 2.")
    Integer dcs;

    @Option(names = "--regions", split = ",", description = "Cloud regions of the chosen deployment, e.g. us-east-1,ap-southeast-2.")
    List<String> regions;

    @Option(names = "--max-dcs", defaultValue = "8", description = "Rows of the table: 1..this many DCs. Default: ${DEFAULT-VALUE}.")
    int maxDcs;

    @Option(names = "--nodes-per-dc", description = "Cassandra nodes per DC.")
    Integer nodesPerDc;

    @Option(names = "--replication-factor", description = "Cassandra replicas per DC.")
    Integer replicationFactor;

    @Option(names = "--cassandra-instance", description = "Instance type of the Cassandra nodes.")
    String cassandraInstance;

    @Option(names = "--cassandra-volume-gb", description = "EBS gp3 volume per Cassandra node (GB).")
    Integer cassandraVolumeGb;

    @Option(names = "--broker-instance", description = "Instance type of the brokers.")
    String brokerInstance;

    @Option(names = "--brokers-per-dc", description = "Broker instances per DC.")
    Integer brokersPerDc;

    @Option(names = "--trades-per-month", description = "Trades a month over the whole deployment.")
    Long tradesPerMonth;

    @Option(names = "--from-report", description = "A loadgen report.json: its measured per-region rates replace the "
            + "reference load, its fills per second (x 730 h) the trades per month, and the bytes its WAN carried "
            + "per fill (a demo with the emulated WAN) the bytes replicated per trade.")
    Path report;

    @Option(names = "--mutations-per-fill", description = "Bytes replicated per trade from geobroker's replication model "
            + "(replication.* in the price file) for the deployment's nodes and replicas, at this many Cassandra mutations "
            + "the engines write per fill to tables every DC replicates (0.35 in a default demo run), instead of the "
            + "prototype's 814.")
    BigDecimal mutationsPerFill;

    @Option(names = "--html", description = "Also write the table and charts to this HTML file.")
    Path html;

    @Override
    public Integer call() throws Exception {
        Pricing pricing = pricingFile == null ? Pricing.standard() : Pricing.load(pricingFile);
        Deployment d = pricing.defaults();
        List<String> chosenRegions = regions != null ? regions : pricing.firstRegions(dcs == null ? d.dcs() : dcs);
        if (maxDcs < 1 || maxDcs > pricing.regionOrder().size()) {
            throw new IllegalArgumentException("--max-dcs must be 1.." + pricing.regionOrder().size());
        }
        d = new Deployment(chosenRegions, nodesPerDc == null ? d.nodesPerDc() : nodesPerDc,
                replicationFactor == null ? d.replicationFactor() : replicationFactor,
                cassandraInstance == null ? d.cassandraInstance() : cassandraInstance,
                cassandraVolumeGb == null ? d.cassandraVolumeGb() : cassandraVolumeGb,
                brokerInstance == null ? d.brokerInstance() : brokerInstance,
                brokersPerDc == null ? d.brokersPerDc() : brokersPerDc, d.brokerVolumeGb(),
                tradesPerMonth == null ? d.tradesPerMonth() : tradesPerMonth, d.bytesReplicatedPerTrade(), List.of());
        if (mutationsPerFill != null) {
            if (report != null) {
                throw new IllegalArgumentException("--mutations-per-fill or --from-report, not both: a report's measured bytes "
                        + "per fill are the bytes per trade");
            }
            long milli;
            try {
                milli = mutationsPerFill.movePointRight(3).setScale(0, RoundingMode.HALF_UP).longValueExact();
            } catch (ArithmeticException e) {
                throw new IllegalArgumentException("--mutations-per-fill is out of range: " + mutationsPerFill.toPlainString());
            }
            if (milli < 0) {
                throw new IllegalArgumentException("--mutations-per-fill cannot be negative");
            }
            d = d.withBytesReplicatedPerTrade(pricing.replication().bytesPerTrade(d.dcs() * d.nodesPerDc(),
                    d.effectiveReplicationFactor(), milli, d.tradesPerMonth(), pricing.hoursPerMonth()));
        }
        Calculator calculator = new Calculator(pricing);
        Calculator.Workload workload = calculator.referenceWorkload();
        if (report != null) {
            RunReport run = ReportWriter.readJson(report);
            Measured m = measured(run, pricing.hoursPerMonth());
            Optional<Long> perFill = WanTraffic.perFill(run);
            if (perFill.isPresent()) {
                d = d.withBytesReplicatedPerTrade(perFill.get());
            }
            workload = m.workload();
            if (tradesPerMonth == null) {
                List<Long> shares = new ArrayList<>();
                for (String cloudRegion : d.regions()) {
                    shares.add(m.fillsByCloudRegion().getOrDefault(cloudRegion, -1L));
                }
                boolean known = shares.stream().allMatch(s -> s >= 0) && shares.stream().anyMatch(s -> s > 0);
                d = d.withTradesPerMonth(m.tradesPerMonth(), known ? shares : List.of());
            }
        }
        Calculator.Result result = calculator.table(d, maxDcs, workload);
        if (report != null) {
            System.out.println(replicationCheck(ReportWriter.readJson(report), pricing.replication()));
        }
        System.out.print(CalcRender.text(result));
        if (html != null) {
            Files.writeString(html, CalcRender.html(result), StandardCharsets.UTF_8);
            System.out.println("Chart: " + html.toAbsolutePath());
        }
        return 0;
    }

    /**
     * The bytes a report's WAN carried beside what the replication model predicts from the report's
     * own counts (fills, the engines' mutations, the phase's length), in one line.
     */
    static String replicationCheck(RunReport r, ReplicationModel model) {
        long fills = r.regions().stream().mapToLong(RunReport.RegionSummary::fills).sum();
        Optional<Long> measured = WanTraffic.total(r, fills);
        OptionalLong prediction = model.predict(r);
        if (measured.isEmpty() || prediction.isEmpty()) {
            return "Replication model: nothing to compare; the report lacks "
                    + (measured.isEmpty() ? "the WAN's bytes (a run without the emulated WAN)"
                    : fills == 0 ? "fills" : WanTraffic.mutations(r).isEmpty()
                    ? "the engines' mutations (a report from before they were counted, or a broker restarted in its phase)"
                    : "its Cassandra nodes and replicas per DC")
                    + ".";
        }
        long predicted = prediction.getAsLong();
        return String.format(Locale.ROOT, "Replication model: %,d bytes per fill predicted for this run (%s), %,d measured (%+.1f %%).",
                Math.round((double) predicted / fills), model.describe(), Math.round((double) measured.get() / fills),
                WanTraffic.deviationPercent(measured.get(), predicted));
    }

    /** What a report measured, as the calculator's inputs. */
    record Measured(Calculator.Workload workload, long tradesPerMonth, Map<String, Long> fillsByCloudRegion) {
    }

    /**
     * Reads per-DC rates from a report: reads = tickers consumed (each reads the symbol's open
     * orders), writes = orders accepted + fills, averaged over the report's regions.
     */
    static Measured measured(RunReport r, long hoursPerMonth) {
        if (r.measuredMillis() <= 0 || r.regions().isEmpty()) {
            throw new IllegalArgumentException("the report has no measured phase or no regions");
        }
        long tickers = 0;
        long writes = 0;
        long fills = 0;
        Map<String, Long> shares = new HashMap<>();
        for (RunReport.RegionSummary region : r.regions()) {
            tickers += region.tickers();
            writes += region.ordersAccepted() + region.fills();
            fills += region.fills();
            SymbolDirectory.standard().region(region.region())
                    .ifPresent(known -> shares.put(known.cloudRegion(), region.fills()));
        }
        long n = r.regions().size();
        long readsMilli = tickers * 1_000_000L / r.measuredMillis() / n;
        long writesMilli = writes * 1_000_000L / r.measuredMillis() / n;
        long tradesPerMonth = fills * hoursPerMonth * 3_600_000L / r.measuredMillis();
        return new Measured(new Calculator.Workload("measured (" + r.scenario() + ", " + r.startedAt() + ")",
                readsMilli, writesMilli), tradesPerMonth, shares);
    }
}
