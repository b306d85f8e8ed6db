package io.geobroker.domain;

import java.util.List;

/**
 * A region of the deployment: its Cassandra data centre and the exchanges whose symbols it owns
 * (their open orders, holdings and the cash in their currencies — SPEC §2, ownership principle).
 */
public record Region(String name, String dataCenter, List<String> exchanges, String cloudRegion) {

    public Region {
        exchanges = List.copyOf(exchanges);
    }

    public boolean owns(String exchange) {
        return exchanges.contains(exchange);
    }
}
