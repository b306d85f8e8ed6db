package io.geobroker.broker.fill;

import io.geobroker.domain.Fill;

import java.util.List;

/**
 * Told of a group's fills once they are durable and handed to Kafka (the live page's push). Called
 * on the engine's thread: it must only hand the fills on, never block.
 */
public interface FillListener {

    void filled(List<Fill> fills);
}
