package io.geobroker.loadgen.calc;

import java.util.ArrayList;
import java.util.List;

/**
 * The calculator's table: the same per-DC deployment and workload for 1..max DCs, each row with
 * CPU load per Cassandra node, write amplification, WAN volume and the monthly bill, plus the
 * detailed bill of the chosen deployment.
 */
public final class Calculator {

    /** One row of the table. {@code cpuPercent} is the busiest DC's per-node load. */
    public record Row(int dcs, List<String> regions, int cpuPercent, int storedCopiesPerWrite,
                      CostModel.Estimate estimate) {
        public Row {
            regions = List.copyOf(regions);
        }
    }

    /** Workload per DC in milli-operations per second; {@code null} means the reference load. */
    public record Workload(String source, long readsMilliPerDc, long writesMilliPerDc) {
    }

    /** The table, the chosen deployment's row and what workload it was computed for. */
    public record Result(List<Row> rows, Row chosen, Workload workload, List<LoadModel.DcLoad> chosenLoads) {
        public Result {
            rows = List.copyOf(rows);
            chosenLoads = List.copyOf(chosenLoads);
        }
    }

    private final Pricing pricing;
    private final CostModel costs;
    private final LoadModel load;

    public Calculator(Pricing pricing) {
        this.pricing = pricing;
        this.costs = new CostModel(pricing);
        this.load = new LoadModel(pricing);
    }

    public Pricing pricing() {
        return pricing;
    }

    public Workload referenceWorkload() {
        return new Workload("reference (the prototype's load per DC)",
                pricing.cpu().referenceReadsPerSecond() * 1000, pricing.cpu().referenceWritesPerSecond() * 1000);
    }

    /**
     * Rows for 1..maxDcs DCs (regions taken in the price list's order) and the chosen deployment's
     * row; the chosen deployment's regions are kept as given.
     */
    public Result table(Deployment chosen, int maxDcs, Workload workload) {
        List<Row> rows = new ArrayList<>();
        for (int n = 1; n <= maxDcs; n++) {
            rows.add(row(chosen.withRegions(pricing.firstRegions(n)), workload));
        }
        Row chosenRow = row(chosen, workload);
        return new Result(rows, chosenRow, workload, loads(chosen, workload));
    }

    public Row row(Deployment d, Workload workload) {
        int cpu = loads(d, workload).stream().mapToInt(LoadModel.DcLoad::cpuPercent).max().orElse(0);
        return new Row(d.dcs(), d.regions(), cpu, LoadModel.storedCopiesPerWrite(d), costs.estimate(d));
    }

    private List<LoadModel.DcLoad> loads(Deployment d, Workload w) {
        return load.at(d, LoadModel.uniform(d, w.readsMilliPerDc(), w.writesMilliPerDc()));
    }
}
