package io.geobroker.domain;

/** DAY orders expire at the close of their exchange; GTC orders rest until filled or cancelled. */
public enum TimeInForce {
    DAY,
    GTC
}
