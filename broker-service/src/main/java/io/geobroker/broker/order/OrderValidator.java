package io.geobroker.broker.order;

import io.geobroker.broker.web.ApiProblem;
import io.geobroker.domain.OrderType;
import io.geobroker.domain.SymbolDirectory;
import io.geobroker.domain.SymbolInfo;
import io.geobroker.domain.TimeInForce;

import java.util.regex.Pattern;

/**
 * Checks a placement request and turns it into a {@link NewOrder}. A request that is malformed on
 * its own (missing fields, quantity not positive, a price the order type does not take) is a 400;
 * a well-formed request that does not fit the market (unknown symbol, price off the tick grid) is
 * a 422.
 */
public final class OrderValidator {

    /** Limits that keep price times quantity far from overflowing a long. */
    public static final long MAX_QUANTITY = 100_000_000L;
    public static final long MAX_PRICE = 10_000_000_000L;
    private static final Pattern CLIENT_ORDER_ID = Pattern.compile("[\\x21-\\x7E]{1,64}");

    private final SymbolDirectory directory;

    public OrderValidator(SymbolDirectory directory) {
        this.directory = directory;
    }

    public NewOrder validate(String customerId, PlaceOrderRequest r, String homeRegion, String placedRegion) {
        if (r.clientOrderId() == null || !CLIENT_ORDER_ID.matcher(r.clientOrderId()).matches()) {
            throw ApiProblem.badRequest("Invalid clientOrderId",
                    "clientOrderId is required: 1 to 64 printable ASCII characters without spaces");
        }
        require(r.symbol() != null && !r.symbol().isBlank(), "symbol");
        require(r.side() != null, "side");
        require(r.type() != null, "type");
        require(r.quantity() != null, "quantity");
        if (r.quantity() <= 0 || r.quantity() > MAX_QUANTITY) {
            throw ApiProblem.badRequest("Invalid quantity",
                    "quantity must be a whole number of shares from 1 to " + MAX_QUANTITY + ", was " + r.quantity());
        }
        OrderType type = r.type();
        checkPrice("limitPrice", r.limitPrice(), type.hasLimitPrice(), type);
        checkPrice("stopPrice", r.stopPrice(), type.hasStopPrice(), type);
        SymbolInfo symbol = directory.symbol(r.symbol()).orElseThrow(() -> ApiProblem.unprocessable("Unknown symbol",
                "symbol '" + r.symbol() + "' is not listed; GET /api/v1/symbols lists the tradable symbols"));
        onTick("limitPrice", r.limitPrice(), symbol);
        onTick("stopPrice", r.stopPrice(), symbol);
        String currency = directory.exchange(symbol.exchange()).orElseThrow().currency();
        return new NewOrder(OrderIds.orderId(customerId, r.clientOrderId()), customerId, r.clientOrderId(), symbol,
                currency, r.side(), type, r.timeInForce() == null ? TimeInForce.DAY : r.timeInForce(),
                Boolean.TRUE.equals(r.allOrNone()), r.quantity(), r.limitPrice(), r.stopPrice(), homeRegion,
                placedRegion);
    }

    private static void require(boolean present, String field) {
        if (!present) {
            throw ApiProblem.badRequest("Missing field", "field '" + field + "' is required");
        }
    }

    private static void checkPrice(String field, Long price, boolean expected, OrderType type) {
        if (expected && price == null) {
            throw ApiProblem.badRequest("Missing price", type + " orders need " + field);
        }
        if (!expected && price != null) {
            throw ApiProblem.badRequest("Unexpected price", type + " orders take no " + field);
        }
        if (price != null && (price <= 0 || price > MAX_PRICE)) {
            throw ApiProblem.badRequest("Invalid price",
                    field + " must be from 1 to " + MAX_PRICE + " minor units, was " + price);
        }
    }

    private static void onTick(String field, Long price, SymbolInfo symbol) {
        if (price != null && !symbol.isValidPrice(price)) {
            throw ApiProblem.unprocessable("Price off the tick grid", field + " " + price + " is not a multiple of "
                    + symbol.symbol() + "'s tick size " + symbol.tickSize());
        }
    }
}
