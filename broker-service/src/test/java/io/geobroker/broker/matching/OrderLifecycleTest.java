package io.geobroker.broker.matching;

import io.geobroker.domain.SymbolDirectory;
import io.geobroker.domain.SymbolInfo;
import org.junit.jupiter.api.Test;

import java.time.Instant;

import static org.assertj.core.api.Assertions.assertThat;

class OrderLifecycleTest {

    private final SymbolDirectory directory = SymbolDirectory.standard();

    @Test
    void day_orders_expire_at_the_next_close_of_their_exchange() {
        SymbolInfo aapl = directory.symbol("AAPL").orElseThrow();
        // 20:00 UTC on a November Monday is 15:00 in New York: today's 16:00 close.
        assertThat(OrderLifecycle.closeAfter(aapl, Instant.parse("2026-11-23T20:00:00Z"), directory))
                .isEqualTo(Instant.parse("2026-11-23T21:00:00Z"));
        // After the close, the next day's.
        assertThat(OrderLifecycle.closeAfter(aapl, Instant.parse("2026-11-23T21:00:00Z"), directory))
                .isEqualTo(Instant.parse("2026-11-24T21:00:00Z"));
    }

    @Test
    void asx_orders_close_in_sydney_time() {
        SymbolInfo asx = directory.symbols().stream().filter(s -> s.exchange().equals("ASX")).findFirst().orElseThrow();
        // 03:00 UTC is 14:00 in Sydney (daylight saving, UTC+11): today's 16:00 close is 05:00 UTC.
        assertThat(OrderLifecycle.closeAfter(asx, Instant.parse("2026-11-23T03:00:00Z"), directory))
                .isEqualTo(Instant.parse("2026-11-23T05:00:00Z"));
    }

    @Test
    void the_protection_price_rounds_up_to_the_tick() {
        assertThat(OrderLifecycle.protectionPrice(10_000, 1, 500)).isEqualTo(10_500);
        assertThat(OrderLifecycle.protectionPrice(10_001, 1, 500)).isEqualTo(10_502);
        assertThat(OrderLifecycle.protectionPrice(10_000, 5, 1)).isEqualTo(10_005);
        assertThat(OrderLifecycle.protectionPrice(10_000, 1, 0)).isEqualTo(10_000);
    }
}
