package io.geobroker.loadgen.daytrading;

import com.fasterxml.jackson.databind.JsonNode;

import java.math.BigDecimal;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What the broker answered for one line of a batch (the fields of the batch endpoint's result the
 * replayer uses). {@code cash} is present after commands that report it, {@code holdings} (symbol to
 * available + reserved shares), {@code triggersFilled} (triggers whose order filled completely),
 * {@code triggersPartlyFilled} (its triggers still {@code PARTIALLY_FILLED}) and
 * {@code triggersEndedPartlyFilled} (triggers cancelled or replaced after some of their order
 * filled) after DISPLAY_SUMMARY, {@code log} after DUMPLOG.
 */
public record CommandResult(long transactionNum, String command, String user, boolean ok, String error, long engineMicros,
                            String stockSymbol, String symbol, Cash cash, Map<String, Long> holdings, Long triggersFilled,
                            long triggersPartlyFilled, long triggersEndedPartlyFilled, Log log) {

    /** A cash balance after the command, in dollars of the region's currency. */
    public record Cash(String currency, BigDecimal available, BigDecimal reserved) {
        public BigDecimal total() {
            return available.add(reserved);
        }
    }

    /** Where to download the log a DUMPLOG wrote: {@code GET <base><path>}, with {@code ?user=} for a user's log. */
    public record Log(String path, String user, String filename) {
    }

    public static CommandResult of(JsonNode r) {
        JsonNode cash = r.path("cash");
        Map<String, Long> holdings = null;
        if (r.path("holdings").isArray()) {
            holdings = new LinkedHashMap<>();
            for (JsonNode h : r.path("holdings")) {
                holdings.merge(h.path("symbol").asText(), h.path("available").asLong() + h.path("reserved").asLong(), Long::sum);
            }
        }
        long partlyFilled = 0;
        for (JsonNode t : r.path("triggers")) {
            partlyFilled += "PARTIALLY_FILLED".equals(t.path("status").asText()) ? 1 : 0;
        }
        JsonNode log = r.path("log");
        return new CommandResult(r.path("transactionNum").asLong(-1), text(r, "command"), text(r, "user"),
                r.path("ok").asBoolean(false), text(r, "error"), r.path("engineMicros").asLong(0), text(r, "stockSymbol"),
                text(r, "symbol"),
                cash.isObject() ? new Cash(text(cash, "currency"), decimal(cash, "available"), decimal(cash, "reserved")) : null,
                holdings, r.path("triggersFilled").isNumber() ? r.path("triggersFilled").asLong() : null, partlyFilled,
                r.path("triggersEndedPartlyFilled").asLong(0),
                log.isObject() ? new Log(text(log, "path"), text(log, "user"), text(log, "filename")) : null);
    }

    private static String text(JsonNode n, String field) {
        JsonNode v = n.path(field);
        return v.isNull() || v.isMissingNode() ? null : v.asText();
    }

    private static BigDecimal decimal(JsonNode n, String field) {
        String v = text(n, field);
        return v == null ? BigDecimal.ZERO : new BigDecimal(v);
    }
}
