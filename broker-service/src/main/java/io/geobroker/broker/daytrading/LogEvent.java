package io.geobroker.broker.daytrading;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;

/**
 * One event of the day-trading audit log as stored (short JSON names; absent when null). {@code kind}
 * is the element of the course's schema; amounts and prices are minor units.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record LogEvent(@JsonProperty("k") String kind,
                       @JsonProperty("t") long timestampMillis,
                       @JsonProperty("n") long transactionNum,
                       @JsonProperty("c") String command,
                       @JsonProperty("s") String stockSymbol,
                       @JsonProperty("f") String filename,
                       @JsonProperty("u") Long funds,
                       @JsonProperty("p") Long price,
                       @JsonProperty("q") Long quoteServerTime,
                       @JsonProperty("y") String cryptokey,
                       @JsonProperty("a") String action,
                       @JsonProperty("m") String message) {
}
