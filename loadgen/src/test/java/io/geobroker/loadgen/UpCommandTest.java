package io.geobroker.loadgen;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

class UpCommandTest {

    @Test
    void nothing_is_up_without_a_pid_file(@TempDir Path dir) throws Exception {
        assertThat(UpCommand.runningUp(dir)).isEmpty();
    }

    @Test
    void a_pid_file_that_is_not_a_number_names_nothing(@TempDir Path dir) throws Exception {
        Files.writeString(dir.resolve(UpCommand.PID), "not a pid");
        assertThat(UpCommand.runningUp(dir)).isEmpty();
    }

    @Test
    void a_pid_whose_process_ended_is_not_up(@TempDir Path dir) throws Exception {
        Process ended = new ProcessBuilder("true").start();
        ended.waitFor();
        Files.writeString(dir.resolve(UpCommand.PID), Long.toString(ended.pid()));
        assertThat(UpCommand.runningUp(dir)).isEmpty();
    }

    @Test
    void a_live_process_that_is_not_the_load_generator_is_not_taken_for_it(@TempDir Path dir) throws Exception {
        Process other = new ProcessBuilder("sleep", "30").start();
        try {
            Files.writeString(dir.resolve(UpCommand.PID), Long.toString(other.pid()));
            assertThat(UpCommand.runningUp(dir)).isEmpty();
        } finally {
            other.destroy();
        }
    }

    @Test
    void down_with_nothing_up_says_so_and_succeeds(@TempDir Path dir) {
        assertThat(Loadgen.execute("down", "--work-dir", dir.toString())).isZero();
    }
}
