package io.geobroker.broker.it;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;

/**
 * A FIX 4.4 session written by hand over a socket, for what a well-behaved engine never sends: a
 * message with a wrong checksum. Fields are joined with SOH; header and trailer are computed.
 */
final class RawFix implements AutoCloseable {

    private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("yyyyMMdd-HH:mm:ss.SSS");
    private final Socket socket;
    private final OutputStream out;
    private final InputStream in;
    private final String sender;
    private final String target;
    private final StringBuilder buffer = new StringBuilder();

    private RawFix(String host, int port, String sender, String target) throws IOException {
        this.socket = new Socket(host, port);
        this.out = socket.getOutputStream();
        this.in = socket.getInputStream();
        this.sender = sender;
        this.target = target;
    }

    /** Connects and logs on with sequence number 1 and a reset, waiting for the broker's Logon. */
    static RawFix logon(String host, int port, String sender, String target, String token) throws IOException {
        RawFix raw = new RawFix(host, port, sender, target);
        raw.send("A", 1, "98=0\u0001108=30\u0001141=Y\u0001554=" + token + "\u0001");
        String answer = raw.readUntil("\u000135=A\u0001", Duration.ofSeconds(15));
        if (answer == null) {
            raw.close();
            throw new IOException("no Logon answer");
        }
        return raw;
    }

    void send(String msgType, int seq, String body) throws IOException {
        write(frame(msgType, seq, body, false));
    }

    /** The same message with a checksum one off. */
    void sendGarbled(String msgType, int seq, String body) throws IOException {
        write(frame(msgType, seq, body, true));
    }

    private String frame(String msgType, int seq, String body, boolean wrongChecksum) {
        String afterLength = "35=" + msgType + "\u000149=" + sender + "\u000156=" + target + "\u000134=" + seq
                + "\u000152=" + LocalDateTime.now(ZoneOffset.UTC).format(TIME) + "\u0001" + body;
        String head = "8=FIX.4.4\u00019=" + afterLength.getBytes(StandardCharsets.US_ASCII).length + "\u0001" + afterLength;
        int sum = 0;
        for (byte b : head.getBytes(StandardCharsets.US_ASCII)) {
            sum += b & 0xFF;
        }
        sum = (sum + (wrongChecksum ? 1 : 0)) % 256;
        return head + String.format("10=%03d\u0001", sum);
    }

    private void write(String message) throws IOException {
        out.write(message.getBytes(StandardCharsets.US_ASCII));
        out.flush();
    }

    /** The first whole message received that contains {@code text}, or null after {@code within}. */
    String readUntil(String text, Duration within) throws IOException {
        long until = System.nanoTime() + within.toNanos();
        byte[] chunk = new byte[4096];
        while (System.nanoTime() < until) {
            int end;
            while ((end = buffer.indexOf("\u000110=")) >= 0 && buffer.indexOf("\u0001", end + 4) >= 0) {
                int close = buffer.indexOf("\u0001", end + 4) + 1;
                String message = buffer.substring(0, close);
                buffer.delete(0, close);
                if (message.contains(text)) {
                    return message;
                }
            }
            socket.setSoTimeout((int) Math.max(1, (until - System.nanoTime()) / 1_000_000));
            try {
                int n = in.read(chunk);
                if (n < 0) {
                    return null;
                }
                buffer.append(new String(chunk, 0, n, StandardCharsets.US_ASCII));
            } catch (java.net.SocketTimeoutException e) {
                return null;
            }
        }
        return null;
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }
}
