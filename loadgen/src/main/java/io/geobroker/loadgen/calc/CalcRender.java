package io.geobroker.loadgen.calc;

import io.geobroker.loadgen.report.Html;
import io.geobroker.loadgen.report.Svg;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** The calculator's console table and self-contained HTML page with charts. */
public final class CalcRender {

    private CalcRender() {
    }

    public static String text(Calculator.Result result) {
        StringBuilder out = new StringBuilder();
        Deployment d = result.chosen().estimate().deployment();
        out.append(String.format(Locale.ROOT, "Cassandra %d x %s per DC (RF %d, %d GB each), brokers %d x %s per DC, "
                        + "%,d trades/month, %d bytes replicated per trade%n",
                d.nodesPerDc(), d.cassandraInstance(), d.replicationFactor(), d.cassandraVolumeGb(),
                d.brokersPerDc(), d.brokerInstance(), d.tradesPerMonth(), d.bytesReplicatedPerTrade()));
        out.append(String.format(Locale.ROOT, "Workload per DC: %s — %s reads/s, %s writes/s%n%n",
                result.workload().source(), milli(result.workload().readsMilliPerDc()),
                milli(result.workload().writesMilliPerDc())));
        out.append(String.format(Locale.ROOT, "%4s  %-62s %9s %8s %12s %12s %11s %12s%n", "DCs", "regions",
                "CPU/node", "copies", "WAN GB/mo", "infra/mo", "transfer/mo", "total/mo"));
        for (Calculator.Row row : result.rows()) {
            out.append(rowText(row));
        }
        out.append(String.format(Locale.ROOT, "%nChosen deployment (%d DCs: %s)%n", d.dcs(), String.join(", ", d.regions())));
        for (LoadModel.DcLoad load : result.chosenLoads()) {
            out.append(String.format(Locale.ROOT, "  %-16s CPU per Cassandra node %3d %%  (local writes %s/s, replicated in %s/s)%n",
                    load.region(), load.cpuPercent(), milli(load.localWritesMilliPerSecond()),
                    milli(load.replicatedWritesMilliPerSecond())));
        }
        out.append(String.format(Locale.ROOT, "  %-24s %-16s %14s %12s%n", "item", "region", "quantity", "per month"));
        for (CostModel.Line line : result.chosen().estimate().lines()) {
            String quantity = line.item() == CostModel.Item.TRANSFER
                    ? String.format(Locale.ROOT, "%,.1f GB", line.quantity() / 1e9)
                    : String.format(Locale.ROOT, "%,d", line.quantity());
            out.append(String.format(Locale.ROOT, "  %-24s %-16s %14s %12s%n", line.item().label(), line.region(),
                    quantity, Usd.cents(line.micros())));
        }
        CostModel.Estimate e = result.chosen().estimate();
        out.append(String.format(Locale.ROOT, "  Monthly: %s instances and storage + %s transfer = %s (%s + %s = %s rounded)%n",
                Usd.cents(e.infrastructureMicros()), Usd.cents(e.transferMicros()), Usd.cents(e.totalMicros()),
                Usd.dollars(e.infrastructureMicros()), Usd.dollars(e.transferMicros()), Usd.dollars(e.totalMicros())));
        return out.toString();
    }

    private static String rowText(Calculator.Row row) {
        CostModel.Estimate e = row.estimate();
        return String.format(Locale.ROOT, "%4d  %-62s %8d%% %8d %12s %12s %11s %12s%n", row.dcs(),
                abbreviate(String.join(",", row.regions()), 62), row.cpuPercent(), row.storedCopiesPerWrite(),
                String.format(Locale.ROOT, "%,d", Math.round(e.transferBytes() / 1e9)),
                Usd.dollars(e.infrastructureMicros()), Usd.dollars(e.transferMicros()), Usd.dollars(e.totalMicros()));
    }

    public static String html(Calculator.Result result) {
        List<String> categories = new ArrayList<>();
        long[] cpu = new long[result.rows().size()];
        long[] infraCents = new long[result.rows().size()];
        long[] transferCents = new long[result.rows().size()];
        for (int i = 0; i < result.rows().size(); i++) {
            Calculator.Row row = result.rows().get(i);
            categories.add(row.dcs() + " DC" + (row.dcs() == 1 ? "" : "s"));
            cpu[i] = row.cpuPercent();
            infraCents[i] = Usd.toCents(row.estimate().infrastructureMicros());
            transferCents[i] = Usd.toCents(row.estimate().transferMicros());
        }
        StringBuilder body = new StringBuilder();
        body.append("<h1>geobroker cost and write-amplification calculator</h1>\n");
        body.append("<pre class='note'>").append(Html.escape(text(result))).append("</pre>\n");
        body.append("<div class='charts'>\n");
        body.append(Svg.barChart("CPU load per Cassandra node", "data centres", "CPU %", categories,
                List.of(new Svg.Stack("CPU load %", cpu)), 100, "100 % of a node", v -> v + " %"));
        body.append(Svg.barChart("Monthly cost", "data centres", "USD per month", categories,
                List.of(new Svg.Stack("instances and storage", infraCents), new Svg.Stack("transfer", transferCents)),
                -1, "", cents -> String.format(Locale.ROOT, "$%,d", (cents + 50) / 100)));
        body.append("</div>\n");
        body.append("<p class='note'>Prices and coefficients: geobroker/pricing.properties (documented there). "
                + "CPU load = local reads + local writes + writes replicated from each other DC, per node.</p>\n");
        return Html.page("geobroker calculator", body.toString());
    }

    private static String milli(long milli) {
        return String.format(Locale.ROOT, "%,.1f", milli / 1000.0);
    }

    private static String abbreviate(String s, int max) {
        return s.length() <= max ? s : s.substring(0, max - 3) + "...";
    }
}
