package io.geobroker.stack.wan;

import com.sun.jna.LastErrorException;
import com.sun.jna.Memory;
import com.sun.jna.Native;
import com.sun.jna.NativeLong;
import com.sun.jna.Platform;
import com.sun.jna.Pointer;
import java.io.Closeable;
import java.io.IOException;
import java.nio.charset.StandardCharsets;

/**
 * A Linux TUN device ({@code IFF_TUN | IFF_NO_PI}): each read returns one IP packet, each write
 * injects one. The device exists while the descriptor is open and keeps working after it is moved
 * to another network namespace.
 */
final class Tun implements Closeable {

    static {
        Native.register(Platform.C_LIBRARY_NAME);
    }

    private static final int O_RDWR = 2;
    private static final int O_CLOEXEC = 0x80000;
    private static final long TUNSETIFF = 0x400454caL;
    private static final short IFF_TUN = 0x0001;
    private static final short IFF_NO_PI = 0x1000;
    private static final int IFREQ_SIZE = 40;
    private static final int EINTR = 4;

    private static native int open(String path, int flags) throws LastErrorException;

    private static native int ioctl(int fd, NativeLong request, Pointer arg) throws LastErrorException;

    private static native NativeLong read(int fd, Pointer buf, NativeLong count) throws LastErrorException;

    private static native NativeLong write(int fd, Pointer buf, NativeLong count) throws LastErrorException;

    private static native int close(int fd) throws LastErrorException;

    private final String name;
    private final int fd;

    private Tun(String name, int fd) {
        this.name = name;
        this.fd = fd;
    }

    /** Creates TUN device {@code name} in the caller's network namespace. */
    static Tun create(String name) throws IOException {
        byte[] encoded = name.getBytes(StandardCharsets.US_ASCII);
        if (encoded.length > WanPlan.MAX_INTERFACE_NAME) {
            throw new IllegalArgumentException("interface name longer than 15 characters: " + name);
        }
        int fd;
        try {
            fd = open("/dev/net/tun", O_RDWR | O_CLOEXEC);
        } catch (LastErrorException e) {
            throw new IOException("cannot open /dev/net/tun (errno " + e.getErrorCode() + ")", e);
        }
        try (Memory ifreq = new Memory(IFREQ_SIZE)) {
            ifreq.clear();
            ifreq.write(0, encoded, 0, encoded.length);
            ifreq.setShort(16, (short) (IFF_TUN | IFF_NO_PI));
            ioctl(fd, new NativeLong(TUNSETIFF), ifreq);
        } catch (LastErrorException e) {
            close(fd);
            throw new IOException("TUNSETIFF " + name + " failed (errno " + e.getErrorCode() + ")", e);
        }
        return new Tun(name, fd);
    }

    String name() {
        return name;
    }

    /** Blocks for the next packet; returns its length in {@code buffer}. */
    int read(Memory buffer) throws IOException {
        while (true) {
            try {
                return read(fd, buffer, new NativeLong(buffer.size())).intValue();
            } catch (LastErrorException e) {
                if (e.getErrorCode() != EINTR) {
                    throw new IOException("read from " + name + " failed (errno " + e.getErrorCode() + ")", e);
                }
            }
        }
    }

    /** Writes one packet of {@code length} bytes from {@code buffer}. */
    void write(Memory buffer, int length) throws IOException {
        while (true) {
            try {
                write(fd, buffer, new NativeLong(length));
                return;
            } catch (LastErrorException e) {
                if (e.getErrorCode() != EINTR) {
                    throw new IOException("write to " + name + " failed (errno " + e.getErrorCode() + ")", e);
                }
            }
        }
    }

    @Override
    public void close() {
        close(fd);
    }
}
