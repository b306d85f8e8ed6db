package io.geobroker.domain;

/**
 * One listed stock. {@code tickSize} and {@code startPrice} are minor units of the exchange's
 * currency; every valid price of the symbol is a positive multiple of {@code tickSize}.
 */
public record SymbolInfo(String symbol, String exchange, String name, String sector,
                         long tickSize, long startPrice) {

    public boolean isValidPrice(long priceMinorUnits) {
        return priceMinorUnits > 0 && priceMinorUnits % tickSize == 0;
    }
}
