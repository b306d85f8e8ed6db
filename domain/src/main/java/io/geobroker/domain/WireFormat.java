package io.geobroker.domain;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import java.io.IOException;

/**
 * JSON encoding of the Kafka messages ({@link Ticker}, {@link Fill}, {@link OrderEvent}). Decoding validates every
 * field and reports a poison message as {@link InvalidMessageException} with a reason fit for a
 * dead-letter header; it never returns a half-valid value.
 */
public final class WireFormat {

    private static final ObjectMapper MAPPER = new ObjectMapper()
            .configure(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, false);

    /** Messages larger than this are rejected before parsing. */
    public static final int MAX_MESSAGE_BYTES = 64 * 1024;

    private WireFormat() {
    }

    /** A message that cannot be decoded into a valid value. */
    public static final class InvalidMessageException extends Exception {
        public InvalidMessageException(String reason) {
            super(reason);
        }
    }

    public static byte[] encode(Ticker ticker) {
        return write(ticker);
    }

    public static byte[] encode(Fill fill) {
        return write(fill);
    }

    public static byte[] encode(OrderEvent event) {
        return write(event);
    }

    /** Decodes and validates a ticker against the directory (known symbol, its exchange, tick size). */
    public static Ticker decodeTicker(byte[] bytes, SymbolDirectory directory) throws InvalidMessageException {
        JsonNode node = parse(bytes);
        String symbol = text(node, "symbol");
        String exchange = text(node, "exchange");
        long price = number(node, "price");
        long volume = number(node, "volume");
        long time = number(node, "exchangeTimeMicros");
        long sequence = number(node, "sequence");
        SymbolInfo info = directory.symbol(symbol)
                .orElseThrow(() -> new InvalidMessageException("unknown symbol " + symbol));
        if (!info.exchange().equals(exchange)) {
            throw new InvalidMessageException("symbol " + symbol + " is listed on " + info.exchange() + ", not " + exchange);
        }
        if (!info.isValidPrice(price)) {
            throw new InvalidMessageException("price " + price + " is not a positive multiple of tick size " + info.tickSize());
        }
        if (volume <= 0) {
            throw new InvalidMessageException("volume must be positive, was " + volume);
        }
        if (time <= 0 || sequence < 0) {
            throw new InvalidMessageException("exchangeTimeMicros must be positive and sequence not negative");
        }
        return new Ticker(symbol, exchange, price, volume, time, sequence);
    }

    public static Fill decodeFill(byte[] bytes) throws InvalidMessageException {
        try {
            JsonNode node = parse(bytes);
            return MAPPER.treeToValue(node, Fill.class);
        } catch (JsonProcessingException e) {
            throw new InvalidMessageException("not a fill: " + e.getOriginalMessage());
        }
    }

    /**
     * Decodes and validates an order event: every field present and of its type, a status the topic
     * carries (cancelled or expired), quantities with {@code 0 <= filled <= quantity}, and a filled
     * notional that is not negative and is 0 when nothing filled.
     */
    public static OrderEvent decodeOrderEvent(byte[] bytes) throws InvalidMessageException {
        JsonNode node = parse(bytes);
        OrderStatus status = constant(node, "status", OrderStatus.class);
        if (!OrderEvent.published(status)) {
            throw new InvalidMessageException("status " + status + " is not an order event");
        }
        long quantity = number(node, "quantity");
        long filled = number(node, "filledQuantity");
        long notional = number(node, "filledNotional");
        if (quantity <= 0 || filled < 0 || filled > quantity) {
            throw new InvalidMessageException("quantities must satisfy 0 <= filledQuantity <= quantity and quantity > 0");
        }
        if (notional < 0 || (filled == 0) != (notional == 0)) {
            throw new InvalidMessageException("filledNotional must be positive exactly when something filled");
        }
        long time = number(node, "eventTimeMicros");
        if (time <= 0) {
            throw new InvalidMessageException("eventTimeMicros must be positive");
        }
        return new OrderEvent(text(node, "eventId"), status, text(node, "orderId"), text(node, "customerId"),
                text(node, "clientOrderId"), text(node, "symbol"), text(node, "exchange"),
                constant(node, "side", Side.class), constant(node, "orderType", OrderType.class), quantity, filled,
                notional, text(node, "currency"), time, text(node, "region"));
    }

    private static <E extends Enum<E>> E constant(JsonNode node, String field, Class<E> type) throws InvalidMessageException {
        String value = text(node, field);
        try {
            return Enum.valueOf(type, value);
        } catch (IllegalArgumentException e) {
            throw new InvalidMessageException("unknown " + field + " '" + value + "'");
        }
    }

    private static JsonNode parse(byte[] bytes) throws InvalidMessageException {
        if (bytes == null || bytes.length == 0) {
            throw new InvalidMessageException("empty message");
        }
        if (bytes.length > MAX_MESSAGE_BYTES) {
            throw new InvalidMessageException("message of " + bytes.length + " bytes exceeds " + MAX_MESSAGE_BYTES);
        }
        try {
            JsonNode node = MAPPER.readTree(bytes);
            if (node == null || !node.isObject()) {
                throw new InvalidMessageException("not a JSON object");
            }
            return node;
        } catch (IOException e) {
            throw new InvalidMessageException("malformed JSON");
        }
    }

    private static String text(JsonNode node, String field) throws InvalidMessageException {
        JsonNode value = node.get(field);
        if (value == null || !value.isTextual() || value.asText().isBlank()) {
            throw new InvalidMessageException("missing or non-text field '" + field + "'");
        }
        return value.asText();
    }

    private static long number(JsonNode node, String field) throws InvalidMessageException {
        JsonNode value = node.get(field);
        if (value == null || !value.isIntegralNumber() || !value.canConvertToLong()) {
            throw new InvalidMessageException("missing or non-integer field '" + field + "'");
        }
        return value.asLong();
    }

    private static byte[] write(Object value) {
        try {
            return MAPPER.writeValueAsBytes(value);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot encode " + value.getClass().getSimpleName(), e);
        }
    }
}
