package io.geobroker.broker.fill;

import io.geobroker.domain.Fill;
import io.geobroker.domain.OrderEvent;

import java.util.List;

/**
 * Told of a group's fills and order events once they are durable and handed to Kafka (the live
 * page's push). Called on the engine's thread: it must only hand them on, never block.
 */
public interface FillListener {

    void filled(List<Fill> fills);

    /** Orders the group cancelled or expired. */
    default void ended(List<OrderEvent> events) {
    }
}
