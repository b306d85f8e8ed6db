package io.geobroker.stack;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** Starts a stack in its own owner process ({@code local-stack start --foreground}) and waits until it is ready. */
final class Spawner {

    static final String ERROR_PREFIX = "local-stack: ";

    private Spawner() {
    }

    static LocalStack spawn(StackConfig config) {
        Path workDir = config.workDir();
        StackState.read(workDir).filter(StackState::ownerAlive).ifPresent(s -> {
            throw new StackException("a local stack is already running in " + workDir + " (owner pid "
                    + s.ownerPid() + "): stop it first");
        });
        Path java = Jdk17.find();
        RuntimeFiles files = RuntimeFiles.locate();
        String classPath = files.cliJar().map(Path::toString).orElse(System.getProperty("java.class.path"));
        Path log = workDir.resolve(LocalStack.OWNER_LOG);
        List<String> command = new ArrayList<>(List.of(java.toString(),
                "-Xmx128m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1",
                "-Dgeobroker.root=" + files.moduleDir().getParent(),
                "-cp", classPath, LocalStackCli.class.getName(), "start", "--foreground"));
        command.addAll(config.toArguments());
        Process owner;
        try {
            Files.createDirectories(workDir);
            Files.deleteIfExists(log);
            owner = new ProcessBuilder(command).redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()))
                    .redirectInput(ProcessBuilder.Redirect.from(Path.of("/dev/null").toFile()))
                    .start();
        } catch (IOException e) {
            throw new StackException("cannot start the stack's owner process: " + e.getMessage(), e);
        }
        long deadline = System.nanoTime() + config.startTimeout().plusMinutes(1).toNanos();
        while (owner.isAlive()) {
            Optional<StackState> state = StackState.read(workDir);
            if (state.isPresent() && state.get().ownerPid() == owner.pid() && state.get().ready()) {
                return LocalStack.attach(workDir);
            }
            if (System.nanoTime() > deadline) {
                owner.destroy();
                throw new StackException("the local stack was not ready in time; see " + log);
            }
            LocalStack.pause(250);
        }
        throw new StackException(failure(log).orElse("the stack's owner process exited with code "
                + owner.exitValue() + "; see " + log));
    }

    /** The owner's own one-line error message, if it printed one. */
    private static Optional<String> failure(Path log) {
        try {
            List<String> lines = Files.readAllLines(log, StandardCharsets.UTF_8);
            for (int i = lines.size() - 1; i >= 0; i--) {
                if (lines.get(i).startsWith(ERROR_PREFIX)) {
                    return Optional.of(lines.get(i).substring(ERROR_PREFIX.length()));
                }
            }
        } catch (IOException e) {
            return Optional.empty();
        }
        return Optional.empty();
    }
}
