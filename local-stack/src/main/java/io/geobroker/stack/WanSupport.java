package io.geobroker.stack;

import io.geobroker.stack.wan.WanEmulator;
import io.geobroker.stack.wan.WanEmulator.WanCheck;
import io.geobroker.stack.wan.WanEmulator.WanRegion;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Chooses and starts the stack's WAN according to its {@link WanMode}, on {@link WanEmulator}. */
final class WanSupport {

    private static final String OFF_PREFIX = "WAN off: ";

    private WanSupport() {
    }

    /** The WAN to use, checked but not started; fails for {@link WanMode#ON} when it cannot run here. */
    static Wan open(StackConfig config) {
        if (config.wan() == WanMode.OFF) {
            return Wan.off("disabled (--wan off)");
        }
        return decide(config.wan(), WanEmulator.check());
    }

    /**
     * The decision alone: {@code ON} needs the WAN to be able to run, {@code AUTO} falls back to off
     * and keeps the reason. The returned WAN when on is a placeholder until {@link #start}.
     */
    static Wan decide(WanMode mode, WanCheck check) {
        if (mode == WanMode.OFF) {
            return Wan.off("disabled (--wan off)");
        }
        if (!check.available()) {
            String reason = check.reason().startsWith(OFF_PREFIX) ? check.reason().substring(OFF_PREFIX.length())
                    : check.reason();
            if (mode == WanMode.ON) {
                throw new StackException("WAN requested (--wan on) but it cannot run: " + reason);
            }
            return Wan.off(reason);
        }
        return new Pending();
    }

    static Wan start(Wan chosen, StackConfig config) {
        if (!chosen.on()) {
            return chosen;
        }
        List<WanRegion> regions = regions(config);
        try {
            return new Emulated(WanEmulator.start(regions, config.oneWayDelay(), config.workDir()), config.oneWayDelay());
        } catch (IllegalStateException | IllegalArgumentException e) {
            throw new StackException("the WAN did not start: " + e.getMessage(), e);
        }
    }

    static List<WanRegion> regions(StackConfig config) {
        List<WanRegion> regions = new ArrayList<>();
        for (String name : config.regionNames()) {
            regions.add(WanRegion.of(config.addressPrefix(), config.index(name), name));
        }
        return regions;
    }

    /**
     * Removes what a stack on this configuration's addresses left when it ended without its stop;
     * fails with one message if a running stack still uses them.
     */
    static void clearLeftovers(StackConfig config) {
        try {
            WanEmulator.cleanup(config.workDir(), regions(config));
        } catch (IllegalStateException e) {
            throw new StackException(e.getMessage(), e);
        }
    }

    /** Removes the namespaces and forwarder a dead owner may have left (best effort, needs root). */
    static void cleanup(Path workDir, String prefix, List<String> regionNames) {
        List<WanRegion> regions = new ArrayList<>();
        for (int i = 0; i < regionNames.size(); i++) {
            regions.add(WanRegion.of(prefix, i + 1, regionNames.get(i)));
        }
        WanEmulator.cleanup(workDir, regions);
    }

    /** Chosen to be on, not started yet. */
    private static final class Pending implements Wan {
        @Override
        public boolean on() {
            return true;
        }

        @Override
        public String status() {
            return "WAN on: starting";
        }

        @Override
        public Map<String, String> namespaces() {
            return Map.of();
        }

        @Override
        public void cut(String a, String b) {
            throw new IllegalStateException("the WAN is not started");
        }

        @Override
        public void restore(String a, String b) {
            throw new IllegalStateException("the WAN is not started");
        }

        @Override
        public ProcessBuilder wrap(String region, ProcessBuilder pb) {
            throw new IllegalStateException("the WAN is not started");
        }

        @Override
        public void close() {
        }
    }

    private record Emulated(WanEmulator emulator, Duration oneWay) implements Wan {
        @Override
        public boolean on() {
            return true;
        }

        @Override
        public String status() {
            return "WAN on: " + oneWay.toMillis() + " ms one way";
        }

        @Override
        public Map<String, String> namespaces() {
            Map<String, String> namespaces = new LinkedHashMap<>();
            emulator.regions().forEach(r -> namespaces.put(r.name(), r.namespace()));
            return namespaces;
        }

        @Override
        public List<Long> pids() {
            return emulator.pids();
        }

        @Override
        public void cut(String a, String b) {
            emulator.cut(a, b);
        }

        @Override
        public void restore(String a, String b) {
            emulator.restore(a, b);
        }

        @Override
        public ProcessBuilder wrap(String region, ProcessBuilder pb) {
            return emulator.wrap(region, pb);
        }

        @Override
        public void close() {
            emulator.close();
        }
    }
}
