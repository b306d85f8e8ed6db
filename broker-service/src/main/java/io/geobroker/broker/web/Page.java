package io.geobroker.broker.web;

import java.nio.ByteBuffer;
import java.util.Base64;
import java.util.List;

/** One page of a listing and the driver paging state of the next one (null when there is none). */
public record Page<T>(List<T> items, ByteBuffer next) {

    /** The next page as an opaque URL-safe token, or null. */
    public String nextPageToken() {
        if (next == null) {
            return null;
        }
        ByteBuffer copy = next.duplicate();
        byte[] bytes = new byte[copy.remaining()];
        copy.get(bytes);
        return Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
    }

    /**
     * Runs a paged query, turning Cassandra's refusal of a forged or stale paging state into the
     * client's 400 instead of a server error.
     */
    public static <T> T withToken(ByteBuffer pagingState, java.util.function.Supplier<T> query) {
        try {
            return query.get();
        } catch (com.datastax.oss.driver.api.core.servererrors.ProtocolError
                 | com.datastax.oss.driver.api.core.servererrors.InvalidQueryException
                 | IllegalArgumentException e) {
            if (pagingState == null) {
                throw e;
            }
            throw ApiProblem.badRequest("Invalid page token", "pageToken is not a token returned by this API");
        }
    }

    /** Decodes a page token from a request; a malformed one is the client's mistake (400). */
    public static ByteBuffer decodeToken(String token) {
        if (token == null || token.isBlank()) {
            return null;
        }
        try {
            return ByteBuffer.wrap(Base64.getUrlDecoder().decode(token));
        } catch (IllegalArgumentException e) {
            throw ApiProblem.badRequest("Invalid page token", "pageToken is not a token returned by this API");
        }
    }
}
