package io.geobroker.stack.wan;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** Runs short system commands ({@code ip}, {@code sysctl}) with a time limit. */
final class Command {

    private static final long TIMEOUT_SECONDS = 15;

    /** Exit code and merged output of a finished command. */
    record Result(int exitCode, String output) {
        boolean ok() {
            return exitCode == 0;
        }
    }

    private Command() {}

    static Result run(List<String> command) {
        ProcessBuilder pb = new ProcessBuilder(command).redirectErrorStream(true);
        pb.redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")));
        Process p;
        try {
            p = pb.start();
        } catch (IOException e) {
            return new Result(127, String.valueOf(e.getMessage()));
        }
        try (InputStream in = p.getInputStream()) {
            String output = new String(in.readAllBytes(), StandardCharsets.UTF_8).strip();
            if (!p.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                return new Result(124, "timed out: " + String.join(" ", command));
            }
            return new Result(p.exitValue(), output);
        } catch (IOException e) {
            p.destroyForcibly();
            return new Result(1, String.valueOf(e.getMessage()));
        } catch (InterruptedException e) {
            p.destroyForcibly();
            Thread.currentThread().interrupt();
            return new Result(130, "interrupted: " + String.join(" ", command));
        }
    }

    /** Runs a command that must succeed; the exception names the command and its output. */
    static String require(List<String> command) {
        Result r = run(command);
        if (!r.ok()) {
            throw new IllegalStateException("'" + String.join(" ", command) + "' failed (exit " + r.exitCode()
                    + "): " + r.output());
        }
        return r.output();
    }
}
