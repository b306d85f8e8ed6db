package io.geobroker.broker.order;

import java.util.List;

/** A page of orders; pass {@code nextPageToken} as {@code pageToken} for the next (null: last page). */
public record OrderPage(List<OrderResponse> items, String nextPageToken) {
}
