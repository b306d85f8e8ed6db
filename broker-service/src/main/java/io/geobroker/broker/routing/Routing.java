package io.geobroker.broker.routing;

import io.geobroker.domain.Region;
import io.geobroker.domain.SymbolDirectory;
import io.geobroker.domain.SymbolInfo;
import io.geobroker.domain.Topology;
import org.springframework.stereotype.Component;

import java.util.Optional;

/**
 * Where a symbol or currency is owned (its home region) according to the topology. Orders for
 * symbols at home here go to the local engine; the others (placed here for another region's symbol)
 * are the cross-region path.
 */
@Component
public class Routing {

    private final Topology topology;
    private final Region local;
    private final SymbolDirectory directory;

    public Routing(Topology topology, Region local, SymbolDirectory directory) {
        this.topology = topology;
        this.local = local;
        this.directory = directory;
    }

    public String localRegion() {
        return local.name();
    }

    public boolean isLocal(SymbolInfo symbol) {
        return local.owns(symbol.exchange());
    }

    /** The region whose broker matches the symbol, if the topology runs one. */
    public Optional<Topology.RegionEndpoints> homeOf(SymbolInfo symbol) {
        return topology.homeOfExchange(symbol.exchange());
    }

    /** The home region of a listed symbol, by its name. */
    public Optional<Topology.RegionEndpoints> homeOf(String symbol) {
        return directory.symbol(symbol).flatMap(this::homeOf);
    }

    /** The region holding cash in the currency: the one owning an exchange that trades in it. */
    public Optional<Topology.RegionEndpoints> homeOfCurrency(String currency) {
        return topology.regions().stream()
                .filter(r -> r.region().exchanges().stream()
                        .anyMatch(e -> directory.exchange(e).map(x -> x.currency().equals(currency)).orElse(false)))
                .findFirst();
    }
}
