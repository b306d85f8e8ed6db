package io.geobroker.matching;

/** Outcome of {@link OrderBook#add}: a value, not an exception, since a duplicate is expected on replay. */
public enum AddResult {
    /** The order now rests in the book. */
    ACCEPTED,
    /** An order with this id is already in the book; the book is unchanged. */
    DUPLICATE_ID
}
