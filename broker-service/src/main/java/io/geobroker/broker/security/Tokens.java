package io.geobroker.broker.security;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.HexFormat;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * Customer API tokens: {@code <customerId>.<32 random bytes, base64url>}. The customer id in front
 * lets the broker find the stored SHA-256 with one point read; the random part is the secret. Only
 * the hash is stored, and tokens are compared in constant time.
 */
public final class Tokens {

    /** Customer ids: letters, digits, '_' and '-' (no '.', which separates the id in a token). */
    public static final Pattern CUSTOMER_ID = Pattern.compile("[A-Za-z0-9_-]{1,64}");

    private static final SecureRandom RANDOM = new SecureRandom();

    private Tokens() {
    }

    public static String newToken(String customerId) {
        byte[] secret = new byte[32];
        RANDOM.nextBytes(secret);
        return customerId + "." + Base64.getUrlEncoder().withoutPadding().encodeToString(secret);
    }

    /** The customer id a token claims, if it is well formed. */
    public static Optional<String> customerOf(String token) {
        int dot = token.lastIndexOf('.');
        if (dot <= 0 || dot == token.length() - 1) {
            return Optional.empty();
        }
        String id = token.substring(0, dot);
        return CUSTOMER_ID.matcher(id).matches() ? Optional.of(id) : Optional.empty();
    }

    public static String sha256(String token) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(token.getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(digest);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is missing from this JVM", e);
        }
    }

    /** Constant-time comparison of two secrets (or their hashes). */
    public static boolean same(String a, String b) {
        if (a == null || b == null || a.isEmpty()) {
            return false;
        }
        return MessageDigest.isEqual(a.getBytes(StandardCharsets.UTF_8), b.getBytes(StandardCharsets.UTF_8));
    }
}
