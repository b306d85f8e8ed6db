package io.geobroker.stack;

/** Chooses and starts the stack's WAN according to its {@link WanMode}. */
final class WanSupport {

    private WanSupport() {
    }

    /** The WAN to use, checked but not started; fails for {@link WanMode#ON} when it cannot run. */
    static Wan open(StackConfig config) {
        if (config.wan() == WanMode.OFF) {
            return Wan.off("disabled (--wan off)");
        }
        String reason = "the WAN emulator is not part of this build";
        if (config.wan() == WanMode.ON) {
            throw new StackException("WAN requested (--wan on) but it cannot run: " + reason);
        }
        return Wan.off(reason);
    }

    static Wan start(Wan chosen, StackConfig config) {
        return chosen;
    }
}
