package io.geobroker.domain;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Locale;

/**
 * Cassandra keyspace names, defined once. Besides the keyspace every DC replicates, each DC has a
 * keyspace of its own, replicated to that DC only, for what only the engine that writes there reads
 * (its redo log): the schema tool creates it, the broker and the tests name it the same way.
 */
public final class Keyspaces {

    /** Cassandra's longest keyspace name. */
    public static final int MAX_LENGTH = 48;
    private static final int HASH_CHARS = 8;

    private Keyspaces() {
    }

    /**
     * The keyspace of {@code dataCenter}'s own tables, beside {@code keyspace}: {@code keyspace},
     * {@code _} and the DC's name in lower case, every character that is not a letter or a digit as
     * {@code _}. A name longer than {@link #MAX_LENGTH} keeps its first characters and ends with
     * {@code _} and eight hexadecimal digits of the whole name's SHA-256, so two DCs stay apart.
     */
    public static String ofDataCenter(String keyspace, String dataCenter) {
        if (keyspace == null || keyspace.isBlank() || dataCenter == null || dataCenter.isBlank()) {
            throw new IllegalArgumentException("a DC's keyspace needs the keyspace and the DC's name");
        }
        String name = keyspace.toLowerCase(Locale.ROOT) + "_" + dataCenter.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9]", "_");
        if (name.length() <= MAX_LENGTH) {
            return name;
        }
        return name.substring(0, MAX_LENGTH - HASH_CHARS - 1) + "_" + sha256(name).substring(0, HASH_CHARS);
    }

    private static String sha256(String text) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is missing from this JVM", e);
        }
    }
}
