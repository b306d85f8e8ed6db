package io.geobroker.broker.order;

import io.geobroker.domain.OrderStatus;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.UUID;

/**
 * Order ids are name-based UUIDs of (customer id, client order id), so every region maps a repeated
 * placement to the same order row; fill ids are name-based UUIDs of (order id, ticker sequence), so
 * a fill published again after a restart carries the same id; order event ids are name-based UUIDs
 * of (order id, status), so an order has one cancel and one expiry id whoever reports it (a FIX
 * cancel's answer and the order event carry the same ExecID).
 */
public final class OrderIds {

    /**
     * Each thread's MD5 digest, reused: {@link UUID#nameUUIDFromBytes} looks one up among the JVM's
     * security providers for every id, which took as long as the hash itself.
     */
    private static final ThreadLocal<MessageDigest> MD5 = ThreadLocal.withInitial(() -> {
        try {
            return MessageDigest.getInstance("MD5");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("MD5 is missing from this JVM", e);
        }
    });

    private OrderIds() {
    }

    public static UUID orderId(String customerId, String clientOrderId) {
        return nameUuid(("order\u0000" + customerId + "\u0000" + clientOrderId).getBytes(StandardCharsets.UTF_8));
    }

    /** The id of the event that ended the order with {@code status} (CANCELLED or EXPIRED). */
    public static UUID eventId(UUID orderId, OrderStatus status) {
        return nameUuid(("order-event\u0000" + orderId + "\u0000" + status.name()).getBytes(StandardCharsets.UTF_8));
    }

    public static UUID fillId(UUID orderId, long tickerSequence) {
        return nameUuid(("fill\u0000" + orderId + "\u0000" + tickerSequence).getBytes(StandardCharsets.UTF_8));
    }

    /** The same UUID as {@link UUID#nameUUIDFromBytes} (version 3: MD5 of the name), with this thread's digest. */
    static UUID nameUuid(byte[] name) {
        MessageDigest md5 = MD5.get();
        md5.reset();
        byte[] hash = md5.digest(name);
        hash[6] = (byte) ((hash[6] & 0x0f) | 0x30);
        hash[8] = (byte) ((hash[8] & 0x3f) | 0x80);
        long msb = 0;
        long lsb = 0;
        for (int i = 0; i < 8; i++) {
            msb = (msb << 8) | (hash[i] & 0xff);
            lsb = (lsb << 8) | (hash[8 + i] & 0xff);
        }
        return new UUID(msb, lsb);
    }
}
