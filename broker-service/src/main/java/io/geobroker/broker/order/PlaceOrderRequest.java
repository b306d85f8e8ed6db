package io.geobroker.broker.order;

import io.geobroker.domain.OrderType;
import io.geobroker.domain.Side;
import io.geobroker.domain.TimeInForce;
import io.swagger.v3.oas.annotations.media.Schema;

/** Body of {@code POST /api/v1/orders}. Prices are integer minor units (cents). */
public record PlaceOrderRequest(
        @Schema(description = "The client's own id for this order; repeating it makes placement idempotent",
                example = "c-42", requiredMode = Schema.RequiredMode.REQUIRED) String clientOrderId,
        @Schema(example = "AAPL", requiredMode = Schema.RequiredMode.REQUIRED) String symbol,
        @Schema(requiredMode = Schema.RequiredMode.REQUIRED) Side side,
        @Schema(requiredMode = Schema.RequiredMode.REQUIRED) OrderType type,
        @Schema(description = "Whole shares, > 0", example = "10", requiredMode = Schema.RequiredMode.REQUIRED) Long quantity,
        @Schema(description = "Minor units; LIMIT and STOP_LIMIT only", example = "19000") Long limitPrice,
        @Schema(description = "Minor units; STOP and STOP_LIMIT only") Long stopPrice,
        @Schema(description = "Default DAY (expires at the exchange's close)") TimeInForce timeInForce,
        @Schema(description = "Never fill partially; default false") Boolean allOrNone) {
}
