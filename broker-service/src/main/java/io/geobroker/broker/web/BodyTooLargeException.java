package io.geobroker.broker.web;

import java.io.IOException;

/** A request body went past the configured limit while being read. */
public class BodyTooLargeException extends IOException {
    public BodyTooLargeException(int limit) {
        super("the request body exceeds " + limit + " bytes");
    }
}
