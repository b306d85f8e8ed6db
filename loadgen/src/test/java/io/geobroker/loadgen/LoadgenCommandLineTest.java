package io.geobroker.loadgen;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

class LoadgenCommandLineTest {

    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();
    private PrintStream originalOut;
    private PrintStream originalErr;

    @BeforeEach
    void capture() {
        originalOut = System.out;
        originalErr = System.err;
        System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
        System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
    }

    @AfterEach
    void restore() {
        System.setOut(originalOut);
        System.setErr(originalErr);
    }

    @Test
    void calc_prints_the_prototype_table_and_writes_the_chart(@TempDir Path dir) throws Exception {
        Path html = dir.resolve("calc.html");

        int code = Loadgen.execute("calc", "--html", html.toString());

        assertThat(code).isZero();
        assertThat(out.toString(StandardCharsets.UTF_8)).contains("$337 + $24 = $361 rounded").contains("180%");
        assertThat(Files.readString(html)).contains("<svg");
    }

    @Test
    void report_rewrites_the_files_of_a_saved_report(@TempDir Path dir) throws Exception {
        Path json = dir.resolve("saved.json");
        Files.writeString(json, io.geobroker.loadgen.report.ReportWriter.json(io.geobroker.loadgen.report.ReportWriterTest.sample()));

        assertThat(Loadgen.execute("report", "--from", json.toString(), "--out", dir.resolve("again").toString())).isZero();
        assertThat(Files.readString(dir.resolve("again").resolve("report.html"))).contains("<svg");
        assertThat(out.toString(StandardCharsets.UTF_8)).contains("ticker-to-fill/ALL/ALL");
        assertThat(Loadgen.execute("report", "--from", dir.resolve("missing.json").toString())).isEqualTo(1);
    }

    @Test
    void every_help_text_renders_without_warnings() {
        for (String command : new String[] {"demo", "run", "calc", "report"}) {
            assertThat(Loadgen.execute(command, "--help")).as(command).isZero();
        }
        assertThat(out.toString(StandardCharsets.UTF_8)).contains("from 10 % to 100 %");
        assertThat(err.toString(StandardCharsets.UTF_8)).doesNotContain("WARN");
    }

    @Test
    void bad_flags_exit_with_usage_code_2() {
        assertThat(Loadgen.execute("run", "--no-such-flag")).isEqualTo(2);
        assertThat(Loadgen.execute("run", "--scale", "abc")).isEqualTo(2);
        assertThat(Loadgen.execute("run", "--duration", "soon", "--broker", "sydney=http://127.0.0.1:1")).isEqualTo(2);
        assertThat(Loadgen.execute("calc", "--max-dcs", "0")).isEqualTo(1);
        assertThat(Loadgen.execute("run", "--admin-token-file", "/dev/null")).isEqualTo(2);
        assertThat(err.toString(StandardCharsets.UTF_8)).contains("Unknown option: '--no-such-flag'")
                .contains("give the deployment");
    }

    @Test
    void an_unknown_ticker_source_is_bad_usage() {
        assertThat(Loadgen.execute("run", "--tickers", "exchange", "--broker", "sydney=http://127.0.0.1:1")).isEqualTo(2);
        assertThat(Loadgen.execute("demo", "--tickers=nobody")).isEqualTo(2);
        assertThat(err.toString(StandardCharsets.UTF_8)).contains("'exchange' is not a ticker source: service or loadgen")
                .contains("'nobody' is not a ticker source");
    }

    @Test
    void an_unknown_jit_mode_is_bad_usage_before_anything_starts() {
        assertThat(Loadgen.execute("demo", "--jit=c2")).isEqualTo(2);
        assertThat(Loadgen.execute("ack-bench", "--jit=c2")).isEqualTo(2);
        assertThat(err.toString(StandardCharsets.UTF_8)).contains("--jit must be warm-c2, c1-only or tiered",
                "--jit must be c1-only or tiered");
    }

    @Test
    void an_unknown_wan_mode_is_bad_usage_before_anything_starts() {
        assertThat(Loadgen.execute("demo", "--wan=sideways")).isEqualTo(2);
        assertThat(Loadgen.execute("up", "--wan=sideways")).isEqualTo(2);
        assertThat(Loadgen.execute("ack-bench", "--wan=sideways")).isEqualTo(2);
        assertThat(err.toString(StandardCharsets.UTF_8)).contains("--wan must be auto, on or off");
    }

    @Test
    void a_ramp_longer_than_the_warm_up_is_refused_before_anything_starts() {
        int code = Loadgen.execute("run", "--warmup", "10s", "--ramp", "20s", "--broker", "sydney=http://127.0.0.1:1");

        assertThat(code).isNotZero();
        assertThat(err.toString(StandardCharsets.UTF_8)).contains("ramp must not be negative nor longer than the warm-up");
    }

    @Test
    void a_negative_resource_interval_is_refused_before_anything_starts() {
        int code = Loadgen.execute("demo", "--resource-interval", "-10s");

        assertThat(code).isNotZero();
        assertThat(err.toString(StandardCharsets.UTF_8)).contains("--resource-interval must not be negative");
    }

    @Test
    void run_scenario_remote_dc_is_refused_outside_the_demo(@TempDir Path dir) throws Exception {
        assertThat(run(dir, "--scenario", "remote-dc",
                "--broker", "sydney=http://127.0.0.1:1", "--kafka", "sydney=127.0.0.1:1")).isEqualTo(2);
        assertThat(err.toString(StandardCharsets.UTF_8)).contains("demo scenario");
    }

    @Test
    void an_unreachable_broker_fails_with_a_clear_message_after_the_ready_timeout(@TempDir Path dir) throws Exception {
        int code = run(dir, "--ready-timeout", "1s",
                "--broker", "sydney=http://127.0.0.1:1", "--kafka", "sydney=127.0.0.1:1", "--out", dir.toString());

        assertThat(code).isEqualTo(1);
        assertThat(err.toString(StandardCharsets.UTF_8)).contains("broker of region sydney at http://127.0.0.1:1 is not ready");
    }

    @Test
    void a_region_without_kafka_is_named_in_the_message(@TempDir Path dir) throws Exception {
        int code = run(dir, "--broker", "sydney=http://127.0.0.1:1");

        assertThat(code).isEqualTo(1);
        assertThat(err.toString(StandardCharsets.UTF_8)).contains("region sydney has no Kafka bootstrap servers");
    }

    @Test
    void a_ticker_service_rate_and_loadgen_tickers_together_are_bad_usage(@TempDir Path dir) throws Exception {
        assertThat(run(dir, "--tickers=loadgen",
                "--ticker-service", "http://127.0.0.1:1", "--broker", "sydney=http://127.0.0.1:1", "--kafka",
                "sydney=127.0.0.1:1")).isEqualTo(2);
        assertThat(err.toString(StandardCharsets.UTF_8)).contains("give only one of them");
    }

    @Test
    void a_ticker_service_that_is_not_a_url_is_bad_usage(@TempDir Path dir) throws Exception {
        assertThat(run(dir, "--ticker-service", "127.0.0.200:8081",
                "--broker", "sydney=http://127.0.0.1:1", "--kafka", "sydney=127.0.0.1:1")).isEqualTo(2);
        assertThat(err.toString(StandardCharsets.UTF_8)).contains("--ticker-service must be an http(s) URL");
    }

    @Test
    void an_unreachable_ticker_service_fails_with_a_clear_message_before_the_load(@TempDir Path dir) throws Exception {
        int code = run(dir, "--ticker-service", "http://127.0.0.1:1",
                "--broker", "sydney=http://127.0.0.1:1", "--kafka", "sydney=127.0.0.1:1", "--out", dir.toString());

        assertThat(code).isEqualTo(1);
        assertThat(err.toString(StandardCharsets.UTF_8))
                .contains("the ticker service at http://127.0.0.1:1 does not answer its rate");
        assertThat(dir.resolve("report.json")).doesNotExist();
    }

    /** {@code loadgen run} with an admin token file in {@code dir} and the given arguments. */
    private static int run(Path dir, String... args) throws Exception {
        Path token = Files.writeString(dir.resolve("token"), "t");
        String[] all = new String[args.length + 3];
        all[0] = "run";
        all[1] = "--admin-token-file";
        all[2] = token.toString();
        System.arraycopy(args, 0, all, 3, args.length);
        return Loadgen.execute(all);
    }
}
