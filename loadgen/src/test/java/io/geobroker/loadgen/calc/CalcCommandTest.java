package io.geobroker.loadgen.calc;

import io.geobroker.loadgen.report.ReportWriter;
import io.geobroker.loadgen.report.RunReport;
import io.geobroker.loadgen.report.WanTraffic;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class CalcCommandTest {

    private static RunReport report(long measuredMillis) {
        return new RunReport(RunReport.SCHEMA, "t", "default", "2026-11-22T14:00:00Z", Map.of(), measuredMillis,
                List.of(new RunReport.RegionSummary("nvirginia", 9_000, 9_000, 0, 0, 8_000, 24_000),
                        new RunReport.RegionSummary("sydney", 9_000, 9_000, 0, 0, 4_000, 12_000)),
                List.of(), Map.of(), List.of(), null, null);
    }

    @Test
    void reads_per_dc_rates_and_monthly_trades_from_a_report() {
        CalcCommand.Measured m = CalcCommand.measured(report(60_000), 730);

        // (24,000 + 12,000) tickers / 60 s / 2 regions = 300 reads/s per DC
        assertThat(m.workload().readsMilliPerDc()).isEqualTo(300_000);
        // (9,000 + 8,000 + 9,000 + 4,000) writes / 60 s / 2 = 250 writes/s per DC
        assertThat(m.workload().writesMilliPerDc()).isEqualTo(250_000);
        // 12,000 fills / 60 s = 200/s x 730 h
        assertThat(m.tradesPerMonth()).isEqualTo(200L * 730 * 3_600);
        assertThat(m.fillsByCloudRegion()).containsEntry("us-east-1", 8_000L).containsEntry("ap-southeast-2", 4_000L);
    }

    @Test
    void the_reports_rates_give_the_reference_cpu_figures() {
        Pricing pricing = Pricing.standard();
        CalcCommand.Measured m = CalcCommand.measured(report(60_000), pricing.hoursPerMonth());

        assertThat(new Calculator(pricing).row(pricing.defaults(), m.workload()).cpuPercent()).isEqualTo(60);
    }

    @Test
    void a_report_with_the_wans_bytes_per_fill_replaces_the_assumed_bytes_per_trade(@TempDir Path dir) throws Exception {
        RunReport base = report(60_000);
        RunReport measured = new RunReport(base.schema(), base.title(), base.scenario(), base.startedAt(),
                Map.of(WanTraffic.PER_FILL, "2345"), base.measuredMillis(), base.regions(), base.series(),
                base.throughput(), base.sweep(), null, null);
        Path file = ReportWriter.writeAll(measured, dir).json();

        String out = run("--from-report", file.toString());
        String assumed = run();

        assertThat(out).contains("2345 bytes replicated per trade");
        assertThat(assumed).contains(Pricing.standard().defaults().bytesReplicatedPerTrade() + " bytes replicated per trade");
    }

    @Test
    void a_report_with_the_engines_mutations_is_checked_against_the_replication_model(@TempDir Path dir) throws Exception {
        RunReport base = report(60_000);
        ReplicationModel model = new ReplicationModel(5_000, 2_000, 500, 200);
        // 60 s x 2 nodes x 5,000 + 12,000 fills x 2,000 + 30,000 mutations x (500 + 200) = 45,600,000 bytes
        RunReport measured = new RunReport(base.schema(), base.title(), base.scenario(), base.startedAt(),
                Map.of(WanTraffic.TOTAL, "50160000", WanTraffic.MUTATIONS, "30000", WanTraffic.NODES_PER_DC, "1",
                        WanTraffic.REPLICAS_PER_DC, "1"), base.measuredMillis(), base.regions(),
                base.series(), base.throughput(), base.sweep(), null, null);

        assertThat(CalcCommand.replicationCheck(measured, model)).isEqualTo("Replication model: 3,800 bytes per fill predicted "
                + "for this run (5,000 bytes a second per Cassandra node + 2,000 per fill + 500 per mutation the engines "
                + "wrote + 200 per replica's answer to it), 4,180 measured (+10.0 %).");
        assertThat(run("--from-report", ReportWriter.writeAll(measured, dir).json().toString()))
                .contains("Replication model: ").contains("measured (+");
    }

    @Test
    void a_report_without_the_engines_mutations_says_why_nothing_is_predicted() {
        RunReport base = report(60_000);
        RunReport older = new RunReport(base.schema(), base.title(), base.scenario(), base.startedAt(),
                Map.of(WanTraffic.PER_FILL, "2345"), base.measuredMillis(), base.regions(), base.series(),
                base.throughput(), base.sweep(), null, null);

        assertThat(CalcCommand.replicationCheck(older, Pricing.standard().replication()))
                .contains("nothing to compare").contains("the engines' mutations");
        assertThat(CalcCommand.replicationCheck(base, Pricing.standard().replication())).contains("the WAN's bytes");
        RunReport withoutDeployment = new RunReport(base.schema(), base.title(), base.scenario(), base.startedAt(),
                Map.of(WanTraffic.PER_FILL, "2345", WanTraffic.MUTATIONS, "100"), base.measuredMillis(), base.regions(),
                base.series(), base.throughput(), base.sweep(), null, null);
        assertThat(CalcCommand.replicationCheck(withoutDeployment, Pricing.standard().replication()))
                .contains("its Cassandra nodes and replicas per DC");
    }

    @Test
    void mutations_per_fill_give_the_bytes_per_trade_of_the_replication_model() {
        Pricing pricing = Pricing.standard();
        Deployment d = pricing.defaults();
        long expected = pricing.replication().bytesPerTrade(d.dcs() * d.nodesPerDc(), d.effectiveReplicationFactor(), 2_200,
                d.tradesPerMonth(), pricing.hoursPerMonth());

        assertThat(run("--mutations-per-fill", "2.2")).contains(expected + " bytes replicated per trade");
        assertThat(expected).isGreaterThan(d.bytesReplicatedPerTrade());
        assertThat(new CommandLine(new CalcCommand()).execute("--mutations-per-fill", "-1")).isNotZero();
    }

    private static String run(String... args) {
        PrintStream saved = System.out;
        ByteArrayOutputStream buffer = new ByteArrayOutputStream();
        System.setOut(new PrintStream(buffer, true, StandardCharsets.UTF_8));
        try {
            assertThat(new CommandLine(new CalcCommand()).execute(args)).isZero();
        } finally {
            System.setOut(saved);
        }
        return buffer.toString(StandardCharsets.UTF_8);
    }

    @Test
    void rejects_a_report_without_a_measured_phase() {
        assertThatThrownBy(() -> CalcCommand.measured(report(0), 730)).hasMessageContaining("no measured phase");
    }
}
