package io.geobroker.loadgen.daytrading;

import org.junit.jupiter.api.Test;

import java.io.StringWriter;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class WorkloadGeneratorTest {

    private static String generate(int users, long commands, long seed) throws Exception {
        StringWriter out = new StringWriter();
        WorkloadGenerator.write(out, new WorkloadGenerator.Settings(users, commands, seed));
        return out.toString();
    }

    @Test
    void has_the_real_files_command_mix() throws Exception {
        String text = generate(100, 100_000, 1);
        Map<String, Long> counts = new HashMap<>();
        text.lines().forEach(l -> counts.merge(WorkloadLine.parse(l).command(), 1L, Long::sum));
        long mixTotal = WorkloadGenerator.MIX.values().stream().mapToLong(Integer::longValue).sum();
        WorkloadGenerator.MIX.forEach((command, n) -> {
            double want = 100.0 * n / mixTotal;
            double got = 100.0 * counts.getOrDefault(command, 0L) / 99_999;
            assertThat(got).as("%s %% of the commands", command).isCloseTo(want, org.assertj.core.data.Offset.offset(0.5));
        });
        assertThat(counts.get("DUMPLOG")).isEqualTo(1);
        assertThat(counts.keySet()).hasSize(16);
    }

    @Test
    void is_the_same_for_the_same_seed_and_differs_for_another() throws Exception {
        assertThat(generate(10, 5_000, 42)).isEqualTo(generate(10, 5_000, 42));
        assertThat(generate(10, 5_000, 42)).isNotEqualTo(generate(10, 5_000, 43));
    }

    @Test
    void has_the_courses_format_and_an_add_first_for_every_user() throws Exception {
        String text = generate(50, 20_000, 5);
        assertThat(text).doesNotEndWith("\n").endsWith("[20000] DUMPLOG,./testLOG");
        List<String> raw = text.lines().toList();
        assertThat(raw).hasSize(20_000);
        Set<String> started = new HashSet<>();
        Set<String> symbols = new HashSet<>();
        for (int i = 0; i < raw.size(); i++) {
            String r = raw.get(i);
            WorkloadLine line = WorkloadLine.parse(r);
            assertThat(line.transactionNum()).isEqualTo(i + 1);
            if (i == raw.size() - 1) {
                assertThat(line.adminDumplog()).isTrue();
                continue;
            }
            assertThat(r).endsWith(" ").doesNotEndWith("  ");
            assertThat(line.user()).matches("[A-Za-z0-9]{10}");
            if (started.add(line.user())) {
                assertThat(line.command()).as("first command of %s", line.user()).isEqualTo("ADD");
            }
            String[] f = line.text().substring(line.text().indexOf(' ') + 1).split(",");
            switch (line.command()) {
                case "ADD" -> assertThat(new BigDecimal(f[2])).isBetween(new BigDecimal("12728.13"), new BigDecimal("131417.80"));
                case "BUY", "SELL", "SET_BUY_AMOUNT", "SET_SELL_AMOUNT" ->
                        assertThat(new BigDecimal(f[3])).isBetween(new BigDecimal("0.06"), new BigDecimal("750.00"));
                case "SET_BUY_TRIGGER", "SET_SELL_TRIGGER" ->
                        assertThat(new BigDecimal(f[3])).isBetween(new BigDecimal("0.02"), new BigDecimal("737.01"));
                default -> {
                }
            }
            if (f.length > 2 && !line.command().equals("ADD")) {
                assertThat(f[2]).matches("[A-Z]{1,3}");
                symbols.add(f[2]);
            }
        }
        assertThat(started).hasSize(50);
        assertThat(symbols).hasSizeLessThanOrEqualTo(WorkloadGenerator.SYMBOLS).hasSizeGreaterThan(20);
    }

    @Test
    void commits_usually_follow_a_buy_of_the_same_user_within_a_few_lines() throws Exception {
        List<WorkloadLine> lines = new ArrayList<>();
        generate(1_000, 50_000, 9).lines().forEach(l -> lines.add(WorkloadLine.parse(l)));
        long commits = 0;
        long followed = 0;
        for (int i = 0; i < lines.size(); i++) {
            if (!"COMMIT_BUY".equals(lines.get(i).command())) {
                continue;
            }
            commits++;
            for (int j = Math.max(0, i - 10); j < i; j++) {
                if ("BUY".equals(lines.get(j).command()) && lines.get(j).user().equals(lines.get(i).user())) {
                    followed++;
                    break;
                }
            }
        }
        assertThat(commits).isPositive();
        assertThat((double) followed / commits).as("COMMIT_BUYs with the same user's BUY in the 10 lines before")
                .isGreaterThan(0.6);
    }

    @Test
    void refuses_an_empty_workload() {
        assertThatThrownBy(() -> new WorkloadGenerator.Settings(0, 10, 1)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new WorkloadGenerator.Settings(1, 1, 1)).isInstanceOf(IllegalArgumentException.class);
    }
}
