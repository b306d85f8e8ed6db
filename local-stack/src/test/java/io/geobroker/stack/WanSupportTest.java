package io.geobroker.stack;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.geobroker.stack.wan.WanEmulator.WanCheck;
import org.junit.jupiter.api.Test;

class WanSupportTest {

    private static final WanCheck NOT_ROOT = new WanCheck(false, "WAN off: not running as root");

    @Test
    void wan_on_without_the_rights_fails_with_the_reason() {
        assertThatThrownBy(() -> WanSupport.decide(WanMode.ON, NOT_ROOT))
                .isInstanceOf(StackException.class)
                .hasMessage("WAN requested (--wan on) but it cannot run: not running as root");
    }

    @Test
    void wan_auto_without_the_rights_is_off_with_the_reason() {
        Wan wan = WanSupport.decide(WanMode.AUTO, NOT_ROOT);

        assertThat(wan.on()).isFalse();
        assertThat(wan.status()).isEqualTo("WAN off: not running as root");
        assertThatThrownBy(() -> wan.cut("sydney", "nvirginia")).hasMessageContaining("WAN off: not running as root");
    }

    @Test
    void wan_auto_with_the_rights_is_on() {
        assertThat(WanSupport.decide(WanMode.AUTO, new WanCheck(true, "WAN on")).on()).isTrue();
        assertThat(WanSupport.decide(WanMode.OFF, new WanCheck(true, "WAN on")).on()).isFalse();
    }
}
