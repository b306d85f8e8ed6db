package io.geobroker.domain;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import java.io.IOException;

/**
 * JSON encoding of the Kafka messages ({@link Ticker}, {@link Fill}). Decoding validates every
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
