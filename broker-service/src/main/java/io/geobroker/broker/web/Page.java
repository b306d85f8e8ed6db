package io.geobroker.broker.web;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;

/**
 * One page of a listing and the driver paging state of the next one (null when there is none).
 *
 * <p>A page token is the paging state followed by an HMAC-SHA256 tag over the listing's scope (the
 * customer and the listing) and the state, keyed with a random key of this broker process. Only a
 * token this broker issued for the same customer and listing reaches Cassandra: a forged paging
 * state makes Cassandra close the whole connection with a protocol error, failing every request on
 * it, so it must never be passed on. A token outlives neither a broker restart nor a move to
 * another region's broker (400: start the listing again).
 */
public record Page<T>(List<T> items, ByteBuffer next) {

    private static final int TAG_BYTES = 16;
    private static final byte[] KEY = new byte[32];

    static {
        new SecureRandom().nextBytes(KEY);
    }

    /** The next page as an opaque URL-safe token for {@code scope}, or null. */
    public String nextPageToken(String scope) {
        if (next == null) {
            return null;
        }
        ByteBuffer copy = next.duplicate();
        byte[] state = new byte[copy.remaining()];
        copy.get(state);
        byte[] token = Arrays.copyOf(state, state.length + TAG_BYTES);
        System.arraycopy(tag(scope, state), 0, token, state.length, TAG_BYTES);
        return Base64.getUrlEncoder().withoutPadding().encodeToString(token);
    }

    /**
     * Runs a paged query, turning Cassandra's refusal of a stale paging state into the client's 400
     * instead of a server error.
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
            throw invalid();
        }
    }

    /**
     * The paging state of a token this broker issued for {@code scope}; anything else (malformed,
     * forged, another customer's or listing's, or from before a restart) is the client's mistake (400).
     */
    public static ByteBuffer decodeToken(String token, String scope) {
        if (token == null || token.isBlank()) {
            return null;
        }
        byte[] bytes;
        try {
            bytes = Base64.getUrlDecoder().decode(token);
        } catch (IllegalArgumentException e) {
            throw invalid();
        }
        if (bytes.length <= TAG_BYTES) {
            throw invalid();
        }
        byte[] state = Arrays.copyOf(bytes, bytes.length - TAG_BYTES);
        byte[] expected = Arrays.copyOf(tag(scope, state), TAG_BYTES);
        if (!MessageDigest.isEqual(expected, Arrays.copyOfRange(bytes, state.length, bytes.length))) {
            throw invalid();
        }
        return ByteBuffer.wrap(state);
    }

    private static byte[] tag(String scope, byte[] state) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(KEY, "HmacSHA256"));
            mac.update(scope.getBytes(StandardCharsets.UTF_8));
            mac.update((byte) 0);
            return mac.doFinal(state);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HmacSHA256 is not available", e);
        }
    }

    private static ApiProblem invalid() {
        return ApiProblem.badRequest("Invalid page token", "pageToken is not a token this broker returned for this listing");
    }
}
