package io.geobroker.domain;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.LocalTime;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The directory of exchanges, symbols and known regions that ships with geobroker
 * ({@code geobroker/exchanges.csv}, {@code symbols.csv}, {@code regions.csv} on the class path).
 * Every module reads the same files through this class. Immutable and thread-safe.
 */
public final class SymbolDirectory {

    private static final SymbolDirectory STANDARD = load();

    private final Map<String, Exchange> exchanges;
    private final Map<String, SymbolInfo> symbols;
    private final Map<String, Region> regions;

    private SymbolDirectory(Map<String, Exchange> exchanges, Map<String, SymbolInfo> symbols,
                            Map<String, Region> regions) {
        this.exchanges = Collections.unmodifiableMap(exchanges);
        this.symbols = Collections.unmodifiableMap(symbols);
        this.regions = Collections.unmodifiableMap(regions);
    }

    /** The directory shipped on the class path. */
    public static SymbolDirectory standard() {
        return STANDARD;
    }

    public Optional<SymbolInfo> symbol(String symbol) {
        return Optional.ofNullable(symbols.get(symbol));
    }

    public Optional<Exchange> exchange(String code) {
        return Optional.ofNullable(exchanges.get(code));
    }

    /** A region of the catalogue by name (e.g. {@code sydney}). */
    public Optional<Region> region(String name) {
        return Optional.ofNullable(regions.get(name));
    }

    public Collection<SymbolInfo> symbols() {
        return symbols.values();
    }

    public List<SymbolInfo> symbolsOf(String exchange) {
        return symbols.values().stream().filter(s -> s.exchange().equals(exchange)).toList();
    }

    public Collection<Exchange> exchanges() {
        return exchanges.values();
    }

    public Collection<Region> regions() {
        return regions.values();
    }

    /** The currency a symbol trades in. */
    public String currencyOf(SymbolInfo symbol) {
        return exchanges.get(symbol.exchange()).currency();
    }

    private static SymbolDirectory load() {
        Map<String, Exchange> exchanges = new LinkedHashMap<>();
        for (String[] f : rows("geobroker/exchanges.csv", 7)) {
            exchanges.put(f[0], new Exchange(f[0], f[1], Integer.parseInt(f[2]), ZoneId.of(f[3]),
                    LocalTime.parse(f[4]), LocalTime.parse(f[5]), f[6]));
        }
        Map<String, SymbolInfo> symbols = new LinkedHashMap<>();
        for (String[] f : rows("geobroker/symbols.csv", 6)) {
            if (!exchanges.containsKey(f[1])) {
                throw new IllegalStateException("symbol " + f[0] + " names unknown exchange " + f[1]);
            }
            SymbolInfo info = new SymbolInfo(f[0], f[1], f[2], f[3], Long.parseLong(f[4]), Long.parseLong(f[5]));
            if (symbols.put(info.symbol(), info) != null) {
                throw new IllegalStateException("symbol " + info.symbol() + " is listed twice");
            }
        }
        Map<String, Region> regions = new LinkedHashMap<>();
        for (String[] f : rows("geobroker/regions.csv", 4)) {
            regions.put(f[0], new Region(f[0], f[1], Arrays.asList(f[2].split(";")), f[3]));
        }
        return new SymbolDirectory(exchanges, symbols, regions);
    }

    private static List<String[]> rows(String resource, int columns) {
        InputStream in = SymbolDirectory.class.getClassLoader().getResourceAsStream(resource);
        if (in == null) {
            throw new IllegalStateException(resource + " is missing from the class path");
        }
        List<String[]> rows = new ArrayList<>();
        try (BufferedReader reader = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
            String line;
            while ((line = reader.readLine()) != null) {
                if (line.isBlank() || line.startsWith("#")) {
                    continue;
                }
                String[] fields = line.split(",", -1);
                if (fields.length != columns) {
                    throw new IllegalStateException(resource + ": expected " + columns + " fields in: " + line);
                }
                rows.add(fields);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return rows;
    }
}
