package io.geobroker.domain;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class SymbolDirectoryTest {

    private final SymbolDirectory directory = SymbolDirectory.standard();

    @Test
    void ships_about_85_us_and_40_asx_symbols_each_with_a_sector() {
        long us = directory.symbols().stream()
                .filter(s -> s.exchange().equals("NYSE") || s.exchange().equals("NASDAQ")).count();
        assertThat(us).isEqualTo(85);
        assertThat(directory.symbolsOf("ASX")).hasSize(40);
        assertThat(directory.symbols()).allSatisfy(s -> {
            assertThat(s.sector()).isNotBlank();
            assertThat(s.isValidPrice(s.startPrice())).isTrue();
        });
    }

    @Test
    void every_exchange_belongs_to_one_catalogued_region_and_currency() {
        assertThat(directory.exchanges()).allSatisfy(e ->
                assertThat(directory.regions().stream().filter(r -> r.owns(e.code()))).hasSize(1));
        assertThat(directory.exchange("ASX").orElseThrow().currency()).isEqualTo("AUD");
        assertThat(directory.exchange("NYSE").orElseThrow().currency()).isEqualTo("USD");
        assertThat(directory.region("sydney").orElseThrow().dataCenter()).isEqualTo("SydneyDC");
        assertThat(directory.region("nvirginia").orElseThrow().exchanges()).containsExactly("NYSE", "NASDAQ");
    }

    @Test
    void currency_of_a_symbol_comes_from_its_exchange() {
        assertThat(directory.currencyOf(directory.symbol("BHP").orElseThrow())).isEqualTo("AUD");
        assertThat(directory.currencyOf(directory.symbol("AAPL").orElseThrow())).isEqualTo("USD");
        assertThat(directory.symbol("NOPE")).isEmpty();
    }
}
